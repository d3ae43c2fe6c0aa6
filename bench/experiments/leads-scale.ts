// Lead lists at scale (issue 21 item 5): seeds 1,000,000 leads in one business on PostgreSQL and
// 100,000 on SQLite, then times each filter's and sort's first page (with total) and a sync page
// through the HTTP layer (app.inject: routing, parsing, the query, the presenter, serialisation).
// Not part of the test suite. Run: npx tsx bench/experiments/leads-scale.ts
//   LEADS_SCALE_STORES=postgres,sqlite  LEADS_SCALE_PG=postgres://postgres@127.0.0.1:5432/postgres
//   LEADS_SCALE_PG_COUNT=1000000  LEADS_SCALE_SQLITE_COUNT=100000  LEADS_SCALE_RUNS=100  LEADS_SCALE_WARMUP=10
//   LEADS_SCALE_ONLY=regex (scenarios)  LEADS_SCALE_KEEP=1 (keep the PostgreSQL database)  LEADS_SCALE_REUSE=1 (measure it again)
//   LEADS_SCALE_PG_NAME=crmkit_leads_scale (the database created, kept and reused)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { systemClock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { insertVolume, type VolumeConfig } from '../leads-volume.js';
import { withLeadSettingsDefaults } from '../../src/leads/lead-settings.defaults.js';

const ADMIN = { email: 'bench@crmkit.test', password: 'bench-password-for-leads-scale' };
const RUNS = Number(process.env.LEADS_SCALE_RUNS ?? 100);
const WARMUP = Number(process.env.LEADS_SCALE_WARMUP ?? 10);
/** A regular expression: only the scenarios it matches. */
const ONLY = new RegExp(process.env.LEADS_SCALE_ONLY ?? '.');
/** Measure an earlier run's PostgreSQL database again (kept with LEADS_SCALE_KEEP=1), without seeding. */
const REUSE = process.env.LEADS_SCALE_REUSE === '1';

