import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { LeadListFilter, LeadListQuery, SortField } from './lead-lists.records.js';
import type { StoredLead } from './leads.records.js';
import type { StoreKind } from './db.js';
import { PLAN_PER_CALL } from './postgres-client.js';
import { canName } from './keys.js';
import { LEAD_COLUMNS, storedLeadOf, type LeadRow } from './lead-rows.js';
import { WORD_WEIGHTS } from '../validation/search-words.js';
import type { Database } from './schema.js';
import { syncPage, syncStatements, type SyncCursor, type SyncPageSpec } from './sync-pages.js';

export interface LeadListPage {
  leads: StoredLead[];
  /** Leads matching in all (null in sync mode). */
  total: number | null;
  /** Sync mode: the cursor after this page, null when none follows yet. */
  next: SyncCursor | null;
}

type Fragment = RawBuilder<unknown>;

/** Sort fields to columns; the nullable ones sort their leads without a value last in both directions. */
const SORT_COLUMNS: Record<SortField, { column: string; nullable: boolean }> = {
  createdAt: { column: 'leads.created_at', nullable: false },
  updatedAt: { column: 'leads.updated_at', nullable: false },
  followUpDate: { column: 'leads.follow_up_date', nullable: true },
  'budget.amount': { column: 'leads.budget_amount', nullable: true },
};

const SELECT = sql.raw(LEAD_COLUMNS.join(', '));

/** Filters the live counts of migration 006-lead-counts are kept by: a total filtered by these only is a sum of counts. */
export const COUNTED = new Set<keyof LeadListFilter>([
  'pipelineIds',
  'stageIds',
  'unstaged',
  'statusStageIds',
  'leadSourceKeys',
  'assigneeIds',
  'unassigned',
  'followUpNone',
]);

/**
 * Lead lists: filters, sorts, free-text search and sync pages, per business (docs/decisions.md "Lead lists").
 * Statements are composed from fixed fragments with every value bound; each shape is served by an
 * index of migration 003-leads-search (business first, removed leads outside the index).
 */
