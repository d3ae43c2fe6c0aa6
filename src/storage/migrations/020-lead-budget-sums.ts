import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { LEAD_COUNT_SLOTS } from './006-lead-counts.js';

/**
 * Live budget sums beside the live counts of 006-lead-counts (issue 39: a board column's value is the
 * whole stage's): per business and combination of pipeline, stage, lead source, assignee, "has a
 * follow-up date" and budget currency, the number of leads with a budget and the sum of their amounts in
 * ten-thousandths, exact. The amount is read from the lead's stored JSON text (the decimal every answer
 * shows), never from the float column: PostgreSQL parses it as numeric; SQLite through crm_budget_units
 * (storage/db.ts). A sum is kept as two integers, the amounts' parts above and below 10^9
 * ten-thousandths, so that no sum of a 64-bit integer can overflow (10^13 × 10^4 per lead).
 *
 * Kept like the counts, and for the same reasons: triggers on leads in the lead write's own transaction
 * (no write path can forget them, the write side changes nothing); PostgreSQL statement triggers over
 * the transition tables, keys spread over slots and applied in a fixed order; SQLite row triggers.
 */
export const UNITS_SPLIT = 1_000_000_000;

const KEY = 'business_pk, pipeline_id, stage_id, lead_source_key, assignee_id, no_follow_up, currency, slot';

/** The key of a lead row with its budget (`row.` prefix for trigger rows), in KEY's order. */
const keyOf = (row: string, currency: string, slots: number) => `${row}business_pk, ${row}pipeline_id, ${row}stage_id,
  coalesce(${row}lead_source_key, ''), coalesce(${row}assignee_id, ''), case when ${row}follow_up_date is null then 1 else 0 end,
  ${currency}, ${row}id % ${slots}`;

export function leadBudgetSumsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('lead_budget_sums')
        .addColumn('business_pk', 'bigint', (c) => c.notNull())
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .addColumn('stage_id', 'text', (c) => c.notNull())
        .addColumn('lead_source_key', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'text', (c) => c.notNull())
        .addColumn('no_follow_up', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('live', 'bigint', (c) => c.notNull())
        .addColumn('units_hi', 'bigint', (c) => c.notNull())
        .addColumn('units_lo', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_budget_sums_pk', KEY.split(', ') as never[])
        .execute();
      if (kind === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
      // Existing leads, summed once (the migration runs under the store's lock, before any write).
      await sumExistingBudgets(db, kind);
    },
    async down(): Promise<void> {
      throw new Error('the lead budget sums schema is not reversible');
    },
  };
}

/** Fills lead_budget_sums from the live leads (exported for the test that compares it with what the triggers keep). */
export async function sumExistingBudgets(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const rows =
    kind === 'postgres'
      ? postgresBudgets('leads')
      : `select l.*, json_extract(l.data, '$.budget.currency') as currency,
    crm_budget_units(l.data) as units from leads l where l.removed = 0 and crm_budget_units(l.data) is not null`;
  const slots = kind === 'postgres' ? LEAD_COUNT_SLOTS : 1;
  await sql
    .raw(`insert into lead_budget_sums (${KEY}, live, units_hi, units_lo)
    select ${keyOf('', 'currency', slots)}, count(*), sum(units / ${UNITS_SPLIT}), sum(units % ${UNITS_SPLIT}) from (${rows}) b
    group by ${KEY.split(', ')
      .map((_, i) => i + 1)
      .join(', ')}`)
    .execute(db);
}

