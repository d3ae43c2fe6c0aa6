import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Free text at scale (issue 21 item 5): a word table of our own replaces the tsvector + GIN index
 * (PostgreSQL) and the FTS5 table (SQLite) of migration 002-leads-search. One row per live lead, field
 * and distinct folded word of that field (weight 3 subject, 2 details, 1 customer name, contact name
 * and e-mail), keyed `(business_pk, weight, word, lead_pk)` with the lead's `created_at` beside the key:
 * a prefix term is one key range per weight, the exact total a count of distinct leads over those
 * ranges and the first page in the default order a top-N over them, all without reading the leads
 * (docs/performance.md "Free text at scale"). `word` compares bytewise (PostgreSQL `collate "C"`,
 * SQLite's binary default), so that `word >= p and word < p || U+10FFFF` is exactly "starts with p".
 *
 * Kept by triggers on leads in the lead write's own transaction (no write path can forget it), over
 * the same splitting and folding on each side:
 * - PostgreSQL: `crm_lead_words(subject, details, names)`, SQL over the text parser of the former
 *   tsvector and `crm_search_fold`; statement triggers over the transition tables. A lead's old words
 *   are recomputed from its old row to delete them by their full key (no second index by lead).
 * - SQLite: a function of ours, `crm_lead_words` (src/validation/search-words.ts `leadWordsJson`, the
 *   query side's own splitting), registered on every connection the store opens (storage/db.ts) and
 *   read through json_each. A connection without it (the sqlite3 shell) cannot write leads: crmkit's
 *   store is the only writer of its file. FTS5's vocabulary cannot be read per lead without a scan.
 *
 * A removed lead has no words. `created_at` is never changed by a lead write, so an edit touches only
 * the words that changed.
 */
const NAMES = (row: string) => `${row}customer_name || ' ' || ${row}contact_name || ' ' || coalesce(${row}contact_email, '')`;
const COLUMNS = 'business_pk, weight, word, lead_pk, created_at';
const FILTER_INDEXES = [
  ['leads_list_created', 'business_pk, created_at desc, lead_id desc'],
  ['leads_list_pipeline', 'business_pk, pipeline_id, created_at desc, lead_id desc'],
  ['leads_list_stage', 'business_pk, stage_id, created_at desc, lead_id desc'],
  ['leads_list_source', 'business_pk, lead_source_key, created_at desc, lead_id desc'],
  ['leads_list_assignee', 'business_pk, assignee_id, created_at desc, lead_id desc'],
] as const;
const TEXT = ['subject', 'details', 'customer_name', 'contact_name', 'contact_email', 'removed'];

export function leadWordsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres') await postgres(db);
      else await sqlite(db);
    },
    async down(): Promise<void> {
      throw new Error('the lead words schema is not reversible');
    },
  };
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function crm_lead_words(subject text, details text, names text) returns table (word text, weight smallint)
    language sql immutable parallel safe as $$
      select lexeme, 3::smallint from unnest(to_tsvector('simple'::regconfig, crm_search_fold(subject)))
      union all select lexeme, 2::smallint from unnest(to_tsvector('simple'::regconfig, crm_search_fold(details)))
      union all select lexeme, 1::smallint from unnest(to_tsvector('simple'::regconfig, crm_search_fold(names)))
    $$`);
  await run(`create table lead_words (business_pk bigint not null, weight smallint not null, word text collate "C" not null,
    lead_pk bigint not null, created_at bigint not null)`);
  // Existing leads, before the key (one sort instead of an index insert per row); under the store's lock.
  await run(`insert into lead_words (${COLUMNS}) select l.business_pk, w.weight, w.word, l.id, l.created_at
    from leads l, crm_lead_words(l.subject, l.details, ${NAMES('l.')}) w where l.removed = 0`);
  await run('alter table lead_words add constraint lead_words_pk primary key (business_pk, weight, word, lead_pk) include (created_at)');
  const words = (row: string) => `crm_lead_words(${row}.subject, ${row}.details, ${NAMES(`${row}.`)}) w`;
  const fn = (name: string, body: string) => run(`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`);
  await fn('crm_lead_words_insert', `insert into lead_words (${COLUMNS})
    select n.business_pk, w.weight, w.word, n.id, n.created_at from new_leads n, ${words('n')} where n.removed = 0`);
  await fn('crm_lead_words_delete', `delete from lead_words l using old_leads o, ${words('o')}
    where o.removed = 0 and (l.business_pk, l.weight, l.word, l.lead_pk) = (o.business_pk, w.weight, w.word, o.id)`);
  // Only the leads whose text or removal changed, and only the words that changed (an edited subject
  // moves three words, not the details' thousand).
  const changed = (row: string) => `(${TEXT.map((c) => `${row}.${c}`).join(', ')})`;
  await fn('crm_lead_words_update', `with changed as (
      select o.id from old_leads o join new_leads n on n.id = o.id where ${changed('o')} is distinct from ${changed('n')}),
    was as (select o.business_pk, w.weight, w.word, o.id from old_leads o join changed c on c.id = o.id, ${words('o')} where o.removed = 0),
    now as (select n.business_pk, w.weight, w.word, n.id, n.created_at from new_leads n join changed c on c.id = n.id, ${words('n')} where n.removed = 0),
    gone as (delete from lead_words l using (select * from was except select business_pk, weight, word, id from now) g
      where (l.business_pk, l.weight, l.word, l.lead_pk) = (g.business_pk, g.weight, g.word, g.id))
    insert into lead_words (${COLUMNS}) select * from now
      where not exists (select 1 from was where (was.business_pk, was.weight, was.word, was.id) = (now.business_pk, now.weight, now.word, now.id))`);
  await run(`create trigger lead_words_insert after insert on leads referencing new table as new_leads
    for each statement execute function crm_lead_words_insert()`);
  await run(`create trigger lead_words_update after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_words_update()`);
  await run(`create trigger lead_words_delete after delete on leads referencing old table as old_leads
    for each statement execute function crm_lead_words_delete()`);
  // Free text with a structured filter joins the matches to the filter's index: with the row id in it,
  // that join (and the ranking, on createdAt and leadId) reads no lead row (SQLite's indexes hold the
  // row id already). Same names and keys as migration 002-leads-search, the row id added.
  for (const [name, key] of FILTER_INDEXES) {
    await run(`drop index ${name}`);
    await run(`create index ${name} on leads (${key}) include (id) where removed = 0`);
  }
  // The former search: the GIN index and its stored vector (wide rows every lead read paid for).
  await run('drop index leads_search');
  await run('alter table leads drop column search');
  await run('analyze lead_words');
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const words = (row: string) => `json_each(crm_lead_words(${row}.subject, ${row}.details, ${NAMES(`${row}.`)})) j`;
  const pair = 'j.value ->> 1, j.value ->> 0';
  await run(`create table lead_words (business_pk integer not null, weight integer not null, word text not null,
    lead_pk integer not null, created_at integer not null, primary key (business_pk, weight, word, lead_pk)) without rowid`);
  await run(`insert into lead_words (${COLUMNS}) select l.business_pk, ${pair}, l.id, l.created_at from leads l, ${words('l')} where l.removed = 0`);
  const add = (row: string) => `insert into lead_words (${COLUMNS}) select ${row}.business_pk, ${pair}, ${row}.id, ${row}.created_at from ${words(row)} where true
    on conflict do nothing;`;
  // Deleted by full key: the old row's words, recomputed.
  const remove = (row: string, unless: string) => `delete from lead_words where business_pk = ${row}.business_pk and lead_pk = ${row}.id
    and (weight, word) in (select ${pair} from ${words(row)}${unless});`;
  await run(`create trigger lead_words_insert after insert on leads when new.removed = 0 begin ${add('new')} end`);
  await run(`create trigger lead_words_delete after delete on leads when old.removed = 0 begin ${remove('old', '')} end`);
  const changed = TEXT.map((c) => `old.${c} is not new.${c}`).join(' or ');
  // Old words the new row no longer has (all of them once removed), then the new row's words.
  await run(`create trigger lead_words_update after update of ${TEXT.join(', ')} on leads when old.removed = 0 and (${changed}) begin
    ${remove('old', ` where new.removed = 1 or (j.value ->> 1, j.value ->> 0) not in (select ${pair.replaceAll('j.', 'k.')} from json_each(crm_lead_words(new.subject, new.details, ${NAMES('new.')})) k)`)} end`);
  await run(`create trigger lead_words_update_new after update of ${TEXT.join(', ')} on leads when new.removed = 0 and (${changed}) begin ${add('new')} end`);
  for (const name of ['leads_fts_insert', 'leads_fts_delete', 'leads_fts_update']) await run(`drop trigger ${name}`);
  await run('drop table leads_fts');
}
