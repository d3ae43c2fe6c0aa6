import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Free text at 1,000,000 leads (issue 21 item 5): the word table of migration 007-lead-words holds one
 * row per lead and distinct folded word instead of one per lead, field and word. `fields` says which
 * fields hold the word (a bit per field: subject 4, details 2, names 1, i.e. `1 << (weight - 1)`),
 * `weight` the best of them (subject 3, details 2, names 1). Keyed `(business_pk, word, weight,
 * created_at, lead_pk)` with `fields` beside the key: one word is one key range with one row per lead,
 * so its total is a count of the range (no grouping), and read backwards that range is already in the
 * first page's order (relevance, then createdAt descending), so the page stops after its own leads. One
 * row per field made every search group its entries by lead (a hash aggregation of ~100,000 entries,
 * ~45 ms of a one-word search at 1,000,000 leads) and rank all of them (docs/performance-leads.md "Free text
 * at scale"). A `subject` word is the range of weight 3 alone (a lead's best field is its subject
 * exactly when its subject holds the word).
 *
 * A row is found by `(business_pk, word, lead_pk)` with its `created_at` (never changed by a lead write)
 * and `weight in (1, 2, 3)`: three probes of the key.
 *
 * Each row also carries its lead's `pipeline_id` (beside the key), so that free text with a pipeline
 * filter is a condition on the word's range rather than a join of its matches with the pipeline's
 * leads (a broad word with a pipeline at 1,000,000 leads: the pipeline index's 331,020 entries read,
 * 153 / 210 ms p50 / p99 through the HTTP layer; with the pipeline on the word's rows 11.7 / 15.0). It
 * costs ~28% more table and key (2.0 GB → 2.5 GB at 1,000,000 leads), and a lead moved to another
 * pipeline rewrites its word rows (one per distinct word of the lead).
 *
 * Kept by the same triggers on leads, over the same splitting (006's `crm_lead_words`): a new lead's
 * pairs are folded into one row per word; an edit of some fields computes, for each word of those fields
 * that came or went, the field bits to set and to clear, and applies them to the word's row (inserted,
 * updated, or deleted when no field holds the word any more): an edited subject still touches only the
 * subject's words.
 */
const NAMES = (row: string) =>
  `${row}customer_name || ' ' || ${row}contact_name || ' ' || coalesce(${row}contact_email, '')`;
const COLUMNS = 'business_pk, word, lead_pk, weight, fields, created_at, pipeline_id';
/** The best weight of a field mask (subject 4 → 3, details 2 → 2, names 1 → 1). */
export const bestOf = (mask: string) =>
  `(case when (${mask}) & 4 <> 0 then 3 when (${mask}) & 2 <> 0 then 2 else 1 end)`;
/** The weighted fields, as SQL over a row prefix (`o.`, `new.`): [bit, text]. */
const FIELDS: [number, (row: string) => string][] = [
  [4, (r) => `${r}subject`],
  [2, (r) => `${r}details`],
  [1, NAMES],
];
/** Every weight, so that a row looked up by word, createdAt and lead is three probes of the key, not a scan of the word's range. */
const ANY_WEIGHT = (row: string) => `${row}weight in (1, 2, 3)`;
/** A lead's fields over `n.`: every word of a lead moved to another pipeline. */
const MOVED = FIELDS.map(([, text]) => text('n.'));
const TEXT = ['subject', 'details', 'customer_name', 'contact_name', 'contact_email', 'removed'];

export function leadWordsBestMigration(kind: StoreKind) {
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
  await run('alter table lead_words rename to lead_words_006');
  await run(`create table lead_words (business_pk bigint not null, word text collate "C" not null, lead_pk bigint not null,
    weight smallint not null, fields smallint not null, created_at bigint not null, pipeline_id text not null)`);
  // From 006's rows (no text parsed again), before the key: one sort instead of an index insert per row.
  // In the key's order: an index-only read checks each row's heap page in the visibility map, and rows in
  // hash order switched its page ~0.8 times per row (75,000 buffers to count 100,000 rows of one word
  // at 1,000,000 leads, 30 ms; new leads' rows are appended in createdAt order, as the key reads them).
  await run(`insert into lead_words (${COLUMNS}) select w.*, l.pipeline_id from (select business_pk, word, lead_pk, max(weight),
      bit_or(1 << (weight - 1))::smallint, max(created_at) as created_at from lead_words_006 group by business_pk, word, lead_pk) w
    join leads l on l.id = w.lead_pk order by 1, 2, 4, 6, 3`);
  await run('drop table lead_words_006');
  await run(
    'alter table lead_words add constraint lead_words_pk primary key (business_pk, word, weight, created_at, lead_pk) include (fields, pipeline_id)',
  );
  await postgresTriggers(db);
  await run('analyze lead_words');
}

/** The PostgreSQL trigger functions of this migration (exported for a bench database rebuilt by hand). */
export async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const words = (row: string) => `crm_lead_words(${row}.subject, ${row}.details, ${NAMES(`${row}.`)}) w`;
  // Same settings as 006's: the key, even when lead_words's statistics are stale.
  const fn = (name: string, body: string) =>
    run(`create or replace function ${name}() returns trigger language plpgsql
    set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off as $$ begin ${body}; return null; end $$`);
  await fn(
    'crm_lead_words_insert',
    `insert into lead_words (${COLUMNS})
    select n.business_pk, w.word, n.id, max(w.weight), bit_or(1 << (w.weight - 1))::smallint, n.created_at, n.pipeline_id
    from new_leads n, ${words('n')} where n.removed = 0 group by n.business_pk, n.id, n.created_at, n.pipeline_id, w.word`,
  );
  await fn(
    'crm_lead_words_delete',
    `delete from lead_words l using (select distinct o.business_pk, o.id, o.created_at, w.word from old_leads o, ${words('o')}
    where o.removed = 0) g where (l.business_pk, l.word, l.created_at, l.lead_pk) = (g.business_pk, g.word, g.created_at, g.id) and ${ANY_WEIGHT('l.')}`,
  );
  // Only the fields whose text changed (or all of a lead removed or restored), and of those only the
  // words that came or went: an unchanged field is passed as null, so its text is not parsed.
  const field = (
    row: 'o' | 'n',
    bit: number,
    text: (r: string) => string,
  ) => `select ${row}.business_pk, ${row}.id, w, ${bit}
    from old_leads o join new_leads n on n.id = o.id,
      crm_field_words(case when o.removed <> n.removed or ${text('o.')} is distinct from ${text('n.')} then ${text(`${row}.`)} end) w
    where ${row}.removed = 0`;
  const side = (row: 'o' | 'n') => FIELDS.map(([bit, text]) => field(row, bit, text)).join(' union all ');
  // One MERGE: a word's row gets the bits of the fields it came into and loses those it left; no bit left, no row.
  await fn(
    'crm_lead_words_update',
    `with was (business_pk, id, word, bit) as (${side('o')}),
    now (business_pk, id, word, bit) as (${side('n')}),
    edits as (select business_pk, id, word, coalesce(bit_or(bit) filter (where came), 0)::smallint as set,
        coalesce(bit_or(bit) filter (where not came), 0)::smallint as clear
      from (select *, true as came from (select * from now except select * from was) a
        union all select *, false from (select * from was except select * from now) g) e group by business_pk, id, word)
    merge into lead_words l using (select e.*, n.created_at, n.pipeline_id from edits e join new_leads n on n.id = e.id) e
      on (l.business_pk, l.word, l.created_at, l.lead_pk) = (e.business_pk, e.word, e.created_at, e.id) and ${ANY_WEIGHT('l.')}
    when matched and (l.fields & ~e.clear | e.set) = 0 then delete
    when matched then update set fields = l.fields & ~e.clear | e.set, weight = ${bestOf('l.fields & ~e.clear | e.set')}
    when not matched and e.set <> 0 then insert (${COLUMNS}) values (e.business_pk, e.word, e.id, ${bestOf('e.set')}, e.set, e.created_at, e.pipeline_id);
    update lead_words l set pipeline_id = n.pipeline_id from old_leads o join new_leads n on n.id = o.id,
      lateral (select distinct w.word from crm_lead_words(${MOVED.map((t) => `case when o.pipeline_id <> n.pipeline_id then ${t} end`).join(', ')}) w) w
      where n.removed = 0 and o.pipeline_id <> n.pipeline_id and ${ANY_WEIGHT('l.')}
        and (l.business_pk, l.word, l.created_at, l.lead_pk) = (n.business_pk, w.word, n.created_at, n.id)`,
  );
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run('alter table lead_words rename to lead_words_006');
  await run(`create table lead_words (business_pk integer not null, word text not null, lead_pk integer not null, weight integer not null,
    fields integer not null, created_at integer not null, pipeline_id text not null, primary key (business_pk, word, weight, created_at, lead_pk)) without rowid`);
  // 006's pairs are distinct per field, so a sum of their bits is their union.
  await run(`insert into lead_words (${COLUMNS}) select w.*, l.pipeline_id from (select business_pk, word, lead_pk, max(weight),
      sum(1 << (weight - 1)), max(created_at) from lead_words_006 group by business_pk, word, lead_pk) w join leads l on l.id = w.lead_pk`);
  await run('drop table lead_words_006');
  for (const name of ['lead_words_insert', 'lead_words_delete', 'lead_words_update', 'lead_words_update_new'])
    await run(`drop trigger ${name}`);
  const all = (row: string) => FIELDS.map(([, text]) => text(`${row}.`)).join(', ');
  // In an edit, only the fields whose text changed (all once the lead is removed or restored): an
  // unchanged field is passed as null, so its words are neither parsed nor touched.
  const edited = (row: string) =>
    FIELDS.map(
      ([, text]) =>
        `case when old.removed <> new.removed or ${text('old.')} is not ${text('new.')} then ${text(`${row}.`)} end`,
    ).join(', ');
  // (word, bit) pairs: json_each of 006's `[word, weight]` pairs.
  const pairs = (args: string, live: string) =>
    `select j.value ->> 0 as word, 1 << ((j.value ->> 1) - 1) as bit from json_each(crm_lead_words(${args})) j where ${live}`;
  await run(`create trigger lead_words_insert after insert on leads when new.removed = 0 begin
    insert into lead_words (${COLUMNS}) select new.business_pk, p.word, new.id, ${bestOf('sum(p.bit)')}, sum(p.bit), new.created_at, new.pipeline_id
      from (${pairs(all('new'), 'true')}) p group by p.word; end`);
  await run(`create trigger lead_words_delete after delete on leads when old.removed = 0 begin
    delete from lead_words where ${key('old')} and word in (select p.word from (${pairs(all('old'), 'true')}) p); end`);
  const changed = TEXT.map((c) => `old.${c} is not new.${c}`).join(' or ');
  const was = pairs(edited('old'), 'old.removed = 0');
  const now = pairs(edited('new'), 'new.removed = 0');
  // Per field, the words that left it lose its bit and those that came get it (their row inserted when
  // the lead did not hold the word; deleted when no bit is left). One statement per bit, each reaching
  // the rows by their key through an uncorrelated list of words: an UPDATE ... FROM over the words was
  // planned as a scan of the business's rows (a subject edit of a lead among 300 long ones: 42 ms).
  const left = (bit: number) => `update lead_words set fields = fields & ~${bit}, weight = ${bestOf(`fields & ~${bit}`)}
      where ${key('old')} and word in (select word from (${was} except ${now}) where bit = ${bit});`;
  const came = (bit: number) => `update lead_words set fields = fields | ${bit}, weight = ${bestOf(`fields | ${bit}`)}
      where ${key('new')} and word in (select word from (${now} except ${was}) where bit = ${bit});`;
  const BITS = FIELDS.map(([bit]) => bit);
  await run(`create trigger lead_words_update after update of ${TEXT.join(', ')} on leads when ${changed} begin
    ${BITS.map(left).join('\n    ')}
    delete from lead_words where ${key('old')} and fields = 0 and word in (select word from (${was} except ${now}));
    insert into lead_words (${COLUMNS}) select new.business_pk, a.word, new.id, ${bestOf('sum(a.bit)')}, sum(a.bit), new.created_at, new.pipeline_id
      from (${now} except ${was}) a where not exists (select 1 from lead_words l where ${key('new', 'l.')} and l.word = a.word) group by a.word;
    ${BITS.map(came).join('\n    ')} end`);
  // A lead moved to another pipeline: its rows carry the new one (every word of the lead, by its key).
  await run(`create trigger lead_words_pipeline after update of pipeline_id on leads when old.pipeline_id is not new.pipeline_id and new.removed = 0 begin
    update lead_words set pipeline_id = new.pipeline_id where ${key('new')} and word in (select p.word from (${pairs(all('new'), 'true')}) p); end`);
}

/** A lead's rows by the key, its word aside (SQLite triggers: `old` or `new`). */
const key = (row: string, table = '') =>
  `${table}business_pk = ${row}.business_pk and ${ANY_WEIGHT(table)} and ${table}created_at = ${row}.created_at and ${table}lead_pk = ${row}.id`;
