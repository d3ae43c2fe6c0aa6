/**
 * The reports at scale (issue 38 item 4): each report's latency over real HTTP with 1,000,000 leads (and
 * their activity history) and 1,000,000 invoices (and their payments) in ONE business on PostgreSQL.
 * Opt-in, since seeding takes minutes: `npx tsx bench/scenarios/reports.ts`. The seed is kept in its own
 * database (BENCH_REPORTS_DATABASE_URL, default crmkit_bench_reports) and reused by the next run when
 * its counts match; BENCH_REPORTS_RESEED=1 starts over. Writes bench/results/reports.json.
 *
 * Rows are made by generate_series in SQL, with only what the reports read (the leads' columns, budget
 * and reasons; an invoice's status, totals, dates and its content's dueDate; a payment's paymentDate),
 * through the store's own schema and triggers (live stage counts and budget sums, stays, the report rollups
 * of migration 028, kept per statement).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { systemClock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openPostgres } from '../../src/storage/db.js';
import { fillLeadStays } from '../../src/storage/migrations/026-report-aggregates.js';
import { markLatestStays } from '../../src/storage/migrations/028-report-rollups.js';
import { openStore } from '../../src/storage/store.js';

const URL_ = process.env.BENCH_REPORTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crmkit_bench_reports';
const LEADS = Number(process.env.BENCH_REPORTS_LEADS ?? 1_000_000);
const INVOICES = Number(process.env.BENCH_REPORTS_INVOICES ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REPORTS_REQUESTS ?? 50);
const TARGET_P99_MS = 200;
const URL_KEY = 'bench-reports';
const CHUNK = 100_000;
const ADMIN = { email: 'bench@crmkit.test', password: 'bench-password-123' };

const PIPELINES = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW', closure: 10 },
        { name: 'Qualified', state: 'OPEN', closure: 30 },
        { name: 'Proposal', state: 'OPEN', closure: 60 },
        { name: 'Negotiation', state: 'OPEN', closure: 80 },
        { name: 'Won', state: 'CLOSED', closure: 100 },
        { name: 'Lost', state: 'DROPPED', closure: 0, reasons: ['price', 'late', 'fit'] },
        { name: 'Rejected', state: 'REJECTED', closure: 0 },
      ],
    },
  ],
  stageReasons: [
    { key: 'price', label: 'Price' },
    { key: 'late', label: 'Too late' },
    { key: 'fit', label: 'Not a fit' },
  ],
};

async function ensureDatabase(): Promise<void> {
  const name = new URL(URL_).pathname.slice(1);
  const admin = new pg.Client({ connectionString: URL_.replace(/\/[^/?]*(\?|$)/, '/postgres$1') });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (process.env.BENCH_REPORTS_RESEED === '1' && exists.rowCount) {
    await admin.query(`drop database "${name}" with (force)`);
  }
  if (process.env.BENCH_REPORTS_RESEED === '1' || !exists.rowCount) await admin.query(`create database "${name}"`);
  await admin.end();
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Leads spread over 2 years before now, in every stage; a move from New for those past it; reasons on lost ones. */
async function seedLeads(
  db: pg.Client,
  businessPk: number,
  pipelineId: string,
  stageIds: string[],
  now: number,
): Promise<void> {
  const ids = `array[${stageIds.map((id) => `'${id}'`).join(',')}]`;
  for (let lo = 1; lo <= LEADS; lo += CHUNK) {
    const hi = Math.min(LEADS, lo + CHUNK - 1);
    const started = performance.now();
    await db.query(
      `
      insert into leads (business_pk, lead_id, external_id, removed, source, pipeline_id, stage_id, client_id,
        contact_id, contact_name, customer_name, budget_amount, data, version, created_at, updated_at)
      select ${businessPk}, 'bl_' || g, 'bx_' || g, 0, 'API', $1, (${ids})[1 + g % 7], 'cl_' || (g % 50000),
        'ct_' || g, 'Contact ' || g, 'Customer ' || (g % 50000),
        case when g % 5 = 0 then null else (g % 100000) / 100.0 end,
        json_build_object('customer', json_build_object('name', 'Customer ' || (g % 50000)),
          'budget', case when g % 5 = 0 then null else json_build_object('amount', (g % 100000) / 100.0, 'currency', 'INR') end,
          'reasonKeys', case when g % 7 = 5 then json_build_array((array['price','late','fit'])[1 + g % 3]) else '[]'::json end,
          'customFields', '{}'::json)::text,
        1, $2::bigint - (g::bigint * 7919 % 730) * 86400000 - 86400000::bigint * 30, $2::bigint
      from generate_series(${lo}, ${hi}) g`,
      [pipelineId, now],
    );
    // CREATED in New, then (past New) one move to the current stage 1 to 30 days later.
    await db.query(
      `
      insert into lead_activities (lead_pk, activity_id, type, author, data, created_at)
      select l.id, 'ac_c_' || l.id, 'CREATED', 'API',
        json_build_object('fromStageId', null, 'toStageId', $1::text, 'reasonKeys', '[]'::json)::text, l.created_at
      from leads l where l.business_pk = ${businessPk} and l.lead_id in (select 'bl_' || g from generate_series(${lo}, ${hi}) g)`,
      [stageIds[0]],
    );
    await db.query(
      `
      insert into lead_activities (lead_pk, activity_id, type, author, data, created_at)
      select l.id, 'ac_m_' || l.id, 'STAGE_CHANGE', 'API',
        json_build_object('fromStageId', $1::text, 'toStageId', l.stage_id, 'reasonKeys', '[]'::json)::text,
        l.created_at + (1 + l.id % 30) * 86400000
      from leads l where l.business_pk = ${businessPk} and l.stage_id <> $1
        and l.lead_id in (select 'bl_' || g from generate_series(${lo}, ${hi}) g)`,
      [stageIds[0]],
    );
    console.log(`leads ${hi.toLocaleString('en')} (${seconds(started)})`);
  }
}

