/**
 * A/B of two builds in one run, for judging a change on this noisy machine: the current `dist/` and
 * another build of the server (a folder inside the project, so that it finds node_modules), each
 * started as `npm start` starts it on its own embedded store (or on DATABASE_URL's database, which
 * must then be two: set DATABASE_URL_A and DATABASE_URL_B), seeded alike, then loaded in alternation,
 * ROUNDS times each. Prints the server's CPU time per request of every run and, on PostgreSQL, that
 * of the database's backends serving it.
 *
 *   git stash && npm run build && cp -r dist .bench-before && git stash pop && npm run build
 *   npx tsx bench/experiments/compare.ts .bench-before "GET client" "POST new client"
 *   (COMPARE_SECONDS: each run's length, 3 by default; the invoices' scenarios seed the invoices too)
 */
import pg from 'pg';
import type { Seeded } from '../seed.js';
import { startSeededServer } from './seeded-server.js';
import { cpuByProcess, scenarios } from '../server.js';
import { runWrk, type LoadSpec } from '../wrk.js';
import { HOOKED_SCENARIO } from '../webhooks.js';
import { INVOICE_SCENARIOS, invoiceScenarios, operatorToken, seedInvoices, type InvoiceSeed } from '../invoices.js';

const [other, ...wanted] = process.argv.slice(2);
if (!other) throw new Error('usage: tsx bench/experiments/compare.ts OTHER_DIST_DIR [scenario ...]');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const hooked = wanted.includes(HOOKED_SCENARIO);
const invoices = wanted.some((w) => (INVOICE_SCENARIOS as readonly string[]).includes(w));
/** COMPARE_NODE_FLAGS: more flags for both servers' node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const nodeFlags = (process.env.COMPARE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** The bench's scenarios (the invoices' when one is wanted: bench/invoices.ts), and /healthz for the fixed cost of a request. */
function specs(s: Seeded, url: string, i: InvoiceSeed | null): Record<string, LoadSpec> {
  return {
    '/healthz': { url, method: 'GET', path: '/healthz', headers: {}, expect: { status: 200 } },
    ...Object.fromEntries(scenarios(s, url)),
    ...(i && Object.fromEntries(invoiceScenarios(s, i, url))),
  };
}

/** A server seeded as the bench seeds it, with the invoices' seed when an invoice scenario is wanted. */
async function start(dist: string, port: number, databaseUrl: string | undefined) {
  const server = await startSeededServer(dist, port, { databaseUrl, hooked, nodeFlags });
  const invoiceSeed = invoices ? await seedInvoices(server.url, server.seeded, await operatorToken(server.url)) : null;
  return { ...server, databaseUrl, invoiceSeed };
}

const cpuOf = (pid: number) => cpuByProcess([pid]).get(pid) ?? 0;

/**
 * PostgreSQL's work so far for this URL's database: CPU time (µs) of the backends connected to it, and
 * transactions committed (PostgreSQL flushes these counts within a second or so of each commit).
 */
async function databaseWork(databaseUrl: string | undefined): Promise<{ cpu: Map<number, number>; commits: number }> {
  if (!databaseUrl) return { cpu: new Map(), commits: 0 };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const {
      rows: [stats],
    } = await client.query<{ commits: string }>(
      'select xact_commit as commits from pg_stat_database where datname = current_database()',
    );
    return { cpu: cpuByProcess(rows.map((r) => r.pid)), commits: Number(stats!.commits) };
  } finally {
    await client.end();
  }
}

/** COMPARE_PORT: the first of the two servers' ports (another engineer's compare may hold the default's). */
const port = Number(process.env.COMPARE_PORT ?? 39_400);
const servers = {
  current: await start('dist', port, process.env.DATABASE_URL_A),
  [other]: await start(other, port + 1, process.env.DATABASE_URL_B),
};
try {
  for (const scenario of wanted.length > 0 ? wanted : ['GET client']) {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const spec = specs(server.seeded, server.url, server.invoiceSeed)[scenario];
        if (!spec) throw new Error(`no scenario ${scenario}`);
        const before = cpuOf(server.child.pid!);
        const databaseBefore = await databaseWork(server.databaseUrl);
        const figures = runWrk(spec, { seconds: Number(process.env.COMPARE_SECONDS ?? 3), connections: 50 });
        const result = {
          requestsPerSecond: figures.requestsPerSecond,
          total: figures.requests,
          errors: Object.values(figures.socketErrors).reduce((a, b) => a + b, 0),
          wrong: figures.non2xx,
        };
        const perRequest = (cpuOf(server.child.pid!) - before) / result.total;
        await new Promise((r) => setTimeout(r, server.databaseUrl ? 1500 : 0)); // for the commit counts to be flushed
        const databaseAfter = await databaseWork(server.databaseUrl);
        // Per backend: the pool closes idle connections, so a backend may be new (all its time is this run's).
        let databaseCpu = 0;
        for (const [pid, used] of databaseAfter.cpu) databaseCpu += used - (databaseBefore.cpu.get(pid) ?? 0);
        const databasePerRequest = databaseCpu / result.total;
        const requestsPerCommit = result.total / Math.max(1, databaseAfter.commits - databaseBefore.commits);
        console.log(
          `${scenario.padEnd(24)} round ${round} ${name.padEnd(16)} ${String(Math.round(result.requestsPerSecond)).padStart(6)} req/s  p99 ${figures.p99.toFixed(1)} ms  CPU/req ${perRequest.toFixed(1)} us${server.databaseUrl ? ` + PostgreSQL ${databasePerRequest.toFixed(1)} us, ${requestsPerCommit.toFixed(1)} requests per commit` : ''}${result.errors + result.wrong > 0 ? `  ${result.errors} errors, ${result.wrong} not 2xx` : ''}`,
        );
      }
    }
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
}
