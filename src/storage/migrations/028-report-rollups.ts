import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { bucketOfMsSql, lengthBucketSql, monthOfMsSql } from '../reports-buckets.js';
import { MOVED } from './026-report-aggregates.js';

/**
 * Report rollups (issue 38 item 4, docs/performance.md "Reports at 1,000,000 leads and 1,000,000
 * invoices"): sums per business, series, stage or currency and UTC month (due dates: UTC day) of what
 * the reports add up, so a 12-month report reads a few hundred small rows and the raw rows of a few hours
 * at each edge (src/storage/reports-buckets.ts) instead of a year of stays or invoices.
 *
 * `lead_stay_rollups` (n = stays), a function of `lead_stays` rows:
 * - `open`: open stays by stage and month entered (won and lost per month);
 * - `reason`: open stays by stage, reason on the stay ('' for none) and month entered (lost by reason);
 * - `entered`: a lead's latest stay in each stage (`lead_stays.latest`) by stage, the lead's current
 *   stage and month entered (leads that entered a stage and how many are won now; counted once per lead);
 * - `ended`: ended stays by stage, length bucket and month left (the median's histogram).
 * `invoice_rollups` (n = documents, minor = amount): `invoiced` (non-canceled invoices by currency and
 * month of invoice date), `owed` (unpaid and partly paid by currency and UTC day of due date, '' when
 * none) and `collected` (live payments by currency and month of paymentDate). Since migration
 * 032-invoice-find-counts also `listed` (every invoice by currency and status, the status in `bucket`)
 * and `dated` (every invoice by currency and UTC day of invoice date), minor 0: the `total` of an invoice
 * find by nothing, by status or by invoiceDate.
 *
 * Kept by triggers in the write's transaction, as `lead_counts` are (migration 006): on PostgreSQL
 * statement triggers over the transition tables, one upsert per statement with its keys in a fixed order
 * (no deadlock between two statements), each key spread over SLOTS rows by the row's lead or invoice id
 * (concurrent writers of one business do not queue on the current month's row); SQLite (one writer): row
 * triggers into one slot. Rows that fall to zero stay (a later write reuses them; the readers skip them).
 */
export const REPORT_ROLLUP_SLOTS = 4;

/**
 * The invoices' and payments' rollup rows spread wider (since migration 032-invoice-find-counts): at 4
 * slots, payments of one business waited on the `owed` and `collected` rows in 84-89% of samples, at 16
 * in 46-60%, and pgbench's payments and creates went from 102-259 and 251-368 a second to 209-380 and
 * 430-644 (bench/experiments/payment-hot-rows.sh; docs/performance.md "POST payment: where its CPU went").
 * Rows written under 4 slots stay valid: readers sum over slots.
 */
export const INVOICE_ROLLUP_SLOTS = 16;

const slotsOf = (kind: StoreKind, slots = REPORT_ROLLUP_SLOTS) => (kind === 'postgres' ? slots : 1);

const LEAD_KEY = 'business_pk, series, stage_id, other, bucket, slot';
const INVOICE_KEY = 'business_pk, series, currency, bucket, slot';

/** The rollup rows (key columns, then the delta) of a set of stays `s` read from `from`, signed. */
export function stayContributions(from: string, sign: '+' | '-', kind: StoreKind): string {
  const slot = `s.lead_pk % ${slotsOf(kind)}`;
  const entered = monthOfMsSql('s.entered_at', kind);
  const reasons =
    kind === 'postgres'
      ? 'left join lateral json_array_elements_text(s.reason_keys::json) r(value) on true'
      : 'left join json_each(s.reason_keys) r';
  return `select s.business_pk as business_pk, 'open' as series, s.stage_id as stage_id, '' as other,
        ${entered} as bucket, ${slot} as slot, ${sign}1 as delta
      from ${from} where s.left_at is null
    union all select s.business_pk, 'reason', s.stage_id, coalesce(r.value, ''), ${entered}, ${slot}, ${sign}1
      from ${from} ${reasons} where s.left_at is null
    union all select s.business_pk, 'entered', s.stage_id, s.current_stage_id, ${entered}, ${slot}, ${sign}1
      from ${from} where s.latest = 1
    union all select s.business_pk, 'ended', s.stage_id, ${lengthBucketSql('(s.left_at - s.entered_at)')},
        ${monthOfMsSql('s.left_at', kind)}, ${slot}, ${sign}1
      from ${from} where s.left_at is not null`;
}