async function inject(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token?: string,
  body?: unknown,
): Promise<any> {
  const response = await app.inject({
    method,
    url,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body);
}

/** A business with 3 pipelines of 8 stages, 20 tags and 10 members, and an app token for it. */
async function tenant(
  app: FastifyInstance,
  store: Store,
): Promise<{ urlKey: string; token: string; config: VolumeConfig }> {
  const operator = (await inject(app, 'POST', '/authentication', undefined, { strategy: 'local', ...ADMIN }))
    .accessToken as string;
  const urlKey = `scale-${Date.now().toString(36)}`;
  await inject(app, 'POST', '/admin/v1/businesses', operator, { name: 'Leads at scale', country: 'IN', urlKey });
  const created = (await inject(app, 'POST', '/admin/v1/apps', operator, { name: 'scale' })).data;
  await inject(app, 'PUT', `/admin/v1/apps/${created.appId}/businesses/${urlKey}`, operator);
  const token = (
    await inject(app, 'POST', '/authentication', undefined, {
      strategy: 'app-secret',
      appId: created.appId,
      appSecret: created.appSecret,
    })
  ).accessToken as string;
  const states = ['NEW', 'OPEN', 'OPEN', 'OPEN', 'OPEN', 'CLOSED', 'DROPPED', 'REJECTED'];
  const saved = (
    await inject(app, 'PUT', `/admin/v1/businesses/${urlKey}/pipelines`, operator, {
      pipelines: [0, 1, 2].map((p) => ({
        name: `Pipeline ${p}`,
        isPrimary: p === 0,
        stages: states.map((state, s) => ({ name: `Stage ${s}`, state })),
      })),
      stageReasons: [],
    })
  ).data[0];
  await inject(app, 'PUT', `/admin/v1/businesses/${urlKey}/tags`, operator, {
    tags: Array.from({ length: 20 }, (_, i) => ({ name: `tag${i}` })),
  });
  await inject(app, 'PUT', `/admin/v1/businesses/${urlKey}/members`, operator, {
    members: Array.from({ length: 10 }, (_, i) => ({ email: `m${i}@bench.in`, name: `Member ${i}` })),
  });
  const settings = withLeadSettingsDefaults((await store.leadSettings.get(urlKey))!);
  return {
    urlKey,
    token,
    config: {
      pipelines: saved.pipelines.map((p: any) => ({ id: p.id, stageIds: p.stages.map((s: any) => s.id) })),
      tagIds: settings.tags.map((t) => t.id),
      memberIds: settings.members.map((m) => m.id),
      sourceKeys: settings.sources.map((s) => s.key),
    },
  };
}

/** Each scenario rotates through a few values, so that no answer is the same twice in a row. */
const SCENARIOS: [string, (i: number) => string][] = [
  ['no filter (createdAt desc)', () => ''],
  ['$sort[createdAt]=1', () => '$sort[createdAt]=1'],
  ['$sort[updatedAt]=-1', () => '$sort[updatedAt]=-1'],
  ['$sort[followUpDate]=1', () => '$sort[followUpDate]=1'],
  ['$sort[followUpDate]=-1', () => '$sort[followUpDate]=-1'],
  ['$sort[budget.amount]=1', () => '$sort[budget.amount]=1'],
  ['$sort[budget.amount]=-1', () => '$sort[budget.amount]=-1'],
  ['$skip=1000', () => '$skip=1000'],
  ['pipeline', (i) => `pipeline=Pipeline ${i % 3}`],
  ['pipeline + stage', (i) => `pipeline=Pipeline ${i % 3}&stage=Stage ${i % 8}`],
  ['status', (i) => `status=${['NEW', 'OPEN', 'CLOSED', 'DROPPED'][i % 4]}`],
  ['tags', (i) => `tags=tag${i % 20}`],
  ['leadSource', (i) => `leadSource=${['WEBSITE', 'REFERRAL', 'EVENT'][i % 3]}`],
  ['assignedTo', (i) => `assignedTo=m${i % 10}@bench.in`],
  ['assignedTo=UNASSIGNED', () => 'assignedTo=UNASSIGNED'],
  ['externalId', (i) => `externalId=ext-lv${(i * 7919).toString(36)}`],
  ['clientId', (i) => `clientId=cl-${i * 37}`],
  ['contactEmail', (i) => `contactEmail=asha.rao${i % 1000}@example.com`],
  ['contactPhone', (i) => `contactPhone=%2B91${9_000_000_000 + i}`],
  ['createdAt range (a week)', (i) => `createdAtFrom=2025-0${1 + (i % 9)}-01&createdAtTo=2025-0${1 + (i % 9)}-07`],
  [
    'followUpDate range (a week)',
    (i) => `followUpDateFrom=2025-0${1 + (i % 9)}-10&followUpDateTo=2025-0${1 + (i % 9)}-16`,
  ],
  ['followUpDate=none', () => 'followUpDate=none'],
  ['budget range', (i) => `budgetMin=${1000 * (i % 50)}&budgetMax=${1000 * (i % 50) + 500}`],
  ['q (one word)', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}`],
  ['q (prefix)', (i) => `q=${['renov', 'warehou', 'landsc', 'cater'][i % 4]}`],
  ['q (two words)', (i) => `q=${['solar panel', 'kitchen audit', 'network cabling', 'annual contract'][i % 4]}`],
  ['subject', (i) => `subject=${['roofing', 'printer', 'wedding', 'licence'][i % 4]}`],
  ['details', (i) => `details=${['cabling', 'freight', 'hvac', 'brochure'][i % 4]}`],
  ['q + $sort[updatedAt]=-1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[updatedAt]=-1`],
  ['q + $sort[updatedAt]=1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[updatedAt]=1`],
  ['q + $sort[createdAt]=1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[createdAt]=1`],
  ['q + $sort[createdAt]=-1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[createdAt]=-1`],
  ['q + $sort[followUpDate]=1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[followUpDate]=1`],
  ['q + $sort[followUpDate]=-1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[followUpDate]=-1`],
  ['q + $sort[budget.amount]=1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[budget.amount]=1`],
  ['q + $sort[budget.amount]=-1', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&$sort[budget.amount]=-1`],
  ['q + pipeline', (i) => `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&pipeline=Pipeline ${i % 3}`],
  [
    'q + subject (two parameters)',
    (i) =>
      `q=${['solar', 'payroll', 'venue', 'toner'][i % 4]}&subject=${['panel', 'audit', 'event', 'printer'][i % 4]}`,
  ],
  ['sync page (updatedAtFrom)', (i) => `updatedAtFrom=2025-${String(1 + (i % 12)).padStart(2, '0')}-01`],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(
  app: FastifyInstance,
  urlKey: string,
  token: string,
): Promise<{ name: string; p50: number; p99: number; total: number | null }[]> {
  const out = [];
  for (const [name, query] of SCENARIOS.filter(([n]) => ONLY.test(n))) {
    const times: number[] = [];
    let total: number | null = null;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const start = process.hrtime.bigint();
      const answer = await inject(
        app,
        'GET',
        `/api/v1/businesses/${urlKey}/leads?${query(i).replace(/ /g, '%20')}`,
        token,
      );
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= WARMUP) times.push(ms);
      total = answer.data[0].total;
    }
    times.sort((a, b) => a - b);
    out.push({ name, p50: percentile(times, 50), p99: percentile(times, 99), total });
    console.log(
      `  ${name.padEnd(30)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms  total ${total}`,
    );
  }
  if (!ONLY.test('sync followed by cursor')) return out;
  // A sync followed through its cursor: every page of one run.
  const pages: number[] = [];
  let cursor: string | null = null;
  let url = `/api/v1/businesses/${urlKey}/leads?updatedAtFrom=2026-08-01&$limit=50`;
  do {
    const start = process.hrtime.bigint();
    const answer = await inject(app, 'GET', url, token);
    pages.push(Number(process.hrtime.bigint() - start) / 1e6);
    cursor = answer.data[0].nextCursor;
    url = `/api/v1/businesses/${urlKey}/leads?after=${cursor}&$limit=50`;
  } while (cursor && pages.length < 500);
  pages.sort((a, b) => a - b);
  out.push({
    name: `sync followed by cursor (${pages.length} pages of 50)`,
    p50: percentile(pages, 50),
    p99: percentile(pages, 99),
    total: null,
  });
  console.log(
    `  sync followed by cursor, ${pages.length} pages: p50 ${percentile(pages, 50).toFixed(1)} ms  p99 ${percentile(pages, 99).toFixed(1)} ms`,
  );
  return out;
}

async function seeded(
  app: FastifyInstance,
  store: Store,
  kind: 'postgres' | 'sqlite',
  count: number,
): Promise<{ urlKey: string; token: string }> {
  const t = await tenant(app, store);
  const started = Date.now();
  await insertVolume(store.leads.db, t.urlKey, t.config, {
    to: count,
    prefix: 'lv',
    batch: kind === 'postgres' ? 2000 : 1000,
    onBatch: (done) => {
      if (done % 100_000 === 0)
        console.log(`  ${kind}: ${done} leads seeded (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    },
  });
  await sql.raw(kind === 'postgres' ? 'vacuum analyze' : 'analyze').execute(store.leads.db);
  console.log(
    `${kind}: ${count} leads in one business, seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; ${RUNS} timed requests per scenario after ${WARMUP} warm-up`,
  );
  return t;
}

/** The business an earlier run seeded, with a new app attached to it. */
async function reused(app: FastifyInstance, store: Store): Promise<{ urlKey: string; token: string }> {
  const { url_key: urlKey } = await store.leads.db
    .selectFrom('businesses')
    .select('url_key')
    .where('url_key', 'like', 'scale-%')
    .executeTakeFirstOrThrow();
  const operator = (await inject(app, 'POST', '/authentication', undefined, { strategy: 'local', ...ADMIN }))
    .accessToken as string;
  const created = (await inject(app, 'POST', '/admin/v1/apps', operator, { name: `scale-${Date.now()}` })).data;
  await inject(app, 'PUT', `/admin/v1/apps/${created.appId}/businesses/${urlKey}`, operator);
  const token = (
    await inject(app, 'POST', '/authentication', undefined, {
      strategy: 'app-secret',
      appId: created.appId,
      appSecret: created.appSecret,
    })
  ).accessToken as string;
  const { count } = await store.leads.db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  console.log(
    `postgres: reusing ${urlKey} (${count} lead rows); ${RUNS} timed requests per scenario after ${WARMUP} warm-up`,
  );
  return { urlKey, token };
}

async function run(kind: 'postgres' | 'sqlite', count: number): Promise<void> {
  let databaseUrl: string | null = null;
  let drop = async (): Promise<void> => {};
  if (kind === 'postgres') {
    const admin = process.env.LEADS_SCALE_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = process.env.LEADS_SCALE_PG_NAME ?? 'crmkit_leads_scale';
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    if (!REUSE) {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
    }
    await client.end();
    databaseUrl = admin.replace(/\/[^/]*$/, `/${name}`);
    drop = async () => {
      if (process.env.LEADS_SCALE_KEEP || REUSE) return;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const config = testConfig({
    databaseUrl,
    dataDir: mkdtempSync(join(tmpdir(), 'crmkit-leads-scale-')),
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
  await app.ready();
  try {
    const t = REUSE && kind === 'postgres' ? await reused(app, store) : await seeded(app, store, kind, count);
    await measure(app, t.urlKey, t.token);
  } finally {
    await app.close();
    await store.close();
    await drop();
  }
}

const stores = (process.env.LEADS_SCALE_STORES ?? 'postgres,sqlite').split(',');
for (const kind of stores) {
  if (kind === 'postgres') await run('postgres', Number(process.env.LEADS_SCALE_PG_COUNT ?? 1_000_000));
  if (kind === 'sqlite') await run('sqlite', Number(process.env.LEADS_SCALE_SQLITE_COUNT ?? 100_000));
}
