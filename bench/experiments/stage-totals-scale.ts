// A board's column figures at scale (issue 39): seeds leads in one business on PostgreSQL (default
// 1,000,000; 3 pipelines of 8 stages, 20 tags, 10 members, 7 sources, 70% with an INR budget), then times
// GET /admin/v1/…/lead-stage-totals through the HTTP layer (app.inject) for the board's filters, and
// prints the plans of the live statements. Not part of the test suite. Run:
//   STAGE_TOTALS_PG=postgres://postgres@127.0.0.1:5432/postgres STAGE_TOTALS_COUNT=1000000 npx tsx bench/stage-totals-scale.ts
//   STAGE_TOTALS_NAME=crmkit_stage_totals (the database created, dropped at the end unless STAGE_TOTALS_KEEP=1; STAGE_TOTALS_REUSE=1 skips the seed)
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { systemClock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore } from '../../src/storage/store.js';
import { insertVolume, syntheticConfig } from '../leads-volume.js';

const ADMIN = { email: 'bench@crmkit.test', password: 'bench-password-for-stage-totals' };
const COUNT = Number(process.env.STAGE_TOTALS_COUNT ?? 1_000_000);
const RUNS = Number(process.env.STAGE_TOTALS_RUNS ?? 200);
const adminUrl = process.env.STAGE_TOTALS_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = process.env.STAGE_TOTALS_NAME ?? 'crmkit_stage_totals';
const reuse = process.env.STAGE_TOTALS_REUSE === '1';
const urlKey = 'board-scale';

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if (!reuse) {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
}
const config = testConfig({
  databaseUrl: adminUrl.replace(/\/[^/]*$/, `/${name}`),
  adminEmail: ADMIN.email,
  adminPassword: ADMIN.password,
  pgPoolSize: 4,
});
const store = openStore(config);
await store.migrate();
await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
  ADMIN.email,
  ADMIN.password,
);
const app = await buildApp({ config, store, clock: systemClock });
const volume = syntheticConfig();
const inject = async (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, body?: unknown) => {
  const answer = await app.inject({
    method,
    url,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
  return JSON.parse(answer.body);
};
const operator = (await inject('POST', '/authentication', undefined, { strategy: 'local', ...ADMIN }))
  .accessToken as string;
if (!reuse) {
  await inject('POST', '/admin/v1/businesses', operator, { name: 'Board at scale', country: 'IN', urlKey });
  const started = Date.now();
  await insertVolume(store.leads.db, urlKey, volume, {
    to: COUNT,
    prefix: 'bs',
    batch: 2000,
    onBatch: (done) => {
      if (done % 100_000 === 0) console.log(`  ${done} leads, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
  });
  await sql`vacuum analyze`.execute(store.leads.db);
}
// The filters as the statements see them (the synthetic ids), without going through name resolution.
const filters: [string, Record<string, unknown>][] = [
  ['pipeline (the board)', { pipelineIds: ['pl_v1'] }],
  ['pipeline + assignee', { pipelineIds: ['pl_v1'], assigneeIds: ['mem_v3'] }],
  ['pipeline + source + status', { pipelineIds: ['pl_v1'], leadSourceKeys: ['EVENT'], statusStageIds: ['st_v1_5'] }],
  ['pipeline + tag (from the leads)', { pipelineIds: ['pl_v1'], tagIds: ['tag_v3'] }],
];
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
for (const [label, filter] of filters) {
  const runs = label.includes('tag') ? Math.min(RUNS, 20) : RUNS;
  const times: number[] = [];
  let answer: unknown;
  for (let i = 0; i < runs + 10; i += 1) {
    const start = process.hrtime.bigint();
    answer = await store.leadStageTotals.totals(urlKey, filter);
    if (i >= 10) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const total = [...(answer as Map<string, { count: number }>).values()].reduce((n, t) => n + t.count, 0);
  console.log(
    `${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms  (${runs} runs, ${total} leads)`,
  );
  for (const statement of await store.leadStageTotals.compile(urlKey, filter as never)) {
    const text = statement.sql.replace(/\$(\d+)/g, (_, i) => {
      const v = statement.parameters[Number(i) - 1];
      return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
    });
    const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`).execute(store.leads.db);
    console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
  }
}
console.log(
  `lead_counts rows: ${(await sql<{ n: string }>`select count(*) as n from lead_counts`.execute(store.leads.db)).rows[0]!.n}, lead_budget_sums rows: ${(await sql<{ n: string }>`select count(*) as n from lead_budget_sums`.execute(store.leads.db)).rows[0]!.n}`,
);
await app.close();
await store.close();
if (process.env.STAGE_TOTALS_KEEP !== '1') await admin.query(`drop database if exists ${name} with (force)`);
await admin.end();
