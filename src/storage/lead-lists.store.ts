import { sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import { countStatement, filterConditions, type Fragment } from './lead-list-filters.js';
import { orderBy, sortWalk } from './lead-list-sort.js';
import {
  answeredByWords,
  hitsOf,
  resolveWords,
  wordsOnlyStatements,
  type ListStatements,
  type Term,
} from './lead-list-words.js';
import type { LeadListFilter, LeadListQuery } from './lead-lists.records.js';
import { LEAD_SELECT, storedLeadOf, type LeadRow } from './lead-rows.js';
import type { StoredLead } from './leads.records.js';
import { PLAN_PER_CALL } from './postgres-client.js';
import type { Database } from './schema.js';
import { syncPage, syncStatements, type SyncCursor, type SyncPageSpec } from './sync-pages.js';

export interface LeadListPage {
  leads: StoredLead[];
  /** Leads matching in all (null in sync mode). */
  total: number | null;
  /** Sync mode: the cursor after this page, null when none follows yet. */
  next: SyncCursor | null;
}

/**
 * Lead lists: filters, sorts, free-text search and sync pages, per business (docs/decisions.md "Lead lists").
 * Statements are composed from fixed fragments with every value bound; each shape is served by an
 * index of migration 003-leads-search (business first, removed leads outside the index). The filter's
 * conditions and totals are in lead-list-filters.ts, the word search in lead-list-words.ts, the order
 * and the sort-index walk in lead-list-sort.ts; this class chooses the statements and runs them.
 */
export class LeadListsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  async page(urlKey: string, query: LeadListQuery): Promise<LeadListPage> {
    const terms = query.filter.words ? await resolveWords(this.db, urlKey, query.filter.words) : [];
    if (query.sync) {
      const spec = this.syncSpec(urlKey, query, terms);
      if (!spec) return { leads: [], total: null, next: null };
      const { rows, next } = await syncPage<LeadRow>(this.db, spec, query.sync.cursor);
      return { leads: rows.map(storedLeadOf), total: null, next };
    }
    const statements = this.statements(urlKey, query, terms);
    if (!statements) return { leads: [], total: 0, next: null };
    if (statements.withTotal) {
      // Free text: the page carries its total (the matches are gathered once); past the last match only, count again.
      const rows = await statements.page.execute(this.db);
      const first = rows.rows[0] as (LeadRow & { total?: number | string }) | undefined;
      const total = first
        ? first.total
        : query.skip === 0
          ? 0
          : (await statements.count!.execute(this.db)).rows[0]?.total;
      return { leads: rows.rows.map(storedLeadOf), total: Number(total ?? 0), next: null };
    }
    const [rows, count] = await Promise.all([statements.page.execute(this.db), statements.count!.execute(this.db)]);
    return { leads: rows.rows.map(storedLeadOf), total: Number(count.rows[0]?.total ?? 0), next: null };
  }

  /** The statements behind page() without running them (page, and count outside sync; both phases of a sync), for the plan checks of the tests. */
  async compile(urlKey: string, query: LeadListQuery): Promise<{ sql: string; parameters: readonly unknown[] }[]> {
    const terms = query.filter.words ? await resolveWords(this.db, urlKey, query.filter.words) : [];
    if (query.sync) {
      const spec = this.syncSpec(urlKey, query, terms);
      return spec ? syncStatements(spec, query.sync.cursor).map((statement) => statement.compile(this.db)) : [];
    }
    const statements = this.statements(urlKey, query, terms);
    if (!statements) return [];
    return [statements.page.compile(this.db), ...(statements.count ? [statements.count.compile(this.db)] : [])];
  }

  /** A sync page's parts (src/storage/sync-pages.ts): the live leads matching the filter, words included. */
  private syncSpec(urlKey: string, query: LeadListQuery, terms: Term[]): SyncPageSpec | undefined {
    const conditions = filterConditions(this.kind, urlKey, query.filter);
    if (!conditions || terms.some((term) => term.stored === null)) return undefined;
    const from = query.filter.words
      ? sql`${hitsOf(
          urlKey,
          terms.map((term) => ({ ...term, several: true })),
          this.kind,
        )} hits join leads on leads.id = hits.lead_pk`
      : sql`leads`;
    return {
      kind: this.kind,
      alias: 'leads',
      key: 'lead_id',
      from,
      conditions,
      select: LEAD_SELECT,
      limit: query.limit,
    };
  }

  /**
   * The leads a filter matches, as a FROM and a WHERE (no order, no page), or undefined when it can
   * match nothing: aggregates over the list's own filters use it (lead-stage-totals.store.ts).
   */
  async matching(urlKey: string, filter: LeadListFilter): Promise<{ from: Fragment; where: Fragment } | undefined> {
    const terms = filter.words ? await resolveWords(this.db, urlKey, filter.words) : [];
    const conditions = filterConditions(this.kind, urlKey, filter);
    if (!conditions || terms.some((term) => term.stored === null)) return undefined;
    const hits = hitsOf(
      urlKey,
      terms.map((term) => ({ ...term, several: true })),
      this.kind,
    );
    return {
      from: filter.words ? sql`${hits} hits join leads on leads.id = hits.lead_pk` : sql`leads`,
      where: sql.join(conditions, sql` and `),
    };
  }

  /** The page and the total (sync pages: syncSpec). */
  private statements(urlKey: string, query: LeadListQuery, terms: Term[]): ListStatements | undefined {
    const conditions = filterConditions(this.kind, urlKey, query.filter);
    if (!conditions) return undefined;
    const words = query.filter.words;
    // A word no stored word starts with: nothing matches.
    if (terms.some((term) => term.stored === null)) return undefined;
    // Joined to the leads (another filter, a sort, sync), each word's rows are grouped by lead even when
    // they are one stored word's: on the plain range PostgreSQL's estimate for a broad word let it read
    // the matches' lead rows by row id (100,000 at 1,000,000 leads: q + $sort 690 ms p50) where the
    // grouped form keeps the hash join with the filter's or sort's index (index-only).
    const from = words
      ? sql`${hitsOf(
          urlKey,
          terms.map((term) => ({ ...term, several: true })),
          this.kind,
        )} hits join leads on leads.id = hits.lead_pk`
      : sql`leads`;
    const where = sql.join(conditions, sql` and `);
    if (words && answeredByWords(query)) {
      const pipelines = query.filter.pipelineIds;
      const inPipelines = pipelines ? sql` and pipeline_id in (${sql.join(pipelines)})` : sql``;
      return wordsOnlyStatements(
        this.kind,
        urlKey,
        query,
        terms.map((term) => ({ ...term, where: sql`${term.where}${inPipelines}` })),
      );
    }
    if (words) {
      // The matches joined to their leads once: the page's leads (narrow rows ranked, with their count) then read by row id.
      // Planned per call (PLAN_PER_CALL): a generic plan cannot tell a broad word from a rare one.
      const joined = sql`select hits.lead_pk, hits.score, count(*) over () as total from ${from}
          where ${where} order by ${orderBy(query)} limit ${query.limit} offset ${query.skip}`;
      const walk = sortWalk(this.kind, urlKey, query, terms);
      const ranked = walk
        ? sql`${walk.ctes}, ranked as materialized (${walk.page} union all select * from (${joined}) j where not ${walk.full})`
        : sql`ranked as materialized (${joined})`;
      const page = sql<LeadRow>`${sql.raw(PLAN_PER_CALL)}with ${ranked}
        select ${LEAD_SELECT}, hits.total from ranked hits cross join leads where leads.id = hits.lead_pk order by ${orderBy(query)}`;
      return {
        page,
        count: sql`${sql.raw(PLAN_PER_CALL)}${countStatement(this.kind, urlKey, query.filter, from, where)}`,
        withTotal: true,
      };
    }
    return {
      page: sql<LeadRow>`select ${LEAD_SELECT} from ${from} where ${where} order by ${orderBy(query)} limit ${query.limit} offset ${query.skip}`,
      count: countStatement(this.kind, urlKey, query.filter, from, where),
    };
  }
}
