import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { LeadListFilter, LeadListQuery, SortField } from '../leads/lead-list.types.js';
import type { StoredLead } from '../leads/lead.types.js';
import type { StoreKind } from './db.js';
import { canName } from './keys.js';
import { LEAD_COLUMNS, storedLeadOf, type LeadRow } from './lead-rows.js';
import { WORD_WEIGHTS } from '../validation/search-words.js';
import type { Database } from './schema.js';

export interface LeadListPage {
  leads: StoredLead[];
  /** Leads matching in all (null in sync mode). */
  total: number | null;
  /** Sync mode: whether another page follows. */
  more: boolean;
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

/** Filters the live counts of migration 005-lead-counts are kept by: a total filtered by these only is a sum of counts. */
const COUNTED = new Set<keyof LeadListFilter>(['pipelineIds', 'stageIds', 'unstaged', 'statusStageIds', 'leadSourceKeys', 'assigneeIds', 'unassigned', 'followUpNone']);

/**
 * Lead lists: filters, sorts, free-text search and sync pages, per business (leads-interface 4.4).
 * Statements are composed from fixed fragments with every value bound; each shape is served by an
 * index of migration 002-leads-search (business first, removed leads outside the index).
 */
export class LeadListsStore {
  constructor(readonly db: Kysely<Database>, readonly kind: StoreKind) {}

  async page(urlKey: string, query: LeadListQuery): Promise<LeadListPage> {
    const statements = this.statements(urlKey, query);
    if (!statements) return { leads: [], total: query.sync ? null : 0, more: false };
    if (query.sync) {
      const rows = await statements.page.execute(this.db);
      return { leads: rows.rows.slice(0, query.limit).map(storedLeadOf), total: null, more: rows.rows.length > query.limit };
    }
    if (statements.withTotal) {
      // Free text: the page carries its total (the matches are gathered once); past the last match only, count again.
      const rows = await statements.page.execute(this.db);
      const first = rows.rows[0] as (LeadRow & { total?: number | string }) | undefined;
      const total = first ? first.total : query.skip === 0 ? 0 : (await statements.count!.execute(this.db)).rows[0]?.total;
      return { leads: rows.rows.map(storedLeadOf), total: Number(total ?? 0), more: false };
    }
    const [rows, count] = await Promise.all([statements.page.execute(this.db), statements.count!.execute(this.db)]);
    return { leads: rows.rows.map(storedLeadOf), total: Number(count.rows[0]?.total ?? 0), more: false };
  }

  /** The statements behind page() without running them (page, and count outside sync), for the plan checks of the tests. */
  compile(urlKey: string, query: LeadListQuery): { sql: string; parameters: readonly unknown[] }[] {
    const statements = this.statements(urlKey, query);
    if (!statements) return [];
    return [statements.page.compile(this.db), ...(statements.count ? [statements.count.compile(this.db)] : [])];
  }

  /** The page (one row more in sync mode, to tell whether another follows) and, outside sync, the total. */
  private statements(urlKey: string, query: LeadListQuery): Statements | undefined {
    const conditions = this.conditions(urlKey, query.filter);
    if (!conditions) return undefined;
    const words = query.filter.words;
    const from = words ? sql`${hitsOf(urlKey, words)} hits join leads on leads.id = hits.lead_pk` : sql`leads`;
    if (query.sync) {
      const after = query.sync.after;
      if (after) conditions.push(sql`(leads.updated_at, leads.lead_id) > (${after.updatedAt}, ${after.leadId})`);
      return { page: sql<LeadRow>`select ${SELECT} from ${from} where ${sql.join(conditions, sql` and `)}
        order by leads.updated_at asc, leads.lead_id asc limit ${query.limit + 1}` };
    }
    const where = sql.join(conditions, sql` and `);
    if (words && wordsOnly(query)) return this.wordsOnly(urlKey, query, words);
    if (words) {
      // The matches joined to their leads once: the page's leads (narrow rows ranked, with their count) then read by row id.
      const page = sql<LeadRow>`with ranked as materialized (select hits.lead_pk, hits.score, count(*) over () as total from ${from}
          where ${where} order by ${this.order(query)} limit ${query.limit} offset ${query.skip})
        select ${SELECT}, hits.total from ranked hits cross join leads where leads.id = hits.lead_pk order by ${this.order(query)}`;
      return { page, count: this.countStatement(urlKey, query.filter, from, where), withTotal: true };
    }
    return {
      page: sql<LeadRow>`select ${SELECT} from ${from} where ${where} order by ${this.order(query)} limit ${query.limit} offset ${query.skip}`,
      count: this.countStatement(urlKey, query.filter, from, where),
    };
  }

