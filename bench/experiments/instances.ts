// Scale-out figures for docs/scaling.md: 1, 2 and 3 crmkit instances on one PostgreSQL, directly and
// through PgBouncer (transaction mode), under one fixed load split over the instances.
//   npm run build && npx tsx bench/experiments/instances.ts   (BENCH_PG_URL: a database of its own; default below)
// Prints a Markdown table and writes bench/results/instances.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { startPgBouncer } from '../../scripts/pgbouncer.mjs';
import { SERVER_FLAGS, cpuByProcess, scenarios, serverEnv, waitFor } from '../server.js';
import { seedBench, type Seeded } from '../seed.js';

// A fresh database beside BENCH_PG_URL's, created here and dropped at the end: the bench seeds its own operator.
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = `${new URL(ADMIN_URL).pathname.slice(1)}_instances`;
const DIRECT = ADMIN_URL.replace(/\/[^/]*$/, `/${DATABASE}`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 48; // in all, split over the instances
const POOL = 10; // PG_POOL_SIZE per instance
const BOUNCER_POOL = 8; // PgBouncer's server connections: fewer than 3 × POOL
const WANTED = ['GET client', 'POST new client'];

interface Topology {
  name: string;
  instances: number;
  viaBouncer: boolean;
  prepared: 'true' | 'false';
}
interface Row extends Topology {
  scenario: string;
  rps: number;
  p99: number;
  errors: number;
  serverUs: number;
  postgresUs: number;
  bouncerUs: number;
}

function load(
  spec: Record<string, unknown>,
): Promise<{ requestsPerSecond: number; p99: number; errors: number; wrong: number; total: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/load.mjs'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out));
      } catch (error) {
        reject(error);
      }
    });
    child.stdin.end(JSON.stringify(spec));
  });
}

async function backends(): Promise<number[]> {
  const client = new pg.Client({ connectionString: DIRECT });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [DATABASE],
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

const cpu = (pids: number[]) => [...cpuByProcess(pids).values()].reduce((a, b) => a + b, 0);

async function startInstance(port: number, databaseUrl: string, prepared: string): Promise<ChildProcess> {
  const env = {
    ...serverEnv(port),
    DATABASE_URL: databaseUrl,
    DATABASE_DIRECT_URL: DIRECT,
    DATABASE_PREPARED: prepared,
    PG_POOL_SIZE: String(POOL),
  };
  const child = spawn(process.execPath, [...SERVER_FLAGS, 'dist/main.js'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/healthz`, child);
  return child;
}

async function measure(
  topology: Topology,
  bouncer: { url(db: string): string; pid: number },
  seeded: Seeded | undefined,
  rows: Row[],
): Promise<Seeded> {
  const databaseUrl = topology.viaBouncer ? bouncer.url(DATABASE) : DIRECT;
  const ports = Array.from({ length: topology.instances }, (_, i) => 4100 + i);
  const children = await Promise.all(ports.map((port) => startInstance(port, databaseUrl, topology.prepared)));
  try {
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    seeded ??= await seedBench(urls[0]!, 5000);
    for (const [scenario, spec] of scenarios(seeded, urls[0]!).filter(([name]) => WANTED.includes(name))) {
      const run = (seconds: number) =>
        Promise.all(
          urls.map((url) => load({ ...spec, url, connections: CONNECTIONS / urls.length, duration: seconds })),
        );
      await run(2); // warm: pools open, plans cached, JIT done
      const pids = [...(await backends())];
      const before = { server: cpu(children.map((c) => c.pid!)), postgres: cpu(pids), bouncer: cpu([bouncer.pid]) };
      const results = await run(SECONDS);
      const after = { server: cpu(children.map((c) => c.pid!)), postgres: cpu(pids), bouncer: cpu([bouncer.pid]) };
      const total = results.reduce((n, r) => n + r.total, 0);
      const per = (key: keyof typeof before) => Math.round((after[key] - before[key]) / Math.max(total, 1));
      const row: Row = {
        ...topology,
        scenario,
        rps: Math.round(results.reduce((n, r) => n + r.requestsPerSecond, 0)),
        p99: Math.max(...results.map((r) => r.p99)),
        errors: results.reduce((n, r) => n + r.errors + r.wrong, 0),
        serverUs: per('server'),
        postgresUs: per('postgres'),
        bouncerUs: topology.viaBouncer ? per('bouncer') : 0,
      };
      rows.push(row);
      console.log(
        `${row.name} | ${row.instances} | ${row.scenario} | ${row.rps} | ${row.p99} | ${row.serverUs} | ${row.postgresUs} | ${row.bouncerUs} | ${row.errors}`,
      );
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  }
  return seeded;
}

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

async function main(): Promise<void> {
  await asAdmin(`drop database if exists ${DATABASE} with (force)`);
  await asAdmin(`create database ${DATABASE}`);
  const bouncer = await startPgBouncer({ upstream: DIRECT, poolSize: BOUNCER_POOL });
  const rows: Row[] = [];
  const topologies: Topology[] = [
    ...[1, 2, 3].map((n) => ({
      name: 'direct, named statements',
      instances: n,
      viaBouncer: false,
      prepared: 'true' as const,
    })),
    { name: 'direct, unnamed statements', instances: 1, viaBouncer: false, prepared: 'false' },
    ...[1, 2, 3].map((n) => ({
      name: `PgBouncer (pool ${BOUNCER_POOL}), unnamed`,
      instances: n,
      viaBouncer: true,
      prepared: 'false' as const,
    })),
  ];
  console.log(
    `${new Date().toISOString()}, ${SECONDS} s per scenario, ${CONNECTIONS} connections in all, PG_POOL_SIZE=${POOL}`,
  );
  console.log(
    'topology | instances | scenario | req/s | p99 ms | server CPU µs/req | PostgreSQL CPU µs/req | PgBouncer CPU µs/req | errors',
  );
  console.log('---|---|---|---|---|---|---|---|---');
  let seeded: Seeded | undefined;
  try {
    for (const topology of topologies) seeded = await measure(topology, bouncer, seeded, rows);
  } finally {
    await bouncer.stop();
    await asAdmin(`drop database if exists ${DATABASE} with (force)`);
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/instances.json',
    `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, pool: POOL, bouncerPool: BOUNCER_POOL, rows }, null, 2)}\n`,
  );
}

await main();
