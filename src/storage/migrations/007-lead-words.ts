import { sql, type Kysely } from 'kysely';
import { accentTable } from '../../validation/search-words.js';
import type { StoreKind } from '../db.js';
import { leadTagCounts } from '../migration-parts/lead-tag-counts.js';

/**
 * Free text at scale (issue 21 item 5): a word table of our own replaces the tsvector + GIN index
 * (PostgreSQL) and the FTS5 table (SQLite) of migration 003-leads-search. One row per live lead, field
 * and distinct folded word of that field (weight 3 subject, 2 details, 1 customer name, contact name
 * and e-mail), keyed `(business_pk, weight, word, lead_pk)` with the lead's `created_at` beside the key:
 * a prefix term is one key range per weight, the exact total a count of distinct leads over those
 * ranges and the first page in the default order a top-N over them, all without reading the leads
 * (docs/performance-leads.md "Free text at scale"). `word` compares bytewise (PostgreSQL `collate "C"`,
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
const NAMES = (row: string) =>
  `${row}customer_name || ' ' || ${row}contact_name || ' ' || coalesce(${row}contact_email, '')`;
/** Characters that separate words in e-mails, paths and numbers (as migration 003-leads-search). */
const SEPARATORS = ".@-_/+:'";
const COLUMNS = 'business_pk, weight, word, lead_pk, created_at';
/** [name, key, included]: migration 003-leads-search's list indexes, rebuilt with the row id (and createdAt, the tie after a sort). */
const FILTER_INDEXES = [
  ['leads_list_created', 'business_pk, created_at desc, lead_id desc', 'id'],
  ['leads_list_pipeline', 'business_pk, pipeline_id, created_at desc, lead_id desc', 'id'],
  ['leads_list_stage', 'business_pk, stage_id, created_at desc, lead_id desc', 'id'],
  ['leads_list_source', 'business_pk, lead_source_key, created_at desc, lead_id desc', 'id'],
  ['leads_list_assignee', 'business_pk, assignee_id, created_at desc, lead_id desc', 'id'],
  ['leads_list_updated', 'business_pk, updated_at desc, lead_id desc', 'id, created_at'],
  [
    'leads_list_follow_up_asc',
    'business_pk, (follow_up_date is null), follow_up_date asc, lead_id desc',
    'id, created_at',
  ],
  [
    'leads_list_follow_up_desc',
    'business_pk, (follow_up_date is null), follow_up_date desc, lead_id desc',
    'id, created_at',
  ],
  ['leads_list_budget_asc', 'business_pk, (budget_amount is null), budget_amount asc, lead_id desc', 'id, created_at'],
  [
    'leads_list_budget_desc',
    'business_pk, (budget_amount is null), budget_amount desc, lead_id desc',
    'id, created_at',
  ],
] as const;
/** The weighted fields, as SQL over a row prefix (`o.`, `new.`). */
const FIELDS: [number, (row: string) => string][] = [
  [3, (r) => `${r}subject`],
  [2, (r) => `${r}details`],
  [1, NAMES],
];
const TEXT = ['subject', 'details', 'customer_name', 'contact_name', 'contact_email', 'removed'];