/** The live leads of `table` that have a budget, with `currency` and `units` (ten-thousandths, from the JSON text). */
const postgresBudgets = (table: string) => `select t.*, b.budget ->> 'currency' as currency,
    ((b.budget ->> 'amount')::numeric * 10000)::bigint as units
  from ${table} t cross join lateral (select t.data::jsonb -> 'budget' as budget) b
  where t.removed = 0 and jsonb_typeof(b.budget) = 'object'`;

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const side = (table: string, sign: string) => `select ${keyOf('', 'currency', LEAD_COUNT_SLOTS)}, ${sign}1,
    ${sign}(units / ${UNITS_SPLIT}), ${sign}(units % ${UNITS_SPLIT}) from (${postgresBudgets(table)}) b`;
  const apply = (rows: string) => `insert into lead_budget_sums as s (${KEY}, live, units_hi, units_lo)
      select ${KEY}, sum(dl), sum(dh), sum(dlo) from (${rows}) d (${KEY}, dl, dh, dlo)
      group by ${KEY} having sum(dl) <> 0 or sum(dh) <> 0 or sum(dlo) <> 0 order by ${KEY}
      on conflict (${KEY}) do update set live = s.live + excluded.live, units_hi = s.units_hi + excluded.units_hi,
        units_lo = s.units_lo + excluded.units_lo;`;
  const fn = (name: string, rows: string) =>
    sql
      .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${apply(rows)} return null; end $$`)
      .execute(db);
  await fn('crm_lead_budget_sums_insert', side('new_leads', '+'));
  await fn('crm_lead_budget_sums_update', `${side('old_leads', '-')} union all ${side('new_leads', '+')}`);
  await fn('crm_lead_budget_sums_delete', side('old_leads', '-'));
  await sql
    .raw(`create trigger lead_budget_sums_insert after insert on leads referencing new table as new_leads
    for each statement execute function crm_lead_budget_sums_insert()`)
    .execute(db);
  await sql
    .raw(`create trigger lead_budget_sums_update after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_budget_sums_update()`)
    .execute(db);
  await sql
    .raw(`create trigger lead_budget_sums_delete after delete on leads referencing old table as old_leads
    for each statement execute function crm_lead_budget_sums_delete()`)
    .execute(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const units = (row: string) => `crm_budget_units(${row}.data)`;
  const add = (row: 'new' | 'old', sign: string) => `insert into lead_budget_sums (${KEY}, live, units_hi, units_lo)
    values (${keyOf(`${row}.`, `json_extract(${row}.data, '$.budget.currency')`, 1)}, ${sign}1,
      ${sign}(${units(row)} / ${UNITS_SPLIT}), ${sign}(${units(row)} % ${UNITS_SPLIT}))
    on conflict (${KEY}) do update set live = live + excluded.live, units_hi = units_hi + excluded.units_hi,
      units_lo = units_lo + excluded.units_lo;`;
  const has = (row: string) => `${row}.removed = 0 and ${units(row)} is not null`;
  await sql
    .raw(`create trigger lead_budget_sums_insert after insert on leads when ${has('new')} begin ${add('new', '+')} end`)
    .execute(db);
  await sql
    .raw(`create trigger lead_budget_sums_delete after delete on leads when ${has('old')} begin ${add('old', '-')} end`)
    .execute(db);
  // Only when what is summed or keyed changes (the budget lives in `data`): a note or a tag writes nothing here.
  const columns = [
    'removed',
    'pipeline_id',
    'stage_id',
    'lead_source_key',
    'assignee_id',
    'follow_up_date',
    'business_pk',
    'data',
  ];
  const changed = [
    ...columns.filter((c) => c !== 'data').map((c) => `old.${c} is not new.${c}`),
    `${units('old')} is not ${units('new')}`,
    `json_extract(old.data, '$.budget.currency') is not json_extract(new.data, '$.budget.currency')`,
  ].join(' or ');
  await sql
    .raw(`create trigger lead_budget_sums_update_old after update of ${columns.join(', ')} on leads
    when ${has('old')} and (${changed}) begin ${add('old', '-')} end`)
    .execute(db);
  await sql
    .raw(`create trigger lead_budget_sums_update_new after update of ${columns.join(', ')} on leads
    when ${has('new')} and (${changed}) begin ${add('new', '+')} end`)
    .execute(db);
}