export class LeadListsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  async page(urlKey: string, query: LeadListQuery): Promise<LeadListPage> {
    const terms = query.filter.words ? await this.resolve(urlKey, query.filter.words) : [];
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
    const terms = query.filter.words ? await this.resolve(urlKey, query.filter.words) : [];
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
    const conditions = this.conditions(urlKey, query.filter);
    if (!conditions || terms.some((term) => term.stored === null)) return undefined;
    const from = query.filter.words
      ? sql`${hitsOf(
          urlKey,
          terms.map((term) => ({ ...term, several: true })),
          this.kind,
        )} hits join leads on leads.id = hits.lead_pk`
      : sql`leads`;
    return { kind: this.kind, alias: 'leads', key: 'lead_id', from, conditions, select: SELECT, limit: query.limit };
  }

  /**
   * The leads a filter matches, as a FROM and a WHERE (no order, no page), or undefined when it can
   * match nothing: aggregates over the list's own filters use it (lead-stage-totals.store.ts).
   */
  async matching(urlKey: string, filter: LeadListFilter): Promise<{ from: Fragment; where: Fragment } | undefined> {
    const terms = filter.words ? await this.resolve(urlKey, filter.words) : [];
    const conditions = this.conditions(urlKey, filter);
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

  /**
   * Each searched word with what the word table holds for it (migration 008-lead-words-best): no stored
   * word starts with it, exactly one does (then its rows are that word's key range, one per lead, as
   * they are), or several (their rows grouped by lead). Two key probes per word, in one statement, so
   * that the search itself is written for what it reads and planned on the word's own statistics.
   */
  private async resolve(urlKey: string, words: Words): Promise<Term[]> {
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
    const row = (await sql<Record<string, string | null>>`select ${sql.join(probes)}`.execute(this.db)).rows[0]!;
    return sent.map((term, i) => ({ ...term, stored: row[`f${i}`] ?? null, several: row[`n${i}`] != null }));
  }

  /** The page and the total (sync pages: syncSpec). */
  private statements(urlKey: string, query: LeadListQuery, terms: Term[]): Statements | undefined {
    const conditions = this.conditions(urlKey, query.filter);
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
    if (words && wordsOnly(query)) {
      const pipelines = query.filter.pipelineIds;
      const inPipelines = pipelines ? sql` and pipeline_id in (${sql.join(pipelines)})` : sql``;
      return this.wordsOnly(
        urlKey,
        query,
        terms.map((term) => ({ ...term, where: sql`${term.where}${inPipelines}` })),
      );
    }
    if (words) {
      // The matches joined to their leads once: the page's leads (narrow rows ranked, with their count) then read by row id.
      // Planned per call (PLAN_PER_CALL): a generic plan cannot tell a broad word from a rare one.
      const joined = sql`select hits.lead_pk, hits.score, count(*) over () as total from ${from}
          where ${where} order by ${this.order(query)} limit ${query.limit} offset ${query.skip}`;
      const walk = this.sortWalk(urlKey, query, terms);
      const ranked = walk
        ? sql`${walk.ctes}, ranked as materialized (${walk.page} union all select * from (${joined}) j where not ${walk.full})`
        : sql`ranked as materialized (${joined})`;
      const page = sql<LeadRow>`${sql.raw(PLAN_PER_CALL)}with ${ranked}
        select ${SELECT}, hits.total from ranked hits cross join leads where leads.id = hits.lead_pk order by ${this.order(query)}`;
      return {
        page,
        count: sql`${sql.raw(PLAN_PER_CALL)}${this.countStatement(urlKey, query.filter, from, where)}`,
        withTotal: true,
      };
    }
    return {
      page: sql<LeadRow>`select ${SELECT} from ${from} where ${where} order by ${this.order(query)} limit ${query.limit} offset ${query.skip}`,
      count: this.countStatement(urlKey, query.filter, from, where),
    };
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
  private wordsOnly(urlKey: string, query: LeadListQuery, terms: Term[]) {
    const direction = query.sort[0]?.direction === 1 ? sql.raw('asc') : sql.raw('desc');
    const reverse = query.sort[0]?.direction === 1 ? sql.raw('desc') : sql.raw('asc');
    const order = sql`order by score desc, created_at ${direction} limit ${query.limit + query.skip}`;
    // The page's leads by row id, one lookup each: both planners would otherwise read the leads' index
    // whole (a lateral subquery that cannot be flattened; SQLite's CROSS JOIN keeps its order).
    const leads =
      this.kind === 'postgres'
        ? sql`cross join lateral (select ${SELECT} from leads where leads.id = top.lead_pk offset 0) leads`
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
      ctes = sql`hits as materialized (select * from ${hitsOf(urlKey, terms, this.kind)} h),
        best as materialized (select * from hits ${order}),
        best_last as (select score, created_at from best order by score asc, created_at ${reverse} limit 1),
        top as materialized (select * from best union select h.* from hits h join best_last last on h.score = last.score and h.created_at = last.created_at)`;
      total = sql`(select count(*) from hits)`;
    }
    const page = sql<LeadRow>`with ${ctes} select ${SELECT}, ${total} as total from top ${leads}
      order by top.score desc, leads.created_at ${direction}, leads.lead_id desc limit ${query.limit} offset ${query.skip}`;
    return {
      page,
      count: sql<{
        total: number | string | null;
      }>`select count(*) as total from ${hitsOf(urlKey, terms, this.kind)} hits`,
      withTotal: true,
    };
  }

  /**
   * The total: a sum of live counts (migration 006-lead-counts) when the filter uses only what those
   * counts are kept by (COUNTED), or one tag's live count when one tag is the whole filter; otherwise a
   * count of the matching leads.
   */
  private countStatement(
    urlKey: string,
    f: LeadListFilter,
    from: Fragment,
    where: Fragment,
  ): RawBuilder<{ total: number | string | null }> {
    const sent = Object.entries(f)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key);
    if (sent.length === 1 && sent[0] === 'tagIds' && f.tagIds!.length === 1) {
      // One tag alone: its live count (migration 007-lead-words, lead_tag_counts).
      return sql`select coalesce(sum(live), 0) as total from lead_tag_counts where business_pk = ${businessOf(urlKey)} and tag_id = ${f.tagIds![0]}`;
    }
    const covered = sent.every((key) => COUNTED.has(key as keyof LeadListFilter));
    if (!covered) return sql`select count(*) as total from ${from} where ${where}`;
    const c = [sql`leads.business_pk = ${businessOf(urlKey)}`, ...this.countedConditions(f, true)];
    // Aliased `leads`: the conditions are the list's own, on the same column names.
    return sql`select coalesce(sum(leads.live), 0) as total from lead_counts leads where ${sql.join(c, sql` and `)}`;
  }

  /** Every condition of the filter, or undefined when one can match nothing (a status no stage carries). */
  private conditions(urlKey: string, f: LeadListFilter): Fragment[] | undefined {
    if (f.statusStageIds?.length === 0 || f.pipelineIds?.length === 0) return undefined;
    // A value PostgreSQL cannot hold (NUL, a lone surrogate) names no stored lead: empty, on both stores.
    const lookups = [f.externalId, f.clientId, f.contactId, f.contactName, f.contactEmail, f.contactPhone];
    if (!canName(urlKey, ...lookups.filter((v): v is string => v !== undefined))) return undefined;
    // `removed = 0` written as a constant, so that PostgreSQL matches the partial indexes.
    const business = businessOf(urlKey);
    const c: Fragment[] = [
      sql`leads.business_pk = ${business}`,
      sql`leads.removed = 0`,
      ...this.countedConditions(f, false),
    ];
    if (f.tagIds) {
      // Not correlated with the outer row, so that it is planned as one semi-join (a correlated one ran per lead).
      c.push(
        sql`leads.id in (select lead_tags.lead_pk from lead_tags where lead_tags.business_pk = ${business} and ${inList('lead_tags.tag_id', f.tagIds)})`,
      );
    }
    const equal: [keyof LeadListFilter, string][] = [
      ['externalId', 'external_id'],
      ['clientId', 'client_id'],
      ['contactId', 'contact_id'],
      ['contactName', 'contact_name'],
      ['contactEmail', 'contact_email'],
      ['contactPhone', 'contact_phone'],
    ];
    for (const [key, column] of equal) if (f[key] !== undefined) c.push(sql`${sql.ref(`leads.${column}`)} = ${f[key]}`);
    if (f.createdFrom !== undefined) c.push(sql`leads.created_at >= ${f.createdFrom}`);
    if (f.createdTo !== undefined) c.push(sql`leads.created_at <= ${f.createdTo}`);
    if (f.updatedFrom !== undefined) c.push(sql`leads.updated_at >= ${f.updatedFrom}`);
    const hasValue = (column: string, value: boolean) => this.hasValue(column, value);
    if (f.followUpFrom !== undefined || f.followUpTo !== undefined) c.push(hasValue('leads.follow_up_date', true));
    if (f.followUpFrom !== undefined) c.push(sql`leads.follow_up_date >= ${f.followUpFrom}`);
    if (f.followUpTo !== undefined) c.push(sql`leads.follow_up_date <= ${f.followUpTo}`);
    if (f.budgetMin !== undefined || f.budgetMax !== undefined) c.push(hasValue('leads.budget_amount', true));
    if (f.budgetMin !== undefined) c.push(sql`leads.budget_amount >= ${f.budgetMin}`);
    if (f.budgetMax !== undefined) c.push(sql`leads.budget_amount <= ${f.budgetMax}`);
    return c;
  }

  /**
   * The conditions on what the live counts are kept by (COUNTED), on the leads or on lead_counts, whose
   * columns have the same names but keep no source / no assignee as '' and no follow-up as a flag.
   */
  countedConditions(f: LeadListFilter, counts: boolean): Fragment[] {
    const c: Fragment[] = [];
    // Stage ids belong to the pipelines sent (UNSTAGED names them itself): the pipeline condition would
    // only send the stage index back to the table.
    if (f.pipelineIds && !f.stageIds && !f.unstaged) c.push(sql`leads.pipeline_id in (${sql.join(f.pipelineIds)})`);
    if (f.stageIds || f.unstaged) c.push(this.stageCondition(f));
    if (f.statusStageIds) c.push(sql`leads.stage_id in (${sql.join(f.statusStageIds)})`);
    if (f.leadSourceKeys) c.push(inList('leads.lead_source_key', f.leadSourceKeys));
    if (f.assigneeIds || f.unassigned) {
      const nobody = counts ? sql`leads.assignee_id = ''` : sql`leads.assignee_id is null`;
      const parts = [
        ...(f.assigneeIds?.length ? [inList('leads.assignee_id', f.assigneeIds)] : []),
        ...(f.unassigned ? [nobody] : []),
      ];
      c.push(sql`(${sql.join(parts, sql` or `)})`);
    }
    if (f.followUpNone) c.push(counts ? sql`leads.no_follow_up = 1` : this.hasValue('leads.follow_up_date', false));
    return c;
  }

  /**
   * The nullable columns' indexes lead with `(col is null)`: saying its value lets a range or `none`
   * use the index past the business (a bare `col >= x` would read the business's whole index).
   */
  private hasValue(column: string, value: boolean): Fragment {
    return sql`(${sql.ref(column)} is null) = ${sql.raw(this.kind === 'postgres' ? String(!value) : value ? '0' : '1')}`;
  }

  /** Named stages, or UNSTAGED: a lead of the pipeline whose stage is no longer in its configuration. */
  private stageCondition(f: LeadListFilter): Fragment {
    const parts: Fragment[] = [];
    if (f.stageIds?.length) parts.push(sql`leads.stage_id in (${sql.join(f.stageIds)})`);
    if (f.unstaged) {
      const known = f.unstaged.knownStageIds;
      parts.push(
        sql`(leads.pipeline_id in (${sql.join(f.unstaged.pipelineIds)})${known.length ? sql` and leads.stage_id not in (${sql.join(known)})` : sql``})`,
      );
    }
    return sql`(${sql.join(parts, sql` or `)})`;
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
  private sortWalk(
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
      : this.kind === 'postgres'
        ? sql`(${name} is null), ${name} ${dir}, lead_id desc`
        : sql`${name} ${dir}, lead_id desc`;
    // PostgreSQL folds `(col is null) = false` into `col is not null`, a key on the index's second
    // column rather than its first: an equality on the value then read the business's whole range
    // (budget: 11,029 buffers, ~30 ms at 1,000,000 leads); `= any(array[false])` is kept as a key on
    // the first column (3 buffers).
    const valued = (ref: string) =>
      this.kind === 'postgres' ? sql`(${sql.ref(ref)} is null) = any(array[false])` : this.hasValue(ref, true);
    const hasValue = nullable ? sql` and ${valued(bare)}` : sql``;
    const business = businessOf(urlKey);
    const inClass = (
      row: string,
    ) => sql`(select true from lead_words where business_pk = ${business} and word = ${term.stored}${term.where}
      and weight = (select weight from best_class) and created_at = ${sql.raw(row)}.created_at and lead_pk = ${sql.raw(row)}.id)`;
    const ctes = sql`best_class as materialized (select max(weight) as weight from lead_words where business_pk = ${business} and word = ${term.stored}${term.where}),
      walk as materialized (select l.id as lead_pk, l.${name} as sorted, l.created_at, l.lead_id from (select id, ${name}, created_at, lead_id from leads
          where business_pk = ${business} and removed = 0${hasValue} order by ${walkOrder} limit ${WALK_CAP}) l
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

  /** Relevance first when searching, then the sort sent (or the default), ties by leadId descending. */
  private order(query: LeadListQuery): Fragment {
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
}

const inList = (column: string, values: readonly unknown[]): Fragment =>
  sql`${sql.ref(column)} in (${sql.join(values)})`;

const businessOf = (urlKey: string): Fragment => sql`(select id from businesses where url_key = ${urlKey})`;

type Words = NonNullable<LeadListFilter['words']>;

interface Statements {
  page: RawBuilder<LeadRow>;
  /** Outside sync. */
  count?: RawBuilder<{ total: number | string | null }>;
  /** The page's rows carry `total`: count only when a page past the last match has none. */
  withTotal?: boolean;
}

/** The most sort-index entries a walk for a sorted search reads before falling back to the join (~20 ms at most). */
const WALK_CAP = 20_000;

/**
 * The search's one term when it is one stored word's key range as it is (a `q` or `subject` word that
 * no other stored word extends): one row per lead, already in relevance order. A `details` word's
 * rows are those of weight 2 and of weight 3 with the details' bit, so they are gathered instead.
 */
function oneRange(terms: Term[]): Term | undefined {
  const [term] = terms;
  return terms.length === 1 && !term!.several && term!.field !== 'details' ? term : undefined;
}

/** Above every character: `word < p || TOP` bounds the words starting with p, bytewise on both stores. */
const TOP = '\u{10FFFF}';

/** Free text alone or with pipelines only, sorted by createdAt or not at all: the word table can answer it by itself. */
function wordsOnly(query: LeadListQuery): boolean {
  // The word table's rows carry their lead's pipeline (migration 008-lead-words-best).
  const others = Object.entries(query.filter).some(
    ([key, value]) => key !== 'words' && key !== 'pipelineIds' && value !== undefined,
  );
  return !others && (query.sort.length === 0 || (query.sort.length === 1 && query.sort[0]!.field === 'createdAt'));
}

/**
 * The leads matching every word, from the word table (migrations 007-lead-words, 008-lead-words-best):
 * `(lead_pk, created_at, score)`, the score a sum over the words of the best field weight each is found
 * in. A `q` word matches any field and scores the row's best weight; a `subject` or `details` word only
 * rows whose fields hold that field, and scores the field's weight. Each is a prefix.
 */
function hitsOf(urlKey: string, terms: Term[], kind: StoreKind): Fragment {
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

/** A searched word, resolved against the word table (LeadListsStore.resolve). */
interface Term {
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
function termRows(urlKey: string, { word, where, score, stored, several }: Term, extra: Fragment = sql``): Fragment {
  if (!several) {
    return sql`select lead_pk, created_at, ${score} as score from lead_words where business_pk = ${businessOf(urlKey)} and word = ${stored}${where}${extra}`;
  }
  return sql`select lead_pk, max(created_at) as created_at, max(${score}) as score from lead_words
    where business_pk = ${businessOf(urlKey)} and word >= ${word} and word < ${word + TOP}${where} group by lead_pk`;
}
