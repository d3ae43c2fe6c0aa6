import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * What the reports (src/reports/, docs/decisions.md "Reports") read at scale, kept by the store itself so
 * no write path can forget it and the write side changes nothing:
 * - `lead_stays`: each stay of a lead in a stage (entered by a CREATED or STAGE_CHANGE activity that moved
 *   it; left at its next move), with the lead's current stage and, on the open stay, its current reasons.
 *   Triggers on lead_activities keep it in the activity's transaction; a removed lead's stays go.
 * - `invoices.due_on`: the content's dueDate (generated), for ageing; covering indexes for the sums.
 * - `invoice_payments.business_pk, currency, paid_on`: copied at insert (a payment never changes but for
 *   `removed`), so a month's collections are one index range of the business.
 * Dates stay the UTC ISO texts the documents hold (their text order is their time order).
 */
export const MOVED = (data: string, kind: StoreKind) => {
  const get = (member: string) =>
    kind === 'postgres' ? `(${data}::json ->> '${member}')` : `json_extract(${data}, '$.${member}')`;
  return {
    to: get('toStageId'),
    reasons: `coalesce(${get('reasonKeys')}, '[]')`,
    moved: `coalesce(${get('fromStageId')}, '') <> coalesce(${get('toStageId')}, '')`,
  };
};

export function reportAggregatesMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const run = (text: string) => sql.raw(text).execute(db);
      const id = kind === 'postgres' ? 'id bigserial primary key' : 'id integer primary key autoincrement';
      await run(`create table lead_stays (${id},
        business_pk bigint not null, lead_pk bigint not null references leads(id) on delete cascade,
        stage_id text not null, entered_at bigint not null, left_at bigint,
        current_stage_id text not null, reason_keys text not null default '[]')`);
      // PostgreSQL covers with INCLUDE (index-only scans); SQLite with trailing key columns.
      const keys = (columns: string, covered: string) =>
        kind === 'postgres' ? `(${columns}) include (${covered})` : `(${columns}, ${covered})`;
      await run(`create index lead_stays_open on lead_stays ${keys('business_pk, stage_id, entered_at', 'reason_keys')}
        where left_at is null`);
      await run(`create index lead_stays_entered on lead_stays
        ${keys('business_pk, stage_id, entered_at', 'lead_pk, current_stage_id')}`);
      await run(`create index lead_stays_left on lead_stays ${keys('business_pk, stage_id, left_at', 'entered_at')}
        where left_at is not null`);
      // Every move updates the lead's stays (left_at of the open one, current_stage_id of all): by lead.
      await run('create index lead_stays_lead on lead_stays (lead_pk)');
      await (kind === 'postgres' ? postgresTriggers(db) : sqliteTriggers(db));
      await fillLeadStays(db, kind);

      const due =
        kind === 'postgres'
          ? `alter table invoices add column due_on text generated always as (content::json ->> 'dueDate') stored`
          : `alter table invoices add column due_on text generated always as (json_extract(content, '$.dueDate')) virtual`;
      await run(due);
      await run(`create index invoices_receivables on invoices
        ${keys('business_pk, due_on', 'currency, total_minor, paid_minor')} where status in ('UNPAID', 'PARTIALLY_PAID')`);
      await run(
        `create index invoices_invoiced on invoices ${keys('business_pk, invoice_date', 'status, currency, total_minor')}`,
      );
      for (const column of ['business_pk bigint', 'currency text', 'paid_on text'])
        await run(`alter table invoice_payments add column ${column}`);
      await run(`update invoice_payments set
        business_pk = (select i.business_pk from invoices i where i.id = invoice_payments.invoice_pk),
        currency = (select i.currency from invoices i where i.id = invoice_payments.invoice_pk),
        paid_on = ${kind === 'postgres' ? `data::json ->> 'paymentDate'` : `json_extract(data, '$.paymentDate')`}`);
      await run(`create index invoice_payments_collected on invoice_payments
        ${keys('business_pk, paid_on', 'currency, settled_minor')} where removed = 0`);
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const a = MOVED('new.data', 'postgres');
  await run(`create function lead_stays_record() returns trigger language plpgsql as $$ begin
    if new.type = 'CREATED' or (new.type = 'STAGE_CHANGE' and ${a.moved}) then
      update lead_stays set left_at = new.created_at, reason_keys = '[]' where lead_pk = new.lead_pk and left_at is null;
      update lead_stays set current_stage_id = ${a.to} where lead_pk = new.lead_pk;
      insert into lead_stays (business_pk, lead_pk, stage_id, entered_at, current_stage_id, reason_keys)
        select l.business_pk, new.lead_pk, ${a.to}, new.created_at, ${a.to}, ${a.reasons}
        from leads l where l.id = new.lead_pk and l.removed = 0;
    elsif new.type = 'STAGE_CHANGE' then
      update lead_stays set reason_keys = ${a.reasons} where lead_pk = new.lead_pk and left_at is null;
    end if;
    return null; end $$`);
  await run(`create trigger lead_stays_record after insert on lead_activities
    for each row execute function lead_stays_record()`);
  await run(`create function lead_stays_forget() returns trigger language plpgsql as $$ begin
    delete from lead_stays where lead_pk = new.id; return null; end $$`);
  await run(`create trigger lead_stays_forget after update of removed on leads
    for each row when (new.removed <> 0 and old.removed = 0) execute function lead_stays_forget()`);
  await run(`create function invoice_payments_copy() returns trigger language plpgsql as $$ begin
    new.paid_on := new.data::json ->> 'paymentDate';
    select i.business_pk, i.currency into new.business_pk, new.currency from invoices i where i.id = new.invoice_pk;
    return new; end $$`);
  await run(`create trigger invoice_payments_copy before insert on invoice_payments
    for each row execute function invoice_payments_copy()`);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const a = MOVED('new.data', 'sqlite');
  await run(`create trigger lead_stays_move after insert on lead_activities
    when new.type = 'CREATED' or (new.type = 'STAGE_CHANGE' and ${a.moved}) begin
      update lead_stays set left_at = new.created_at, reason_keys = '[]' where lead_pk = new.lead_pk and left_at is null;
      update lead_stays set current_stage_id = ${a.to} where lead_pk = new.lead_pk;
      insert into lead_stays (business_pk, lead_pk, stage_id, entered_at, current_stage_id, reason_keys)
        select l.business_pk, new.lead_pk, ${a.to}, new.created_at, ${a.to}, ${a.reasons}
        from leads l where l.id = new.lead_pk and l.removed = 0;
    end`);
  await run(`create trigger lead_stays_reasons after insert on lead_activities
    when new.type = 'STAGE_CHANGE' and not (${a.moved}) begin
      update lead_stays set reason_keys = ${a.reasons} where lead_pk = new.lead_pk and left_at is null;
    end`);
  await run(`create trigger lead_stays_forget after update of removed on leads
    when new.removed <> 0 and old.removed = 0 begin delete from lead_stays where lead_pk = new.id; end`);
  await run(`create trigger invoice_payments_copy after insert on invoice_payments begin
    update invoice_payments set paid_on = json_extract(new.data, '$.paymentDate'),
      business_pk = (select i.business_pk from invoices i where i.id = new.invoice_pk),
      currency = (select i.currency from invoices i where i.id = new.invoice_pk)
    where id = new.id;
    end`);
}