  /**
   * Free text alone, in the default order (or createdAt ascending): answered from the word table
   * (migration 006-lead-words) without reading a lead but the page's. The total counts the matching
   * leads' entries; the page takes the best (score, createdAt) down to the page's last one (ties at
   * that edge included, as leadId breaks them), then reads those leads only.
   */
  private wordsOnly(urlKey: string, query: LeadListQuery, words: Words) {
    const hits = hitsOf(urlKey, words);
    const direction = query.sort[0]?.direction === 1 ? sql.raw('asc') : sql.raw('desc');
    // The page's leads by row id, one lookup each: both planners would otherwise read the leads' index
    // whole (a lateral subquery that cannot be flattened; SQLite's CROSS JOIN keeps its order).
    const leads = this.kind === 'postgres'
      ? sql`cross join lateral (select ${SELECT} from leads where leads.id = top.lead_pk offset 0) leads`
      : sql`cross join leads where leads.id = top.lead_pk`;
    // The best (relevance, createdAt) down to the page's last place (a bounded sort), then every match tied
    // with that last place: leadId orders those, and the bounded sort may have cut some.
    const reverse = query.sort[0]?.direction === 1 ? sql.raw('desc') : sql.raw('asc');
    const page = sql<LeadRow>`with hits as materialized (select * from ${hits} h),
      best as materialized (select * from hits order by score desc, created_at ${direction} limit ${query.limit + query.skip}),
      best_last as (select score, created_at from best order by score asc, created_at ${reverse} limit 1),
      top as materialized (select * from best union select hits.* from hits join best_last last on hits.score = last.score and hits.created_at = last.created_at)
      select ${SELECT}, (select count(*) from hits) as total from top ${leads}
      order by top.score desc, leads.created_at ${direction}, leads.lead_id desc limit ${query.limit} offset ${query.skip}`;
    return { page, count: sql<{ total: number | string | null }>`select count(*) as total from ${hits} hits`, withTotal: true };
  }

