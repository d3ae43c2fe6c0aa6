import { sql } from 'kysely';
import type { StoreKind } from './db.js';
import { businessOf, hasValue, type Fragment } from './lead-list-filters.js';
import { oneRange, type Term } from './lead-list-words.js';
import type { LeadListQuery, SortField } from './lead-lists.records.js';

/** A lead list's order, and the sort-index walk of a sorted one-word search. */

/** Sort fields to columns; the nullable ones sort their leads without a value last in both directions. */
export const SORT_COLUMNS: Record<SortField, { column: string; nullable: boolean }> = {
  createdAt: { column: 'leads.created_at', nullable: false },
  updatedAt: { column: 'leads.updated_at', nullable: false },
  followUpDate: { column: 'leads.follow_up_date', nullable: true },
  'budget.amount': { column: 'leads.budget_amount', nullable: true },
};

/** The most sort-index entries a walk for a sorted search reads before falling back to the join (~20 ms at most). */
const WALK_CAP = 20_000;

/** Relevance first when searching, then the sort sent (or the default), ties by leadId descending. */
export function orderBy(query: LeadListQuery): Fragment {
  const keys: Fragment[] = [];
  if (query.filter.words) keys.push(sql`hits.score desc`);
  const sort = query.sort.length > 0 ? [...query.sort] : [{ field: 'createdAt' as const, direction: -1 as const }];
  if (query.filter.words && !sort.some((s) => s.field === 'createdAt'))
    sort.push({ field: 'createdAt', direction: -1 });
  for (const { field, direction } of sort) {
    const { column, nullable } = SORT_COLUMNS[field];
    if (nullable) keys.push(sql`(${sql.ref(column)} is null)`);
    keys.push(sql`${sql.ref(column)} ${sql.raw(direction === 1 ? 'asc' : 'desc')}`);
  }
  keys.push(sql`leads.lead_id desc`);
  return sql.join(keys);
}
/**
 * One `q` or `subject` word (one stored word, nothing else) sorted by updatedAt, followUpDate or
 * budget.amount: when the word's best weight class holds the page, the page is that class's leads in
 * the sort's order, found by walking the sort's index (which carries createdAt and the row id) and
 * probing the word table by its whole key for each lead, stopping after the page (at 1,000,000 leads:
 * 407 probes, ~1 ms, where joining the 99,596 matches to the updatedAt index took ~350 ms, and ~310 ms
 * to the followUpDate or budget index). The walk reads at most WALK_CAP index entries, and for a
 * nullable sort only the leads with a value (those without sort last and are ordered by createdAt,
 * which this index does not give); a class too sparse for that (or smaller than the page) falls back
 * to the join. Leads tied with the walk's last value are all taken, as createdAt then leadId order
 * them and the index orders them by leadId.
 */
export function sortWalk(
  kind: StoreKind,
  urlKey: string,
  query: LeadListQuery,
  terms: Term[],
): { ctes: Fragment; page: Fragment; full: Fragment } | undefined {
  const others = Object.entries(query.filter).some(([key, value]) => key !== 'words' && value !== undefined);
  const term = oneRange(terms);
  const field = query.sort[0]?.field;
  if (others || !term || query.sort.length !== 1 || field === undefined || field === 'createdAt') return undefined;
  const { column, nullable } = SORT_COLUMNS[field];
  const bare = column.slice('leads.'.length);
  const name = sql.raw(bare);
  const up = query.sort[0]!.direction === 1;
  const dir = sql.raw(up ? 'asc' : 'desc');
  // The updatedAt index is (updated_at, lead_id), read either way; the nullable ones are
  // ((col is null), col asc|desc, lead_id desc), one per direction. SQLite matches that order only
  // without the `(col is null)` term (with it: a sort of the business's leads with a value, ~100 ms
  // at 100,000 leads); PostgreSQL only with it (its `= any(...)` key does not make the term constant).
  const walkOrder = !nullable
    ? sql`${name} ${dir}, lead_id ${dir}`
    : kind === 'postgres'
      ? sql`(${name} is null), ${name} ${dir}, lead_id desc`
      : sql`${name} ${dir}, lead_id desc`;
  // PostgreSQL folds `(col is null) = false` into `col is not null`, a key on the index's second
  // column rather than its first: an equality on the value then read the business's whole range
  // (budget: 11,029 buffers, ~30 ms at 1,000,000 leads); `= any(array[false])` is kept as a key on
  // the first column (3 buffers).
  const valued = (ref: string) =>
    kind === 'postgres' ? sql`(${sql.ref(ref)} is null) = any(array[false])` : hasValue(kind, ref, true);
  const withValue = nullable ? sql` and ${valued(bare)}` : sql``;
  const business = businessOf(urlKey);
  const inClass = (
    row: string,
  ) => sql`(select true from lead_words where business_pk = ${business} and word = ${term.stored}${term.where}
    and weight = (select weight from best_class) and created_at = ${sql.raw(row)}.created_at and lead_pk = ${sql.raw(row)}.id)`;
  const ctes = sql`best_class as materialized (select max(weight) as weight from lead_words where business_pk = ${business} and word = ${term.stored}${term.where}),
    walk as materialized (select l.id as lead_pk, l.${name} as sorted, l.created_at, l.lead_id from (select id, ${name}, created_at, lead_id from leads
        where business_pk = ${business} and removed = 0${withValue} order by ${walkOrder} limit ${WALK_CAP}) l
      where ${inClass('l')} limit ${query.limit + query.skip}),
    edge as materialized (select sorted from walk order by sorted ${sql.raw(up ? 'desc' : 'asc')} limit 1),
    picked as materialized (select * from walk union select l.id, l.${name}, l.created_at, l.lead_id from leads l
      where l.business_pk = ${business} and l.removed = 0${nullable ? sql` and ${valued(`l.${bare}`)}` : sql``}
        and l.${name} = (select sorted from edge) and ${inClass('l')})`;
  const full = sql`((select count(*) from walk) >= ${query.limit + query.skip})`;
  const total = sql`(select count(*) from lead_words where business_pk = ${business} and word = ${term.stored}${term.where})`;
  const page = sql`select * from (select p.lead_pk, (select weight from best_class) as score, ${total} as total from picked p where ${full}
    order by p.sorted ${dir}, p.created_at desc, p.lead_id desc limit ${query.limit} offset ${query.skip}) w`;
  return { ctes, page, full };
}