/** Invoices over 2 years: 70% paid, 10% partly, 20% unpaid, due 0 to 60 days after; one payment per paid or partly paid. */
async function seedInvoices(db: pg.Client, businessPk: number, now: number): Promise<void> {
  for (let lo = 1; lo <= INVOICES; lo += CHUNK) {
    const hi = Math.min(INVOICES, lo + CHUNK - 1);
    const started = performance.now();
    await db.query(
      `
      insert into invoices (business_pk, invoice_id, invoice_number, client_id, status, currency, total_minor, paid_minor,
        invoice_date, share_token, content, create_request, created_at, updated_at)
      select ${businessPk}, 'bi' || lpad(g::text, 22, '0'), 'INV-' || g, 'cl_' || (g % 50000),
        case when g % 10 < 7 then 'PAID' when g % 10 = 7 then 'PARTIALLY_PAID' else 'UNPAID' end, 'INR',
        10000 + g % 1000000, case when g % 10 < 7 then 10000 + g % 1000000 when g % 10 = 7 then 5000 else 0 end,
        d, 'bt_' || g, json_build_object('dueDate', to_char(to_timestamp((d + (g % 61)::bigint * 86400000) / 1000.0)
          at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, '{}', d, d
      from (select g, $1::bigint - (g::bigint * 7919 % 730) * 86400000 as d from generate_series(${lo}, ${hi}) g) s`,
      [now],
    );
    await db.query(`
      insert into invoice_payments (invoice_pk, payment_id, settled_minor, removed, data, created_at,
        business_pk, currency, paid_on)
      select id, 'bp' || id, paid_minor, 0, json_build_object('paymentDate', paid_on)::text, invoice_date,
        business_pk, currency, paid_on
      from (select i.*, to_char(to_timestamp((i.invoice_date + (i.id % 40) * 86400000) / 1000.0) at time zone 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as paid_on
      from invoices i where i.business_pk = ${businessPk} and i.paid_minor > 0
        and i.invoice_number in (select 'INV-' || g from generate_series(${lo}, ${hi}) g)) p`);
    console.log(`invoices ${hi.toLocaleString('en')} (${seconds(started)})`);
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function main(): Promise<void> {
  await ensureDatabase();
  const config = testConfig({
    databaseUrl: URL_,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    pgPoolSize: 10,
  });
  const store = openStore(config);
  const migrating = performance.now();
  await store.migrate();
  console.log(`migrated (${seconds(migrating)}; a backfill when the seed was made by an older build)`);
  await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
    ADMIN.email,
    ADMIN.password,
  );
  const app = await buildApp({ config, store, clock: systemClock });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const request = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const login = await request('POST', '/authentication', undefined, { strategy: 'local', ...ADMIN });
  const token = login.body.accessToken as string;
  const db = new pg.Client({ connectionString: URL_ });
  await db.connect();
  const counts = await db.query(
    `select (select count(*) from leads l join businesses b on b.id = l.business_pk where b.url_key = $1) as leads,
       (select count(*) from invoices i join businesses b on b.id = i.business_pk where b.url_key = $1) as invoices`,
    [URL_KEY],
  );
  if (Number(counts.rows[0].leads) !== LEADS || Number(counts.rows[0].invoices) !== INVOICES) {
    if (Number(counts.rows[0].leads) > 0) throw new Error('a partial seed: run again with BENCH_REPORTS_RESEED=1');
    const created = await request('POST', '/admin/v1/businesses', token, {
      name: 'Bench reports',
      country: 'IN',
      urlKey: URL_KEY,
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    const put = await request('PUT', `/admin/v1/businesses/${URL_KEY}/pipelines`, token, PIPELINES);
    if (put.status !== 200) throw new Error(JSON.stringify(put.body));
    const pipeline = put.body.data[0].pipelines[0];
    const businessPk = Number((await db.query('select id from businesses where url_key = $1', [URL_KEY])).rows[0].id);
    const started = performance.now();
    const stageIds = pipeline.stages.map((s: { id: string }) => s.id);
    // The per-row triggers of migration 026 are for one write at a time: the seed fills the same rows in bulk.
    await db.query('alter table lead_activities disable trigger lead_stays_record');
    await db.query('alter table invoice_payments disable trigger invoice_payments_copy');
    // Nor do the reports search: the seed skips the search words (migration 007), which would double its time.
    await db.query('alter table leads disable trigger lead_words_insert');
    await seedLeads(db, businessPk, pipeline.id, stageIds, Date.now());
    const stays = performance.now();
    const kysely = openPostgres(URL_, 1, { prepared: false });
    await fillLeadStays(kysely.db as never, 'postgres', businessPk);
    await markLatestStays(kysely.db as never, businessPk);
    await kysely.db.destroy();
    console.log(`stays filled (${seconds(stays)})`);
    await seedInvoices(db, businessPk, Date.now());
    await db.query('alter table lead_activities enable trigger lead_stays_record');
    await db.query('alter table invoice_payments enable trigger invoice_payments_copy');
    await db.query('alter table leads enable trigger lead_words_insert');
    console.log(`seeded in ${seconds(started)}; vacuum analyze…`);
    await db.query('vacuum analyze');
  }
  await db.end();

  const REPORTS = ['pipeline-value', 'lead-outcomes', 'stage-flow', 'invoicing', 'receivables'];
  const results: Record<string, { p50: number; p99: number; max: number; requests: number; pass: boolean }> = {};
  for (const report of REPORTS) {
    const path = `/admin/v1/businesses/${URL_KEY}/reports/${report}`;
    for (let i = 0; i < 3; i++) await request('GET', path, token); // warm-up
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const answer = await request('GET', path, token);
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`${report}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    times.sort((a, b) => a - b);
    const figure = (n: number) => Math.round(n * 10) / 10;
    const p99 = figure(percentile(times, 0.99));
    results[report] = {
      p50: figure(percentile(times, 0.5)),
      p99,
      max: figure(times.at(-1)!),
      requests: REQUESTS,
      pass: p99 <= TARGET_P99_MS,
    };
    console.log(`${report.padEnd(15)} p50 ${results[report].p50} ms  p99 ${p99} ms  max ${results[report].max} ms`);
  }
  writeFileSync(
    'bench/results/reports.json',
    `${JSON.stringify({ at: new Date().toISOString(), loadAverage: loadavg()[0], leads: LEADS, invoices: INVOICES, targetP99Ms: TARGET_P99_MS, results }, null, 2)}\n`,
  );
  await app.close();
  await store.close();
}

await main();
