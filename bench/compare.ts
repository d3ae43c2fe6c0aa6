/**
 * A/B of two builds in one run, for judging a change on this noisy machine: the current `dist/` and
 * another build of the server (a folder inside the project, so that it finds node_modules), each
 * started as `npm start` starts it on its own embedded store (or on DATABASE_URL's database, which
 * must then be two: set DATABASE_URL_A and DATABASE_URL_B), seeded alike, then loaded in alternation,
 * ROUNDS times each. Prints the server's CPU time per request of every run.
 *
 *   git stash && npm run build && cp -r dist .bench-before && git stash pop && npm run build
 *   npx tsx bench/compare.ts .bench-before "GET client" "POST new client"
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedBench, type Seeded } from './seed.js';

const [other, ...wanted] = process.argv.slice(2);
if (!other) throw new Error('usage: tsx bench/compare.ts OTHER_DIST_DIR [scenario ...]');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const START = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
const START_ENV = Object.fromEntries(START.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2) as [string, string]));

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function start(dist: string, port: number, databaseUrl: string | undefined): Promise<{ child: ChildProcess; url: string; seeded: Seeded }> {
  const env = {
    ...process.env, ...START_ENV, NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1',
    ADMIN_EMAIL: 'bench@crmkit.local', ADMIN_PASSWORD: 'bench-password-123', AUTH_FAILURE_LIMIT: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, PG_POOL_SIZE: '20' } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'crmkit-compare-')) }),
  };
  const child = spawn(process.execPath, [join(dist, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (i > 300 || child.exitCode !== null) throw new Error(`${dist} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, url, seeded: await seedBench(url, Number(process.env.BENCH_CLIENTS ?? 1000)) };
}

function specs(s: Seeded, url: string): Record<string, Record<string, unknown>> {
  const bearer = { authorization: `Bearer ${s.issued}` };
  const json = { 'content-type': 'application/json', ...bearer };
  const clients = `/api/v1/businesses/${s.urlKey}/clients`;
  return {
    '/healthz': { url, method: 'GET', path: '/healthz', headers: {}, expectStatus: 200 },
    'GET pipelines (issued)': { url, method: 'GET', path: `/api/v1/businesses/${s.urlKey}/pipelines`, headers: bearer, expectStatus: 200, expectText: '"stageReasons"' },
    'GET client': { url, method: 'GET', path: clients, randomPaths: s.clientIds.map((id) => `${clients}/${encodeURIComponent(id)}`), headers: bearer, expectStatus: 200, expectText: '"clientId"' },
    'POST new client': { url, method: 'POST', path: clients, headers: json, uniqueClients: `compare-${Date.now()}`, expectStatus: 201, expectText: '"clientId"' },
    'POST identical retry': { url, method: 'POST', path: clients, headers: json, body: s.retryBody, expectStatus: 201, expectText: '"idempotent":true' },
  };
}

const servers = {
  current: await start('dist', 39_400, process.env.DATABASE_URL_A),
  [other]: await start(other, 39_401, process.env.DATABASE_URL_B),
};
try {
  for (const scenario of wanted.length > 0 ? wanted : ['GET client']) {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const spec = specs(server.seeded, server.url)[scenario];
        if (!spec) throw new Error(`no scenario ${scenario}`);
        const before = cpuMicros(server.child.pid!);
        const result = JSON.parse(execFileSync(process.execPath, ['bench/load.mjs'], { input: JSON.stringify({ connections: 50, duration: 3, ...spec }) }).toString()) as { requestsPerSecond: number; total: number; errors: number; wrong: number };
        const perRequest = (cpuMicros(server.child.pid!) - before) / result.total;
        console.log(`${scenario.padEnd(24)} round ${round} ${name.padEnd(16)} ${String(Math.round(result.requestsPerSecond)).padStart(6)} req/s  CPU/req ${perRequest.toFixed(1)} us${result.errors + result.wrong > 0 ? `  ${result.errors} errors, ${result.wrong} wrong` : ''}`);
      }
    }
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
}
