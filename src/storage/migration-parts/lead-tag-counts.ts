import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Live lead counts per business and tag (issue 21 item 5, part of migration 007-lead-words): the total
 * of a list filtered by one tag and nothing else is one sum over a few rows instead of a count of the
 * tag's leads. (Several tags: a lead may carry two of them, so counts do not add up; those still count.)
 *
 * A pair (live lead, tag) counts once. Kept by triggers in the write's transaction, as lead_counts are
 * (006-lead-counts; PostgreSQL: statement triggers, keys spread over SLOTS rows by the lead's row id and
 * upserted in key order; SQLite: row triggers): a tag added to or taken from a live lead, a lead removed
 * or restored. A deleted lead is taken off before its row goes (its tags' rows, deleted by the cascade
 * afterwards, no longer find a live lead, so nothing counts twice).
 */
const SLOTS = 4;
const KEY = 'business_pk, tag_id, slot';

export async function leadTagCounts(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const slots = kind === 'postgres' ? SLOTS : 1;
  await run(`create table lead_tag_counts (business_pk bigint not null, tag_id text not null, slot integer not null,
    live bigint not null, primary key (${KEY}))`);
  await run(`insert into lead_tag_counts (${KEY}, live) select t.business_pk, t.tag_id, t.lead_pk % ${slots}, count(*)
    from lead_tags t join leads l on l.id = t.lead_pk where l.removed = 0 group by 1, 2, 3`);
  if (kind === 'postgres') await postgres(run);
  else await sqlite(run);
}

async function postgres(run: (text: string) => Promise<unknown>): Promise<void> {
  // rows: (business_pk, tag_id, slot, delta)
  const apply = (rows: string) => `insert into lead_tag_counts as c (${KEY}, live)
    select ${KEY}, sum(delta) from (${rows}) d (${KEY}, delta) group by ${KEY} having sum(delta) <> 0 order by ${KEY}
    on conflict (${KEY}) do update set live = c.live + excluded.live`;
  const tagged = (table: string, sign: string) => `select t.business_pk, t.tag_id, t.lead_pk % ${SLOTS}, ${sign}1
    from ${table} t join leads l on l.id = t.lead_pk where l.removed = 0`;
  const fn = (name: string, body: string, returns = 'null') =>
    run(`create function ${name}() returns trigger language plpgsql as $$
    begin ${body}; return ${returns}; end $$`);
  await fn('crm_lead_tag_counts_insert', apply(tagged('new_tags', '+')));
  await fn('crm_lead_tag_counts_delete', apply(tagged('old_tags', '-')));
  await fn(
    'crm_lead_tag_counts_removed',
    apply(`select t.business_pk, t.tag_id, t.lead_pk % ${SLOTS}, case when n.removed = 0 then 1 else -1 end
    from old_leads o join new_leads n on n.id = o.id join lead_tags t on t.lead_pk = o.id where o.removed <> n.removed`),
  );
  await fn(
    'crm_lead_tag_counts_gone',
    `if old.removed = 0 then ${apply(`select t.business_pk, t.tag_id, t.lead_pk % ${SLOTS}, -1 from lead_tags t where t.lead_pk = old.id`)}; end if`,
    'old',
  );
  await run(`create trigger lead_tag_counts_insert after insert on lead_tags referencing new table as new_tags
    for each statement execute function crm_lead_tag_counts_insert()`);
  await run(`create trigger lead_tag_counts_delete after delete on lead_tags referencing old table as old_tags
    for each statement execute function crm_lead_tag_counts_delete()`);
  await run(`create trigger lead_tag_counts_removed after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_tag_counts_removed()`);
  await run(
    'create trigger lead_tag_counts_gone before delete on leads for each row execute function crm_lead_tag_counts_gone()',
  );
}

async function sqlite(run: (text: string) => Promise<unknown>): Promise<void> {
  const add = (
    business: string,
    tag: string,
    delta: string,
  ) => `insert into lead_tag_counts (${KEY}, live) values (${business}, ${tag}, 0, ${delta})
    on conflict (${KEY}) do update set live = live + excluded.live;`;
  const live = (lead: string) => `(select removed from leads where id = ${lead}) = 0`;
  await run(
    `create trigger lead_tag_counts_insert after insert on lead_tags when ${live('new.lead_pk')} begin ${add('new.business_pk', 'new.tag_id', '1')} end`,
  );
  await run(
    `create trigger lead_tag_counts_delete after delete on lead_tags when ${live('old.lead_pk')} begin ${add('old.business_pk', 'old.tag_id', '-1')} end`,
  );
  const each = (
    delta: string,
  ) => `insert into lead_tag_counts (${KEY}, live) select t.business_pk, t.tag_id, 0, ${delta} from lead_tags t
    where t.lead_pk = old.id and true on conflict (${KEY}) do update set live = live + excluded.live;`;
  await run(`create trigger lead_tag_counts_removed after update of removed on leads when old.removed <> new.removed
    begin ${each('case when new.removed = 0 then 1 else -1 end')} end`);
  await run(`create trigger lead_tag_counts_gone before delete on leads when old.removed = 0 begin ${each('-1')} end`);
}