/** The rollup rows (key columns, then count and amount deltas) of invoices `i` read from `from`. */
export function invoiceContributions(from: string, sign: '+' | '-', kind: StoreKind): string {
  const slot = `i.id % ${slotsOf(kind, INVOICE_ROLLUP_SLOTS)}`;
  return `select i.business_pk as business_pk, 'invoiced' as series, i.currency as currency,
        ${monthOfMsSql('i.invoice_date', kind)} as bucket, ${slot} as slot, ${sign}1 as dn, ${sign}i.total_minor as dminor
      from ${from} where i.status <> 'CANCELED'
    union all select i.business_pk, 'owed', i.currency, coalesce(substr(i.due_on, 1, 10), ''), ${slot},
        ${sign}1, ${sign}(i.total_minor - i.paid_minor)
      from ${from} where i.status in ('UNPAID', 'PARTIALLY_PAID')
    union all select i.business_pk, 'listed', i.currency, i.status, ${slot}, ${sign}1, 0 from ${from}
    union all select i.business_pk, 'dated', i.currency, ${bucketOfMsSql('i.invoice_date', 'day', kind)}, ${slot},
        ${sign}1, 0
      from ${from}`;
}

/** The rollup rows of payments `p` read from `from` (those copied from their invoice: migration 026). */
export function paymentContributions(from: string, sign: '+' | '-', kind: StoreKind): string {
  return `select p.business_pk as business_pk, 'collected' as series, p.currency as currency,
        substr(p.paid_on, 1, 7) as bucket, p.invoice_pk % ${slotsOf(kind, INVOICE_ROLLUP_SLOTS)} as slot, ${sign}1 as dn,
        ${sign}p.settled_minor as dminor
      from ${from} where p.removed = 0 and p.business_pk is not null and p.paid_on is not null`;
}

const leadUpsert = (rows: string) => `insert into lead_stay_rollups as c (${LEAD_KEY}, n)
  select ${LEAD_KEY}, sum(delta) from (${rows}) d
  group by ${LEAD_KEY} having sum(delta) <> 0 order by ${LEAD_KEY}
  on conflict (${LEAD_KEY}) do update set n = c.n + excluded.n`;

export const invoiceUpsert = (rows: string) => `insert into invoice_rollups as c (${INVOICE_KEY}, n, minor)
  select ${INVOICE_KEY}, sum(dn), sum(dminor) from (${rows}) d
  group by ${INVOICE_KEY} having sum(dn) <> 0 or sum(dminor) <> 0 order by ${INVOICE_KEY}
  on conflict (${INVOICE_KEY}) do update set n = c.n + excluded.n, minor = c.minor + excluded.minor`;

export function reportRollupsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const run = (text: string) => sql.raw(text).execute(db);
      // A lead's latest stay in a stage: "entered" counts a lead once per stage however often it came back.
      await run('alter table lead_stays add column latest integer not null default 1');
      await markLatestStays(db);
      await run(`create table lead_stay_rollups (business_pk bigint not null, series text not null,
        stage_id text not null, other text not null, bucket text not null, slot integer not null,
        n bigint not null, primary key (${LEAD_KEY}))`);
      await run(`create table invoice_rollups (business_pk bigint not null, series text not null,
        currency text not null, bucket text not null, slot integer not null,
        n bigint not null, minor bigint not null, primary key (${INVOICE_KEY}))`);
      // The exact median reads the stays of one length bucket in length order (src/storage/reports-leads.store.ts).
      await run(
        kind === 'postgres'
          ? // entered_at too: an index-only scan needs every column the length expression reads.
            `create index lead_stays_length on lead_stays (business_pk, stage_id, (left_at - entered_at))
              include (left_at, entered_at) where left_at is not null`
          : `create index lead_stays_length on lead_stays (business_pk, stage_id, left_at - entered_at, left_at,
              entered_at) where left_at is not null`,
      );
      await fillReportRollups(db, kind);
      await (kind === 'postgres' ? postgresStayMoves(db) : sqliteStayMoves(db));
      await rollupTriggers(db, kind, ['lead_stays', 'invoices', 'invoice_payments']);
      // The planner's figures for the new column and tables (the reports' edge pieces are sized by them).
      if (kind === 'postgres') await run('analyze lead_stays, lead_stay_rollups, invoice_rollups');
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}

