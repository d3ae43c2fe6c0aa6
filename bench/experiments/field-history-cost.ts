// What field history costs a lead edit on PostgreSQL (docs/leads.md "Field history"): the operator's
// PATCH of one field (one FIELD_CHANGE row more in the edit's transaction, and the audit line's
// `changes`) and of three fields, timed through `app.inject` on a fresh migrated database, against
// another build of `src` (the commit before, extracted into .bench-before/src). Per PATCH: wall time
// (ms; on a loaded machine mostly waiting), this process's CPU (server and inject, µs) and the CPU of
// the database's backends (µs, from /proc at 10 ms ticks: read over the whole loop).
// Not part of the test suite. Run, alternating the builds:
//   git archive <before> src | tar -x -C .bench-before
//   FIELD_HISTORY_PG=postgres://postgres@127.0.0.1:5432/postgres FIELD_HISTORY_SRC=.bench-before/src \
//     npx tsx bench/experiments/field-history-cost.ts
//   FIELD_HISTORY_COUNT=200 (PATCHes a round, after 50 to warm up)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { cpuByProcess } from '../server.js';

const COUNT = Number(process.env.FIELD_HISTORY_COUNT ?? 200);
const SRC = resolve(process.env.FIELD_HISTORY_SRC ?? 'src');
const ADMIN_URL = process.env.FIELD_HISTORY_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const load = (path: string) => import(pathToFileURL(`${SRC}/${path}`).href);

interface Loop {
  times: number[];
  serverCpu: number;
  databaseCpu: number;
}

const stats = (label: string, { times, serverCpu, databaseCpu }: Loop) => {
  const sorted = [...times].sort((a, b) => a - b);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(2);
  const per = (us: number) => (us / times.length).toFixed(0);
  console.log(
    `${label}: wall p50 ${p(0.5)} / p90 ${p(0.9)} ms; CPU per PATCH: server ${per(serverCpu)} µs, database ${per(databaseCpu)} µs (${times.length} PATCHes)`,
  );
};

/** CPU (µs) of the backends connected to the database so far. */
async function backendCpu(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return [...cpuByProcess(rows.map((r) => r.pid)).values()].reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  const database = `hhistory_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const [{ testConfig }, { openStore }, { buildApp }, { systemClock }, { OperatorsService }] = await Promise.all([
    load('config.ts'),
    load('storage/store.ts'),
    load('app.ts'),
    load('deps.ts'),
    load('operator/operators.service.ts'),
  ]);
  const config = testConfig({ databaseUrl, databaseDirectUrl: databaseUrl, port: 0, webhooksDeliver: false });
  const store = openStore(config);
  try {
    await store.migrate();
    await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
      'bench@example.com',
      'bench-password-1',
    );
    const app = await buildApp({ config, store, clock: systemClock });
    await app.ready();
    const call = async (method: string, url: string, token: string | null, payload?: unknown) => {
      const r = await app.inject({
        method: method as 'GET',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload !== undefined && { payload: payload as object }),
      });
      if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
      return r.json();
    };
    const auth = await call('POST', '/authentication', null, {
      strategy: 'local',
      email: 'bench@example.com',
      password: 'bench-password-1',
    });
    const token = auth.accessToken as string;
    await call('POST', '/admin/v1/businesses', token, { name: 'Bench', country: 'IN', urlKey: 'bench' });
    await call('PUT', '/admin/v1/businesses/bench/pipelines', token, {
      pipelines: [{ name: 'Sales', isPrimary: true, stages: [{ name: 'New', state: 'NEW' }] }],
      stageReasons: [],
    });
    const leads = '/admin/v1/businesses/bench/leads';
    const lead = await call('POST', leads, token, {
      customer: { name: 'Bench Co' },
      contact: { name: 'Buyer' },
      pipeline: 'Sales',
      stage: 'New',
    });
    const path = `${leads}/${lead.data.leadId}`;
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    const timed = async (body: (i: number) => unknown): Promise<Loop> => {
      for (let i = 0; i < 50; i++) await call('PATCH', path, token, body(i));
      const times: number[] = [];
      const cpu = process.cpuUsage();
      const database = await backendCpu(watcher);
      for (let i = 0; i < COUNT; i++) {
        const start = process.hrtime.bigint();
        await call('PATCH', path, token, body(i));
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      const used = process.cpuUsage(cpu);
      return { times, serverCpu: used.user + used.system, databaseCpu: (await backendCpu(watcher)) - database };
    };
    let n = 0;
    stats('one field (subject)', await timed(() => ({ subject: `Subject ${n++}` })));
    stats(
      'three fields (subject, budget, details)',
      await timed(() => ({ subject: `Subject ${n}`, budget: { amount: n }, details: `Details ${n++}` })),
    );
    await watcher.end();
    await app.close();
  } finally {
    await store.close();
    await admin.query(`drop database ${database}`);
    await admin.end();
  }
}

await main();
