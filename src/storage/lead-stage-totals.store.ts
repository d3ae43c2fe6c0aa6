import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { LeadListFilter } from './lead-lists.records.js';
import type { StoreKind } from './db.js';
import { COUNTED, countedConditions } from './lead-list-filters.js';
import type { LeadListsStore } from './lead-lists.store.js';
import { UNITS_SPLIT } from './migrations/020-lead-budget-sums.js';
import type { Database } from './schema.js';

/** One stage's leads matching a filter: how many, and their budgets summed per currency (ten-thousandths, exact). */
export interface StageTotal {
  count: number;
  budgets: { currency: string; units: bigint }[];
}

interface SumRow {
  stage_id: string;
  currency: string | null;
  /** Leads in the row (with a budget in `currency`, or, counted from the leads, without one when currency is null). */
  n: number | string;
  hi: string | null;
  lo: string | null;
}

/**
 * Per-stage totals of the leads a list filter matches (issue 39: a board column's count and value). A
 * filter of what the live counts are kept by (pipeline, stage, status, source, assignee, no follow-up)
 * is answered from `lead_counts` and `lead_budget_sums` (migrations 005 and 020), a range of their keys
 * per business and pipeline, whatever the number of leads; any other filter (tags, free text, ranges,
 * lookups) aggregates the matching leads, found as the list finds them.
 */
export class LeadStageTotalsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
    private readonly lists: LeadListsStore,
  ) {}

  async totals(urlKey: string, filter: LeadListFilter): Promise<Map<string, StageTotal>> {
    const statements = await this.statements(urlKey, filter);
    if (!statements) return new Map();
    const results = await Promise.all(statements.map((statement) => statement.execute(this.db)));
    return totalsOf(results.flatMap((result) => result.rows));
  }

  /** The statements totals() runs (none when the filter can match nothing), for the plan checks of the tests. */
  async compile(urlKey: string, filter: LeadListFilter): Promise<{ sql: string; parameters: readonly unknown[] }[]> {
    return ((await this.statements(urlKey, filter)) ?? []).map((s) => s.compile(this.db));
  }

  private async statements(urlKey: string, filter: LeadListFilter): Promise<RawBuilder<SumRow>[] | undefined> {
    const sent = Object.entries(filter)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key as keyof LeadListFilter);
    if (filter.statusStageIds?.length === 0 || filter.pipelineIds?.length === 0) return undefined;
    if (sent.every((key) => COUNTED.has(key))) return this.live(urlKey, filter);
    const matching = await this.lists.matching(urlKey, filter);
    if (!matching) return undefined;
    // One statement: leads without a budget form the rows whose currency is null.
    const sums = sql<SumRow>`select leads.stage_id, ${this.currency()} as currency, count(*) as n,
        cast(sum(${this.units()} / ${sql.lit(UNITS_SPLIT)}) as text) as hi, cast(sum(${this.units()} % ${sql.lit(UNITS_SPLIT)}) as text) as lo
      from ${matching.from} where ${matching.where} group by leads.stage_id, ${this.currency()}`;
    return [sums];
  }

  /** The live counts and sums (aliased `leads`: the list's conditions name the same columns). */
  private live(urlKey: string, filter: LeadListFilter): RawBuilder<SumRow>[] {
    const where = sql.join(
      [
        sql`leads.business_pk = (select id from businesses where url_key = ${urlKey})`,
        ...countedConditions(this.lists.kind, filter, true),
      ],
      sql` and `,
    );
    const counts = sql<SumRow>`select leads.stage_id, null as currency, cast(sum(leads.live) as text) as n, null as hi, null as lo
      from lead_counts leads where ${where} group by leads.stage_id having sum(leads.live) <> 0`;
    const sums = sql<SumRow>`select leads.stage_id, leads.currency, 0 as n, cast(sum(leads.units_hi) as text) as hi,
        cast(sum(leads.units_lo) as text) as lo
      from lead_budget_sums leads where ${where} group by leads.stage_id, leads.currency having sum(leads.live) <> 0`;
    return [counts, sums];
  }

  /** A lead's budget in ten-thousandths, read from its JSON text as migration 020-lead-budget-sums does. */
  private units(): RawBuilder<unknown> {
    return this.kind === 'postgres'
      ? sql`((leads.data::jsonb -> 'budget' ->> 'amount')::numeric * 10000)::bigint`
      : sql`crm_budget_units(leads.data)`;
  }

  private currency(): RawBuilder<unknown> {
    return this.kind === 'postgres'
      ? sql`(leads.data::jsonb -> 'budget' ->> 'currency')`
      : sql`json_extract(leads.data, '$.budget.currency')`;
  }
}

/** Rows of counts (currency null: counted leads) and sums (per currency) → one total per stage. */
function totalsOf(rows: SumRow[]): Map<string, StageTotal> {
  const totals = new Map<string, StageTotal>();
  for (const row of rows) {
    const total = totals.get(row.stage_id) ?? { count: 0, budgets: [] };
    totals.set(row.stage_id, total);
    total.count += Number(row.n);
    if (row.currency === null || row.hi === null || row.lo === null) continue;
    const units = BigInt(row.hi) * BigInt(UNITS_SPLIT) + BigInt(row.lo);
    total.budgets.push({ currency: row.currency, units });
  }
  for (const total of totals.values()) total.budgets.sort((a, b) => a.currency.localeCompare(b.currency));
  return totals;
}