/** Marks each lead's latest stay per stage (and only it) as latest: after a bulk fill of `lead_stays`. */
export async function markLatestStays(db: Kysely<unknown>, businessPk?: number): Promise<void> {
  const only = businessPk === undefined ? '' : ` where business_pk = ${Number(businessPk)}`;
  await sql
    .raw(`update lead_stays set latest = 0 where id in (select id from (select id,
      row_number() over (partition by lead_pk, stage_id order by entered_at desc, id desc) as rn
      from lead_stays${only}) x where rn > 1)`)
    .execute(db);
}

/**
 * The rollups from the rows (the migration's backfill; the bench's seed, which writes in bulk with the
 * triggers off, calls it once). Replaces the business's rollups (all of them without one).
 */
export async function fillReportRollups(db: Kysely<unknown>, kind: StoreKind, businessPk?: number): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const where = (alias: string) =>
    businessPk === undefined ? '' : ` where ${alias}.business_pk = ${Number(businessPk)}`;
  const only = businessPk === undefined ? '' : ` where business_pk = ${Number(businessPk)}`;
  await run(`delete from lead_stay_rollups${only}`);
  await run(`delete from invoice_rollups${only}`);
  await run(leadUpsert(stayContributions(`(select * from lead_stays s${where('s')}) s`, '+', kind)));
  await run(invoiceUpsert(invoiceContributions(`(select * from invoices i${where('i')}) i`, '+', kind)));
  await run(invoiceUpsert(paymentContributions(`(select * from invoice_payments p${where('p')}) p`, '+', kind)));
}

async function postgresStayMoves(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  // Migration 026's stays trigger, with the stays' updates of a move in one statement (one rollup upsert,
  // not three) and the latest flag taken from the lead's earlier stay in the stage it enters.
  const a = MOVED('new.data', 'postgres');
  await run(`create or replace function lead_stays_record() returns trigger language plpgsql as $$ begin
    if new.type = 'CREATED' or (new.type = 'STAGE_CHANGE' and ${a.moved}) then
      ${moveStays(a.to)};
      insert into lead_stays (business_pk, lead_pk, stage_id, entered_at, current_stage_id, reason_keys)
        select l.business_pk, new.lead_pk, ${a.to}, new.created_at, ${a.to}, ${a.reasons}
        from leads l where l.id = new.lead_pk and l.removed = 0;
    elsif new.type = 'STAGE_CHANGE' then
      update lead_stays set reason_keys = ${a.reasons} where lead_pk = new.lead_pk and left_at is null;
    end if;
    return null; end $$`);
}

/** A move's update of the lead's stays: the open one ends, all learn the new stage, the stage's last is no longer latest. */
const moveStays = (to: string) => `update lead_stays set left_at = coalesce(left_at, new.created_at),
        reason_keys = case when left_at is null then '[]' else reason_keys end,
        current_stage_id = ${to}, latest = case when stage_id = ${to} then 0 else latest end
      where lead_pk = new.lead_pk`;

