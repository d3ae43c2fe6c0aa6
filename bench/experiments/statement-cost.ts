// What named (prepared) statements save, and what PgBouncer costs, per query: the client point read
// (GET client's one query) run one at a time, CPU time read from /proc for the PostgreSQL backend and
// the pgbouncer process. CPU time, not wall time, so a busy machine moves it less than it moves req/s.
//   npx tsx bench/experiments/statement-cost.ts   (BENCH_PG_URL: a database with crmkit's schema; default the test database)
import { sql } from 'kysely';
import { startPgBouncer } from '../../scripts/pgbouncer.mjs';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { openPostgres } from '../../src/storage/db.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { cpuByProcess } from '../server.js';
import { directWrites } from '../../src/storage/group-commit.js';

const DIRECT = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const cpu = (pid: number) => cpuByProcess([pid]).get(pid) ?? 0;

async function run(name: string, url: string, prepared: boolean, bouncerPid?: number): Promise<void> {
  const { db } = openPostgres(url, 1, { prepared });
  try {
    const data = new BusinessDataStore(db, directWrites(db), 'batched-statement');
    for (let i = 0; i < 500; i++) await data.findClient('no-such-business', `warm-${i}`);
    // Through the pooler the backend is whichever server connection it lends: with one client, always the same.
    const backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    const before = { pg: cpu(backend), bouncer: bouncerPid ? cpu(bouncerPid) : 0, wall: performance.now() };
    for (let i = 0; i < QUERIES; i++) await data.findClient('no-such-business', `c-${i}`);
    const after = { pg: cpu(backend), bouncer: bouncerPid ? cpu(bouncerPid) : 0, wall: performance.now() };
    const per = (a: number, b: number) => ((a - b) / QUERIES).toFixed(1);
    console.log(
      `${name} | ${per(after.pg, before.pg)} | ${bouncerPid ? per(after.bouncer, before.bouncer) : '–'} | ${(((after.wall - before.wall) * 1000) / QUERIES).toFixed(0)}`,
    );
  } finally {
    await db.destroy();
  }
}

const setup = openPostgres(DIRECT, 1, { prepared: false });
await migrateToLatest(setup.db as never, 'postgres');
await setup.db.destroy();
const bouncer = await startPgBouncer({ upstream: DIRECT, poolSize: 2 });
const database = new URL(DIRECT).pathname.slice(1);
console.log(`${new Date().toISOString()}, ${QUERIES} point reads one after another`);
console.log('connection | PostgreSQL CPU µs/query | PgBouncer CPU µs/query | wall µs/query');
console.log('---|---|---|---');
try {
  await run('direct, named (DATABASE_PREPARED=true)', DIRECT, true);
  await run('direct, unnamed (DATABASE_PREPARED=false)', DIRECT, false);
  await run('PgBouncer transaction mode, unnamed', bouncer.url(database), false, bouncer.pid);
} finally {
  await bouncer.stop();
}