export function leadWordsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres') await postgres(db);
      else await sqlite(db);
      await leadTagCounts(db, kind);
    },
    async down(): Promise<void> {
      throw new Error('the lead words schema is not reversible');
    },
  };
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  // The same folding as migration 002's, skipping the accent table (a translate() that costs ~20 ms on
  // 10,000 characters) when the text has no character outside ASCII, which that table cannot hold.
  const { from, to } = accentTable();
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  await run(`create or replace function crm_search_fold(value text) returns text language sql immutable parallel safe as $$
    select case when value ~ '[^\\x01-\\x7f]'
      then translate(lower(value), ${quote(from + SEPARATORS)}, ${quote(to + ' '.repeat(SEPARATORS.length))})
      else translate(lower(coalesce(value, '')), ${quote(SEPARATORS)}, ${quote(' '.repeat(SEPARATORS.length))}) end
  $$`);
  await run(`create function crm_field_words(value text) returns setof text language sql immutable parallel safe as $$
    select lexeme from unnest(to_tsvector('simple'::regconfig, crm_search_fold(value)))
  $$`);
  await run(`create function crm_lead_words(subject text, details text, names text) returns table (word text, weight smallint)
    language sql immutable parallel safe as $$
      select w, 3::smallint from crm_field_words(subject) w
      union all select w, 2::smallint from crm_field_words(details) w
      union all select w, 1::smallint from crm_field_words(names) w
    $$`);
  await run(`create table lead_words (business_pk bigint not null, weight smallint not null, word text collate "C" not null,
    lead_pk bigint not null, created_at bigint not null)`);
  // Existing leads, before the key (one sort instead of an index insert per row); under the store's lock.
  await run(`insert into lead_words (${COLUMNS}) select l.business_pk, w.weight, w.word, l.id, l.created_at
    from leads l, crm_lead_words(l.subject, l.details, ${NAMES('l.')}) w where l.removed = 0`);
  await run(
    'alter table lead_words add constraint lead_words_pk primary key (business_pk, weight, word, lead_pk) include (created_at)',
  );
  const words = (row: string) => `crm_lead_words(${row}.subject, ${row}.details, ${NAMES(`${row}.`)}) w`;
  // Deletes go by the full key of each old word: the settings keep the planner on the key even when
  // lead_words's statistics are stale (a table that grew since its last analyze looked small enough to
  // hash-join whole: 50 ms for a one-word edit in the write bench).
  const fn = (name: string, body: string) =>
    run(`create function ${name}() returns trigger language plpgsql
    set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off as $$ begin ${body}; return null; end $$`);
  await fn(
    'crm_lead_words_insert',
    `insert into lead_words (${COLUMNS})
    select n.business_pk, w.weight, w.word, n.id, n.created_at from new_leads n, ${words('n')} where n.removed = 0`,
  );
  await fn(
    'crm_lead_words_delete',
    `delete from lead_words l using old_leads o, ${words('o')}
    where o.removed = 0 and (l.business_pk, l.weight, l.word, l.lead_pk) = (o.business_pk, w.weight, w.word, o.id)`,
  );
  // Only the leads whose text or removal changed, and only the words that changed (an edited subject
  // moves three words, not the details' thousand).
  // Only the fields whose text changed (or all of a lead removed or restored), and only the words that
  // changed: an edited subject parses the subjects, not the details' 10,000 characters.
  // An unchanged field is passed as null (whatever order the planner joins in), so its text is not parsed.
  const field = (
    row: 'o' | 'n',
    weight: number,
    text: (r: string) => string,
  ) => `select ${row}.business_pk, ${weight}::smallint, w, ${row}.id
    from old_leads o join new_leads n on n.id = o.id,
      crm_field_words(case when o.removed <> n.removed or ${text('o.')} is distinct from ${text('n.')} then ${text(`${row}.`)} end) w
    where ${row}.removed = 0`;
  const side = (row: 'o' | 'n') => FIELDS.map(([weight, text]) => field(row, weight, text)).join(' union all ');
  await fn(
    'crm_lead_words_update',
    `with was (business_pk, weight, word, id) as (${side('o')}),
    now (business_pk, weight, word, id) as (${side('n')}),
    gone as (delete from lead_words l using (select * from was except select * from now) g
      where (l.business_pk, l.weight, l.word, l.lead_pk) = (g.business_pk, g.weight, g.word, g.id))
    insert into lead_words (${COLUMNS}) select a.business_pk, a.weight, a.word, a.id, n.created_at
      from (select * from now except select * from was) a join new_leads n on n.id = a.id`,
  );
  await run(`create trigger lead_words_insert after insert on leads referencing new table as new_leads
    for each statement execute function crm_lead_words_insert()`);
  await run(`create trigger lead_words_update after update on leads referencing old table as old_leads new table as new_leads
    for each statement execute function crm_lead_words_update()`);
  await run(`create trigger lead_words_delete after delete on leads referencing old table as old_leads
    for each statement execute function crm_lead_words_delete()`);
  // Free text with a structured filter or a sort joins the matches to that filter's or sort's index: with
  // the row id in it (and createdAt, the tie after a sort), that join and the ranking read no lead row
  // (SQLite's indexes hold the row id already). Same names and keys as migration 003-leads-search.
  for (const [name, key, included] of FILTER_INDEXES) {
    await run(`drop index ${name}`);
    await run(`create index ${name} on leads (${key}) include (${included}) where removed = 0`);
  }
  // The former search: the GIN index and its stored vector (wide rows every lead read paid for).
  await run('drop index leads_search');
  await run('alter table leads drop column search');
  await run('analyze lead_words');
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const all = (row: string) => FIELDS.map(([, text]) => text(`${row}.`)).join(', ');
  // In an edit, only the fields whose text changed (all once the lead is removed or restored): an
  // unchanged field is passed as null, so its words are neither deleted nor written again.
  const edited = (row: string) =>
    FIELDS.map(
      ([, text]) =>
        `case when old.removed <> new.removed or ${text('old.')} is not ${text('new.')} then ${text(`${row}.`)} end`,
    ).join(', ');
  const pairs = (args: string, alias = 'j') =>
    `select ${alias}.value ->> 1 as weight, ${alias}.value ->> 0 as word from json_each(crm_lead_words(${args})) ${alias}`;
  await run(`create table lead_words (business_pk integer not null, weight integer not null, word text not null,
    lead_pk integer not null, created_at integer not null, primary key (business_pk, weight, word, lead_pk)) without rowid`);
  await run(`insert into lead_words (${COLUMNS}) select l.business_pk, j.value ->> 1, j.value ->> 0, l.id, l.created_at
    from leads l, json_each(crm_lead_words(${all('l')})) j where l.removed = 0`);
  const add = (
    words: string,
    unless = '',
  ) => `insert into lead_words (${COLUMNS}) select new.business_pk, p.weight, p.word, new.id, new.created_at
    from (${words}) p where true${unless} on conflict do nothing;`;
  // Deleted by full key: the old row's words, recomputed.
  const remove = (
    words: string,
    unless = '',
  ) => `delete from lead_words where business_pk = old.business_pk and lead_pk = old.id
    and (weight, word) in (select p.weight, p.word from (${words}) p${unless});`;
  await run(
    `create trigger lead_words_insert after insert on leads when new.removed = 0 begin ${add(pairs(all('new')))} end`,
  );
  await run(
    `create trigger lead_words_delete after delete on leads when old.removed = 0 begin ${remove(pairs(all('old')))} end`,
  );
  const changed = TEXT.map((c) => `old.${c} is not new.${c}`).join(' or ');
  const on = `after update of ${TEXT.join(', ')} on leads`;
  // Old words the new row no longer has, then the new row's words the old one did not have.
  await run(`create trigger lead_words_update ${on} when old.removed = 0 and (${changed}) begin
    ${remove(pairs(edited('old')), ` where new.removed = 1 or (p.weight, p.word) not in (${pairs(edited('new'), 'k')})`)} end`);
  await run(`create trigger lead_words_update_new ${on} when new.removed = 0 and (${changed}) begin
    ${add(pairs(edited('new')), ` and (old.removed = 1 or (p.weight, p.word) not in (${pairs(edited('old'), 'k')}))`)} end`);
  for (const name of ['leads_fts_insert', 'leads_fts_delete', 'leads_fts_update']) await run(`drop trigger ${name}`);
  await run('drop table leads_fts');
}
