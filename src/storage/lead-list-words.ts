import { sql, type Kysely, type RawBuilder } from 'kysely';
import { WORD_WEIGHTS } from '../validation/search-words.js';
import type { StoreKind } from './db.js';
import { businessOf, type Fragment } from './lead-list-filters.js';
import type { LeadListFilter, LeadListQuery } from './lead-lists.records.js';
import { LEAD_SELECT, type LeadRow } from './lead-rows.js';
import type { Database } from './schema.js';

/** Free-text search in lead lists: the word table (migrations 007-lead-words, 008-lead-words-best). */

export type Words = NonNullable<LeadListFilter['words']>;

/** A list's statements: its page, and its total. */
export interface ListStatements {
  page: RawBuilder<LeadRow>;
  /** Outside sync. */
  count?: RawBuilder<{ total: number | string | null }>;
  /** The page's rows carry `total`: count only when a page past the last match has none. */
  withTotal?: boolean;
}

/** Above every character: `word < p || TOP` bounds the words starting with p, bytewise on both stores. */
const TOP = '\u{10FFFF}';

/**
 * Each searched word with what the word table holds for it (migration 008-lead-words-best): no stored
 * word starts with it, exactly one does (then its rows are that word's key range, one per lead, as
 * they are), or several (their rows grouped by lead). Two key probes per word, in one statement, so
 * that the search itself is written for what it reads and planned on the word's own statistics.
 */
export async function resolveWords(db: Kysely<Database>, urlKey: string, words: Words): Promise<Term[]> {
  const { subject, details } = WORD_WEIGHTS;
  const sent: Omit<Term, 'stored' | 'several'>[] = [
    ...words.any.map((word) => ({ word, field: 'any' as const, where: sql``, score: sql`weight` })),
    // A row's weight is its best field: a subject word is weight 3 exactly; a details word weight 2,
    // or 3 with the details' bit.
    ...words.subject.map((word) => ({
      word,
      field: 'subject' as const,
      where: sql` and weight = ${sql.lit(subject)}`,
      score: sql.lit(subject),
    })),
    ...words.details.map((word) => ({
      word,
      field: 'details' as const,
      where: sql` and weight >= ${sql.lit(details)} and fields & ${sql.lit(1 << (details - 1))} <> 0`,
      score: sql.lit(details),
    })),
  ];
  const business = businessOf(urlKey);
  const first = (word: string) =>
    sql`(select word from lead_words where business_pk = ${business} and word >= ${word} and word < ${word + TOP} order by word limit 1)`;
  const probes = sent.map(
    ({ word }, i) => sql`${first(word)} as ${sql.raw(`f${i}`)},
    (select word from lead_words where business_pk = ${business} and word > ${first(word)} and word < ${word + TOP} order by word limit 1) as ${sql.raw(`n${i}`)}`,
  );
  const row = (await sql<Record<string, string | null>>`select ${sql.join(probes)}`.execute(db)).rows[0]!;
  return sent.map((term, i) => ({ ...term, stored: row[`f${i}`] ?? null, several: row[`n${i}`] != null }));
}

/**
 * The search's one term when it is one stored word's key range as it is (a `q` or `subject` word that
 * no other stored word extends): one row per lead, already in relevance order. A `details` word's
 * rows are those of weight 2 and of weight 3 with the details' bit, so they are gathered instead.
 */
export function oneRange(terms: Term[]): Term | undefined {
  const [term] = terms;
  return terms.length === 1 && !term!.several && term!.field !== 'details' ? term : undefined;
}

/** Free text alone or with pipelines only, sorted by createdAt or not at all: the word table can answer it by itself. */
export function answeredByWords(query: LeadListQuery): boolean {
  // The word table's rows carry their lead's pipeline (migration 008-lead-words-best).
  const others = Object.entries(query.filter).some(
    ([key, value]) => key !== 'words' && key !== 'pipelineIds' && value !== undefined,
  );
  return !others && (query.sort.length === 0 || (query.sort.length === 1 && query.sort[0]!.field === 'createdAt'));
}

/**
 * Free text alone, in the default order (or createdAt ascending): answered from the word table
 * (migrations 007-lead-words, 008-lead-words-best) without reading a lead but the page's. The total
 * counts the matching leads' rows; the page takes the best (score, createdAt) down to the page's last
 * one (ties at that edge included, as leadId breaks them), then reads those leads only. One word's
 * range, read backwards, is already in that order (relevance, then createdAt descending): its page
 * stops after its own rows and its total is a count of the range, each a read of the range of its own
 * rather than of one gathered set. Several words are joined once (materialized), as a details word's
 * rows are gathered once, and read three times.
 */