  /**
   * The total: a sum of live counts (migration 005-lead-counts) when the filter uses only what those
   * counts are kept by (COUNTED), or one tag's live count when one tag is the whole filter; otherwise a
   * count of the matching leads.
   */
  private countStatement(urlKey: string, f: LeadListFilter, from: Fragment, where: Fragment): RawBuilder<{ total: number | string | null }> {
    const sent = Object.entries(f).filter(([, value]) => value !== undefined).map(([key]) => key);
    if (sent.length === 1 && sent[0] === 'tagIds' && f.tagIds!.length === 1) {
      // One tag alone: its live count (migration 006-lead-words, lead_tag_counts).
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
    const c: Fragment[] = [sql`leads.business_pk = ${business}`, sql`leads.removed = 0`, ...this.countedConditions(f, false)];
    if (f.tagIds) {
      // Not correlated with the outer row, so that it is planned as one semi-join (a correlated one ran per lead).
      c.push(sql`leads.id in (select lead_tags.lead_pk from lead_tags where lead_tags.business_pk = ${business} and ${inList('lead_tags.tag_id', f.tagIds)})`);
    }
    const equal: [keyof LeadListFilter, string][] = [['externalId', 'external_id'], ['clientId', 'client_id'], ['contactId', 'contact_id'],
      ['contactName', 'contact_name'], ['contactEmail', 'contact_email'], ['contactPhone', 'contact_phone']];
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
  private countedConditions(f: LeadListFilter, counts: boolean): Fragment[] {
    const c: Fragment[] = [];
    // Stage ids belong to the pipelines sent (UNSTAGED names them itself): the pipeline condition would
    // only send the stage index back to the table.
    if (f.pipelineIds && !f.stageIds && !f.unstaged) c.push(sql`leads.pipeline_id in (${sql.join(f.pipelineIds)})`);
    if (f.stageIds || f.unstaged) c.push(this.stageCondition(f));
    if (f.statusStageIds) c.push(sql`leads.stage_id in (${sql.join(f.statusStageIds)})`);
    if (f.leadSourceKeys) c.push(inList('leads.lead_source_key', f.leadSourceKeys));
    if (f.assigneeIds || f.unassigned) {
      const nobody = counts ? sql`leads.assignee_id = ''` : sql`leads.assignee_id is null`;
      const parts = [...(f.assigneeIds?.length ? [inList('leads.assignee_id', f.assigneeIds)] : []), ...(f.unassigned ? [nobody] : [])];
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
      parts.push(sql`(leads.pipeline_id in (${sql.join(f.unstaged.pipelineIds)})${known.length ? sql` and leads.stage_id not in (${sql.join(known)})` : sql``})`);
    }
    return sql`(${sql.join(parts, sql` or `)})`;
  }

  /** Relevance first when searching, then the sort sent (or the default), ties by leadId descending. */
  private order(query: LeadListQuery): Fragment {
    const keys: Fragment[] = [];
    if (query.filter.words) keys.push(sql`hits.score desc`);
    const sort = query.sort.length > 0 ? [...query.sort] : [{ field: 'createdAt' as const, direction: -1 as const }];
    if (query.filter.words && !sort.some((s) => s.field === 'createdAt')) sort.push({ field: 'createdAt', direction: -1 });
    for (const { field, direction } of sort) {
      const { column, nullable } = SORT_COLUMNS[field];
      if (nullable) keys.push(sql`(${sql.ref(column)} is null)`);
      keys.push(sql`${sql.ref(column)} ${sql.raw(direction === 1 ? 'asc' : 'desc')}`);
    }
    keys.push(sql`leads.lead_id desc`);
    return sql.join(keys);
  }
}

const inList = (column: string, values: readonly unknown[]): Fragment => sql`${sql.ref(column)} in (${sql.join(values)})`;

const businessOf = (urlKey: string): Fragment => sql`(select id from businesses where url_key = ${urlKey})`;

type Words = NonNullable<LeadListFilter['words']>;

interface Statements {
  page: RawBuilder<LeadRow>;
  /** Outside sync. */
  count?: RawBuilder<{ total: number | string | null }>;
  /** The page's rows carry `total`: count only when a page past the last match has none. */
  withTotal?: boolean;
}

/** Above every character: `word < p || TOP` bounds the words starting with p, bytewise on both stores. */
const TOP = '\u{10FFFF}';

/** Free text alone, sorted by createdAt or not at all: the word table can answer it by itself. */
function wordsOnly(query: LeadListQuery): boolean {
  const others = Object.entries(query.filter).some(([key, value]) => key !== 'words' && value !== undefined);
  return !others && (query.sort.length === 0 || (query.sort.length === 1 && query.sort[0]!.field === 'createdAt'));
}

/**
 * The leads matching every word, from the word table (migration 006-lead-words): `(lead_pk,
 * created_at, score)`, the score a sum over the words of the best field weight each is found in. A
 * `q` word matches any field, a `subject` or `details` word only its own; each is a prefix.
 */
function hitsOf(urlKey: string, words: Words): Fragment {
  const { subject, details, names } = WORD_WEIGHTS;
  const terms: [string, number[]][] = [...words.any.map((w): [string, number[]] => [w, [subject, details, names]]),
    ...words.subject.map((w): [string, number[]] => [w, [subject]]), ...words.details.map((w): [string, number[]] => [w, [details]])];
  const range = ([word, weights]: [string, number[]]) => sql`from lead_words where business_pk = ${businessOf(urlKey)}
    and weight in (${sql.join(weights.map((w) => sql.lit(w)))}) and word >= ${word} and word < ${word + TOP}`;
  if (terms.length === 1) return sql`(select lead_pk, max(created_at) as created_at, max(weight) as score ${range(terms[0]!)} group by lead_pk)`;
  // One aggregation over every word's entries, each tagged with its word: a lead with no entry for some word has a null score.
  const tagged = terms.map((t, i) => sql`select ${sql.lit(i)} as term, lead_pk, weight, created_at ${range(t)}`);
  const score = sql.join(terms.map((_, i) => sql`max(case when term = ${sql.lit(i)} then weight end)`), sql` + `);
  return sql`(select lead_pk, max(created_at) as created_at, ${score} as score from (${sql.join(tagged, sql` union all `)}) t
    group by lead_pk having ${score} is not null)`;
}