/**
 * The stays of the live leads from their activity history (the migration's backfill; the bench's seed
 * writes activities without the triggers and fills the stays with this once).
 */
export async function fillLeadStays(db: Kysely<unknown>, kind: StoreKind, businessPk?: number): Promise<void> {
  const a = MOVED('a.data', kind);
  const only = businessPk === undefined ? '' : ` and l.business_pk = ${Number(businessPk)}`;
  const leadReasons = kind === 'postgres' ? `(l.data::json ->> 'reasonKeys')` : `json_extract(l.data, '$.reasonKeys')`;
  await sql
    .raw(`insert into lead_stays (business_pk, lead_pk, stage_id, entered_at, left_at, current_stage_id, reason_keys)
    select s.business_pk, s.lead_pk, s.stage_id, s.entered_at, s.left_at, s.current_stage_id,
      case when s.left_at is null then coalesce(s.lead_reasons, '[]') else '[]' end
    from (select l.business_pk, a.lead_pk, ${a.to} as stage_id, a.created_at as entered_at,
        lead(a.created_at) over (partition by a.lead_pk order by a.created_at, a.id) as left_at,
        l.stage_id as current_stage_id, ${leadReasons} as lead_reasons
      from lead_activities a join leads l on l.id = a.lead_pk
      where l.removed = 0${only} and (a.type = 'CREATED' or (a.type = 'STAGE_CHANGE' and ${a.moved}))) s`)
    .execute(db);
}