async function sqliteStayMoves(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const a = MOVED('new.data', 'sqlite');
  await run('drop trigger lead_stays_move');
  await run(`create trigger lead_stays_move after insert on lead_activities
    when new.type = 'CREATED' or (new.type = 'STAGE_CHANGE' and ${a.moved}) begin
      ${moveStays(a.to)};
      insert into lead_stays (business_pk, lead_pk, stage_id, entered_at, current_stage_id, reason_keys)
        select l.business_pk, new.lead_pk, ${a.to}, new.created_at, ${a.to}, ${a.reasons}
        from leads l where l.id = new.lead_pk and l.removed = 0;
    end`);
}

/** The tables whose rows the rollups sum, and how. */
const ROLLED_UP = [
  { table: 'lead_stays', alias: 's', contributions: stayContributions, upsert: leadUpsert },
  { table: 'invoices', alias: 'i', contributions: invoiceContributions, upsert: invoiceUpsert },
  { table: 'invoice_payments', alias: 'p', contributions: paymentContributions, upsert: invoiceUpsert },
] as const;

type RolledUpTable = (typeof ROLLED_UP)[number]['table'];

/**
 * The rollup triggers of `tables`, made or replaced (a later migration that changes what a table
 * contributes calls this again for it). PostgreSQL: statement triggers over the transition tables.
 * SQLite: row triggers, the update one only when what is summed changes.
 */
export async function rollupTriggers(
  db: Kysely<unknown>,
  kind: StoreKind,
  tables: readonly RolledUpTable[],
): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const { table, alias, contributions, upsert } of ROLLED_UP.filter((t) => tables.includes(t.table))) {
    if (kind === 'postgres') {
      const side = (rows: string, sign: '+' | '-') => contributions(`${rows} ${alias}`, sign, 'postgres');
      const events = {
        insert: { rows: side('new_rows', '+'), referencing: 'new table as new_rows' },
        update: {
          rows: `${side('old_rows', '-')} union all ${side('new_rows', '+')}`,
          referencing: 'old table as old_rows new table as new_rows',
        },
        delete: { rows: side('old_rows', '-'), referencing: 'old table as old_rows' },
      };
      for (const [event, { rows, referencing }] of Object.entries(events)) {
        const name = `${table}_rollups_${event}`;
        await run(`create or replace function ${name}() returns trigger language plpgsql as $$ begin
          ${upsert(rows)}; return null; end $$`);
        await run(`create or replace trigger ${name} after ${event} on ${table} referencing ${referencing}
          for each statement execute function ${name}()`);
      }
      continue;
    }
    const row = (side: 'new' | 'old') => {
      const columns = ROW_COLUMNS[table]!;
      return `(select ${columns.map((c) => `${side}.${c} as ${c}`).join(', ')}) ${alias}`;
    };
    const add = (side: 'new' | 'old', sign: '+' | '-') => upsert(contributions(row(side), sign, 'sqlite'));
    for (const event of ['insert', 'delete', 'update']) await run(`drop trigger if exists ${table}_rollups_${event}`);
    await run(`create trigger ${table}_rollups_insert after insert on ${table} begin ${add('new', '+')}; end`);
    await run(`create trigger ${table}_rollups_delete after delete on ${table} begin ${add('old', '-')}; end`);
    // Only when what is summed changes: an invoice's other edits write nothing here.
    const columns = ROW_COLUMNS[table]!.map((c) => (c === 'due_on' ? 'content' : c)).join(', ');
    await run(`create trigger ${table}_rollups_update after update of ${columns} on ${table}
      begin ${add('old', '-')}; ${add('new', '+')}; end`);
  }
}

/** What the contributions read of a row, for SQLite's row triggers (`new.` and `old.` are not tables). */
const ROW_COLUMNS: Record<string, readonly string[]> = {
  lead_stays: [
    'business_pk',
    'lead_pk',
    'stage_id',
    'entered_at',
    'left_at',
    'current_stage_id',
    'reason_keys',
    'latest',
  ],
  invoices: ['id', 'business_pk', 'currency', 'invoice_date', 'status', 'total_minor', 'paid_minor', 'due_on'],
  invoice_payments: ['invoice_pk', 'business_pk', 'currency', 'paid_on', 'removed', 'settled_minor'],
};
