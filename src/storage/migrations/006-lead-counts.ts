import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Live lead counts per business and combination of pipeline, stage, lead source, assignee and whether a
 * follow-up date is set (issue 21 item 5): the `total` of a lead list filtered by nothing or by those
 * (status is stages) is a sum over the combinations that occur (a few hundred to a few thousand rows)
 * instead of a count of up to every lead of the business (docs/performance-leads.md "Leads at scale"). No
 * source and no assignee are kept as '' (a key column cannot be null).
 *
 * Kept by triggers on leads, in the transaction of the lead write, so the write side changes nothing
 * and no write path can forget them. On PostgreSQL each key is spread over SLOTS rows (by the lead's row
 * id) so that concurrent creates in one stage do not queue on one row. PostgreSQL: statement triggers over the
 * transition tables, one upsert per statement with its keys in a fixed order (two statements moving
 * leads between the same stages in opposite directions cannot deadlock). SQLite (one writer): row
 * triggers. A removed lead is not counted; no foreign key, so that a business's cascade delete, whose
 * leads' triggers write here, cannot trip over its own order.
 */
export const LEAD_COUNT_SLOTS = 4;

/** SQLite has one writer: spreading would only multiply the rows a total sums. */
const slotsOf = (kind: StoreKind) => (kind === 'postgres' ? LEAD_COUNT_SLOTS : 1);

const KEY = 'business_pk, pipeline_id, stage_id, lead_source_key, assignee_id, no_follow_up, slot';

/** The key of a lead row (`row.` prefix for trigger rows), in KEY's order. */
const keyOf = (
  row: string,
  slots: number,
) => `${row}business_pk, ${row}pipeline_id, ${row}stage_id, coalesce(${row}lead_source_key, ''),
  coalesce(${row}assignee_id, ''), case when ${row}follow_up_date is null then 1 else 0 end, ${row}id % ${slots}`;

export function leadCountsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('lead_counts')
        .addColumn('business_pk', 'bigint', (c) => c.notNull())
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .addColumn('stage_id', 'text', (c) => c.notNull())
        .addColumn('lead_source_key', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'text', (c) => c.notNull())
        .addColumn('no_follow_up', 'integer', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('live', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_counts_pk', KEY.split(', ') as never[])
        .execute();
      if (kind === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
      // Existing leads, counted once (the migration runs under the store's lock, before any write).
      await sql
        .raw(`insert into lead_counts (${KEY}, live)
        select ${keyOf('', slotsOf(kind))}, count(*) from leads where removed = 0 group by ${KEY.split(', ')
          .map((_, i) => i + 1)
          .join(', ')}`)
        .execute(db);
    },
    async down(): Promise<void> {
      throw new Error('the lead counts schema is not reversible');
    },
  };
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const side = (table: string, sign: string) =>
    `select ${keyOf('', LEAD_COUNT_SLOTS)}, ${sign}1 from ${table} where removed = 0`;
  const apply = (rows: string) => `insert into lead_counts as c (${KEY}, live)
      select ${KEY}, sum(delta) from (${rows}) d (${KEY}, delta)
      group by ${KEY} having sum(delta) <> 0 order by ${KEY}
      on conflict (${KEY}) do update set live = c.live + excluded.live;`;
  const body = (rows: string) => `begin ${apply(rows)} return null; end`;
  const fn = (name: string, rows: string) =>
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$ ${body(rows)} $$`).execute(db);
  await fn('crm_lead_counts_insert', side('new_leads', '+'));
  await fn('crm_lead_counts_update', `${side('old_leads', '-')} union all ${side('new_leads', '+')}`);
  await fn('crm_lead_counts_delete', side('old_leads', '-'));
  await sql
    .raw(`create trigger lead_counts_insert after insert on leads referencing new table as new_leads
    for each statement execute function crm_lead_counts_insert()`)
    .execute(db);
  await sql
    .raw(`create trigger lead_counts_update after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_counts_update()`)
    .execute(db);
  await sql
    .raw(`create trigger lead_counts_delete after delete on leads referencing old table as old_leads
    for each statement execute function crm_lead_counts_delete()`)
    .execute(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const add = (row: 'new' | 'old', delta: number) => `insert into lead_counts (${KEY}, live)
    values (${keyOf(`${row}.`, 1)}, ${delta})
    on conflict (${KEY}) do update set live = live + excluded.live;`;
  await sql
    .raw(`create trigger lead_counts_insert after insert on leads when new.removed = 0 begin ${add('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger lead_counts_delete after delete on leads when old.removed = 0 begin ${add('old', -1)} end`)
    .execute(db);
  // Only when what is counted changes: the common edit (a note, a tag) writes nothing here.
  const columns = [
    'removed',
    'pipeline_id',
    'stage_id',
    'lead_source_key',
    'assignee_id',
    'follow_up_date',
    'business_pk',
  ];
  const changed = columns.map((c) => `old.${c} is not new.${c}`).join(' or ');
  await sql
    .raw(`create trigger lead_counts_update_old after update of ${columns.join(', ')} on leads
    when old.removed = 0 and (${changed}) begin ${add('old', -1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger lead_counts_update_new after update of ${columns.join(', ')} on leads
    when new.removed = 0 and (${changed}) begin ${add('new', 1)} end`)
    .execute(db);
}
