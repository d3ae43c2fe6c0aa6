import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import type { Database } from './schema.js';

/** A calendar month of the business (docs/decisions.md, "Reports: months"): its label and its instants. */
export interface ReportMonth {
  /** YYYY-MM. */
  month: string;
  /** 00:00 of its first day in the business's time zone, epoch ms (included). */
  from: number;
  /** 00:00 of the next month's first day there (excluded). */
  to: number;
}

/** The stages a lead report reads: one pipeline's, each with what the report needs to know of it. */
export interface StageSets {
  /** Every stage of the pipeline, archived ones included. */
  all: readonly string[];
  /** CLOSED stages: a lead in one is won. */
  won: readonly string[];
  /** DROPPED and REJECTED stages: a lead in one is lost. */
  lost: readonly string[];
}

export interface OutcomeRow {
  month: string;
  stageId: string;
  leads: number;
}

export interface ReasonRow {
  /** Null: lost leads with no reason. */
  reasonKey: string | null;
  leads: number;
}

export interface StageFlowRow {
  stageId: string;
  /** Leads that entered the stage within the period. */
  entered: number;
  /** Of those, the ones whose current stage is a won stage. */
  won: number;
}

export interface StageStayRow {
  stageId: string;
  stays: number;
  /** The median stay in milliseconds (the mean of the two middle stays for an even count). */
  medianMs: number;
}

/**
 * Lead reports (issue 38 item 4), aggregated by the database from the stays of migration
 * 026-report-aggregates: a stay runs from a CREATED or STAGE_CHANGE activity that moved the lead (a
 * change of reasons alone is no move) to its next move; the open stay (left_at null) is the lead's
 * current stage. Removed leads have no stays.
 */
export class LeadReportsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  /** Won and lost leads per month: leads whose open stay is in `stages`, by the month they entered it. */
  async outcomes(urlKey: string, stages: readonly string[], months: readonly ReportMonth[]): Promise<OutcomeRow[]> {
    if (stages.length === 0 || months.length === 0) return [];
    const result = await sql<{ month: string; stage_id: string; n: number | string }>`
      with ${monthsTable(months)}
      select m.month, s.stage_id, count(*) as n
      from months m join lead_stays s on s.business_pk = ${business(urlKey)} and s.stage_id in (${sql.join(stages)})
        and s.left_at is null and s.entered_at >= m.starts and s.entered_at < m.ends
      group by m.month, s.stage_id`.execute(this.db);
    return result.rows.map((r) => ({ month: r.month, stageId: r.stage_id, leads: Number(r.n) }));
  }

  /** Leads lost within [from, to) per stage reason on the lead (a lead with two reasons counts under each). */
  async lostReasons(urlKey: string, lost: readonly string[], from: number, to: number): Promise<ReasonRow[]> {
    if (lost.length === 0) return [];
    const reasons =
      this.kind === 'postgres'
        ? sql`left join lateral json_array_elements_text(s.reason_keys::json) r(value) on true`
        : sql`left join json_each(s.reason_keys) r`;
    const result = await sql<{ reason: string | null; n: number | string }>`
      select r.value as reason, count(*) as n
      from lead_stays s ${reasons}
      where s.business_pk = ${business(urlKey)} and s.stage_id in (${sql.join(lost)}) and s.left_at is null
        and s.entered_at >= ${from} and s.entered_at < ${to}
      group by r.value`.execute(this.db);
    return result.rows.map((r) => ({ reasonKey: r.reason, leads: Number(r.n) }));
  }

  /** Per stage: the leads that entered it within [from, to), and how many of them are now in a won stage. */
  async stageFlow(urlKey: string, stages: StageSets, from: number, to: number): Promise<StageFlowRow[]> {
    if (stages.all.length === 0) return [];
    const won = stages.won.length > 0 ? sql`s.current_stage_id in (${sql.join(stages.won)})` : sql`1 = 0`;
    const result = await sql<{ stage_id: string; entered: number | string; won: number | string }>`
      select s.stage_id, count(distinct s.lead_pk) as entered,
        count(distinct case when ${won} then s.lead_pk end) as won
      from lead_stays s
      where s.business_pk = ${business(urlKey)} and s.stage_id in (${sql.join(stages.all)})
        and s.entered_at >= ${from} and s.entered_at < ${to}
      group by s.stage_id`.execute(this.db);
    return result.rows.map((r) => ({ stageId: r.stage_id, entered: Number(r.entered), won: Number(r.won) }));
  }

  /** Per stage: the stays that ended within [from, to), and their median length. */
  async stageStays(urlKey: string, stages: readonly string[], from: number, to: number): Promise<StageStayRow[]> {
    if (stages.length === 0) return [];
    const result = await sql<{ stage_id: string; n: number | string; median: string; middle: number | string }>`
      with ended as (
        select s.stage_id, s.left_at - s.entered_at as ms,
          row_number() over (partition by s.stage_id order by s.left_at - s.entered_at) as rn,
          count(*) over (partition by s.stage_id) as n
        from lead_stays s
        where s.business_pk = ${business(urlKey)} and s.stage_id in (${sql.join(stages)})
          and s.left_at >= ${from} and s.left_at < ${to}
      )
      select stage_id, max(n) as n, cast(sum(ms) as text) as median, count(*) as middle
      from ended where rn = (n + 1) / 2 or rn = (n + 2) / 2
      group by stage_id`.execute(this.db);
    // One middle stay (odd count) or two (even): their mean, exact in milliseconds but for a half.
    return result.rows.map((r) => ({
      stageId: r.stage_id,
      stays: Number(r.n),
      medianMs: Number(r.median) / Number(r.middle),
    }));
  }
}

const business = (urlKey: string) => sql`(select id from businesses where url_key = ${urlKey})`;

/** The CTE `months(month, starts, ends)`: the period's months as rows, so the database buckets by them. */
export function monthsTable(months: readonly ReportMonth[]): RawBuilder<unknown> {
  const rows = months.map((m) => sql`(cast(${m.month} as text), cast(${m.from} as bigint), cast(${m.to} as bigint))`);
  return sql`months(month, starts, ends) as (values ${sql.join(rows)})`;
}
