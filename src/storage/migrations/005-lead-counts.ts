import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Live lead counts per business, pipeline and stage (issue 21 item 5): the `total` of a lead list
 * filtered by nothing, pipeline, stage or status is a sum over a few dozen rows instead of a count of up
 * to every lead of the business (docs/performance.md "Leads at scale").
 *
 * Kept by triggers on leads, in the transaction of the lead write, so the write side changes nothing
 * and no write path can forget them. Each key is spread over SLOTS rows (by the lead's row id) so that
 * concurrent creates in one stage do not queue on one row. PostgreSQL: statement triggers over the
 * transition tables, one upsert per statement with its keys in a fixed order (two statements moving
 * leads between the same stages in opposite directions cannot deadlock). SQLite (one writer): row
 * triggers. A removed lead is not counted; no foreign key, so that a business's cascade delete, whose
 * leads' triggers write here, cannot trip over its own order.
 */
export const LEAD_COUNT_SLOTS = 4;

const KEY = 'business_pk, pipeline_id, stage_id, slot';

export function leadCountsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createTable('lead_counts')
        .addColumn('business_pk', 'bigint', (c) => c.notNull())
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .addColumn('stage_id', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('live', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_counts_pk', ['business_pk', 'pipeline_id', 'stage_id', 'slot'])
        .execute();
      if (kind === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
      // Existing leads, counted once (the migration runs under the store's lock, before any write).
      await sql.raw(`insert into lead_counts (${KEY}, live)
        select business_pk, pipeline_id, stage_id, id % ${LEAD_COUNT_SLOTS}, count(*) from leads where removed = 0
        group by business_pk, pipeline_id, stage_id, id % ${LEAD_COUNT_SLOTS}`).execute(db);
    },
    async down(): Promise<void> {
      throw new Error('the lead counts schema is not reversible');
    },
  };
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const side = (table: string, sign: string) =>
    `select business_pk, pipeline_id, stage_id, id % ${LEAD_COUNT_SLOTS} as slot, ${sign}1 as delta from ${table} where removed = 0`;
  const apply = (rows: string) => `insert into lead_counts as c (${KEY}, live)
      select business_pk, pipeline_id, stage_id, slot, sum(delta) from (${rows}) d
      group by business_pk, pipeline_id, stage_id, slot having sum(delta) <> 0 order by business_pk, pipeline_id, stage_id, slot
      on conflict (${KEY}) do update set live = c.live + excluded.live;`;
  const body = (rows: string) => `begin ${apply(rows)} return null; end`;
  const fn = (name: string, rows: string) => sql.raw(`create function ${name}() returns trigger language plpgsql as $$ ${body(rows)} $$`).execute(db);
  await fn('crm_lead_counts_insert', side('new_leads', '+'));
  await fn('crm_lead_counts_update', `${side('old_leads', '-')} union all ${side('new_leads', '+')}`);
  await fn('crm_lead_counts_delete', side('old_leads', '-'));
  await sql.raw(`create trigger lead_counts_insert after insert on leads referencing new table as new_leads
    for each statement execute function crm_lead_counts_insert()`).execute(db);
  await sql.raw(`create trigger lead_counts_update after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_counts_update()`).execute(db);
  await sql.raw(`create trigger lead_counts_delete after delete on leads referencing old table as old_leads
    for each statement execute function crm_lead_counts_delete()`).execute(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const add = (row: 'new' | 'old', delta: number) => `insert into lead_counts (${KEY}, live)
    values (${row}.business_pk, ${row}.pipeline_id, ${row}.stage_id, ${row}.id % ${LEAD_COUNT_SLOTS}, ${delta})
    on conflict (${KEY}) do update set live = live + excluded.live;`;
  await sql.raw(`create trigger lead_counts_insert after insert on leads when new.removed = 0 begin ${add('new', 1)} end`).execute(db);
  await sql.raw(`create trigger lead_counts_delete after delete on leads when old.removed = 0 begin ${add('old', -1)} end`).execute(db);
  // Only when what is counted changes: the common edit (a note, a tag) writes nothing here.
  const changed = 'old.removed <> new.removed or old.pipeline_id <> new.pipeline_id or old.stage_id <> new.stage_id or old.business_pk <> new.business_pk';
  await sql.raw(`create trigger lead_counts_update_old after update of removed, pipeline_id, stage_id, business_pk on leads
    when old.removed = 0 and (${changed}) begin ${add('old', -1)} end`).execute(db);
  await sql.raw(`create trigger lead_counts_update_new after update of removed, pipeline_id, stage_id, business_pk on leads
    when new.removed = 0 and (${changed}) begin ${add('new', 1)} end`).execute(db);
}