export function wordsOnlyStatements(
  kind: StoreKind,
  urlKey: string,
  query: LeadListQuery,
  terms: Term[],
): ListStatements {
  const direction = query.sort[0]?.direction === 1 ? sql.raw('asc') : sql.raw('desc');
  const reverse = query.sort[0]?.direction === 1 ? sql.raw('desc') : sql.raw('asc');
  const order = sql`order by score desc, created_at ${direction} limit ${query.limit + query.skip}`;
  // The page's leads by row id, one lookup each: both planners would otherwise read the leads' index
  // whole (a lateral subquery that cannot be flattened; SQLite's CROSS JOIN keeps its order).
  const leads =
    kind === 'postgres'
      ? sql`cross join lateral (select ${LEAD_SELECT} from leads where leads.id = top.lead_pk offset 0) leads`
      : sql`cross join leads where leads.id = top.lead_pk`;
  // The best (relevance, createdAt) down to the page's last place, then every match tied with that last
  // place (leadId orders those, and the bound may have cut some). One `q` or `subject` word that is one
  // stored word: its range read backwards is in that order, so the page stops after its own rows, the
  // ties are one key prefix and the total a count of the range. Otherwise the matches are gathered
  // once (several words joined, a prefix of several words grouped by lead, or a details word's rows of
  // weight 2 and 3, those of weight 3 without the details' bit dropped) and read three times.
  const one = oneRange(terms);
  let ctes: Fragment;
  let total: Fragment;
  if (one) {
    const rows = (extra: Fragment = sql``) => termRows(urlKey, one, extra);
    ctes = sql`best as materialized (${rows()} ${order}),
      best_last as materialized (select score, created_at from best order by score asc, created_at ${reverse} limit 1),
      top as materialized (select * from best union ${rows(sql` and ${one.score} = (select score from best_last) and created_at = (select created_at from best_last)`)})`;
    total = sql`(select count(*) from (${rows()}) h)`;
  } else {
    ctes = sql`hits as materialized (select * from ${hitsOf(urlKey, terms, kind)} h),
      best as materialized (select * from hits ${order}),
      best_last as (select score, created_at from best order by score asc, created_at ${reverse} limit 1),
      top as materialized (select * from best union select h.* from hits h join best_last last on h.score = last.score and h.created_at = last.created_at)`;
    total = sql`(select count(*) from hits)`;
  }
  const page = sql<LeadRow>`with ${ctes} select ${LEAD_SELECT}, ${total} as total from top ${leads}
    order by top.score desc, leads.created_at ${direction}, leads.lead_id desc limit ${query.limit} offset ${query.skip}`;
  return {
    page,
    count: sql<{
      total: number | string | null;
    }>`select count(*) as total from ${hitsOf(urlKey, terms, kind)} hits`,
    withTotal: true,
  };
}

/**
 * The leads matching every word, from the word table (migrations 007-lead-words, 008-lead-words-best):
 * `(lead_pk, created_at, score)`, the score a sum over the words of the best field weight each is found
 * in. A `q` word matches any field and scores the row's best weight; a `subject` or `details` word only
 * rows whose fields hold that field, and scores the field's weight. Each is a prefix.
 */
export function hitsOf(urlKey: string, terms: Term[], kind: StoreKind): Fragment {
  // SQLite joins by nested loops: a later word's rows are found by their whole key, the lead's createdAt
  // and every weight included (one seek per weight); on the word alone it read the word's whole range
  // for each lead of the first (two words at 100,000 leads: minutes). PostgreSQL hashes the two ranges.
  const byKey = kind === 'sqlite';
  const sources = terms.map((term, i) =>
    termRows(urlKey, term, byKey && i > 0 && !term.several ? sql` and weight in (1, 2, 3)` : sql``),
  );
  if (sources.length === 1) return sql`(${sources[0]!})`;
  // A lead needs every word: the terms' leads joined on the lead, their scores added.
  const score = sql.join(
    sources.map((_, i) => sql.raw(`t${i}.score`)),
    sql` + `,
  );
  const joined = sources
    .slice(1)
    .map(
      (source, i) =>
        sql`join (${source}) ${sql.raw(`t${i + 1}`)} on ${sql.raw(`t${i + 1}.lead_pk = t0.lead_pk${byKey ? ` and t${i + 1}.created_at = t0.created_at` : ''}`)}`,
    );
  return sql`(select t0.lead_pk, t0.created_at, ${score} as score from (${sources[0]!}) t0 ${sql.join(joined, sql` `)})`;
}

/** A searched word, resolved against the word table (resolveWords). */
export interface Term {
  /** As sent (a prefix). */
  word: string;
  /** The parameter it came in: `q` (any field), `subject` or `details`. */
  field: 'any' | 'subject' | 'details';
  /** The rows a `subject` or `details` word may match (empty: any field). */
  where: Fragment;
  /** The term's score on a row: its best weight, or its field's. */
  score: Fragment;
  /** The first stored word it starts, or null (none: nothing matches). */
  stored: string | null;
  /** Whether it starts several stored words. */
  several: boolean;
}

/**
 * One term's matching leads, one row each: the stored word's own key range (one row per lead; `extra`
 * narrows it), or, for a prefix of several words, their range grouped by lead.
 */
export function termRows(
  urlKey: string,
  { word, where, score, stored, several }: Term,
  extra: Fragment = sql``,
): Fragment {
  if (!several) {
    return sql`select lead_pk, created_at, ${score} as score from lead_words where business_pk = ${businessOf(urlKey)} and word = ${stored}${where}${extra}`;
  }
  return sql`select lead_pk, max(created_at) as created_at, max(${score}) as score from lead_words
    where business_pk = ${businessOf(urlKey)} and word >= ${word} and word < ${word + TOP}${where} group by lead_pk`;
}
