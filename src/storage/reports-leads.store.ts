import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import {
  type BucketEdge,
  intervalSums,
  lengthBucketRange,
  lengthBucketSql,
  msEdge,
  perPiece,
  piecesOf,
} from './reports-buckets.js';
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
 * Lead reports (issue 38 item 4) from the stays of migration 026-report-aggregates: a stay runs from a
 * CREATED or STAGE_CHANGE activity that moved the lead (a change of reasons alone is no move) to its next
 * move; the open stay (left_at null) is the lead's current stage. Removed leads have no stays. The sums
 * come from the rollups of migration 028-report-rollups, corrected at each edge of the period by the raw
 * stays of a few hours (src/storage/reports-buckets.ts), so a report costs the same at any number of leads.
 */
export class LeadReportsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  /** Won and lost leads per month: leads whose open stay is in `stages`, by the month they entered it. */
  async outcomes(urlKey: string, stages: readonly string[], months: readonly ReportMonth[]): Promise<OutcomeRow[]> {
    if (stages.length === 0 || months.length === 0) return [];
    const edges = [...months.map((m) => msEdge(m.from, 'month')), msEdge(months.at(-1)!.to, 'month')];
    const sums = await this.sums(urlKey, edges, {
      series: 'open',
      stages,
      rawWhere: sql`s.left_at is null`,
      at: sql`s.entered_at`,
    });
    return sums.flatMap((groups, i) =>
      [...groups]
        .filter(([, n]) => n !== 0n)
        .map(([group, n]) => ({ month: months[i]!.month, stageId: group.split('\u0000')[0]!, leads: Number(n) })),
    );
  }

  /** Leads lost within [from, to) per stage reason on the lead (a lead with two reasons counts under each). */
  async lostReasons(urlKey: string, lost: readonly string[], from: number, to: number): Promise<ReasonRow[]> {
    if (lost.length === 0) return [];
    const reasons =
      this.kind === 'postgres'
        ? sql`left join lateral json_array_elements_text(s.reason_keys::json) r(value) on true`
        : sql`left join json_each(s.reason_keys) r`;
    const [sums] = await this.sums(urlKey, [msEdge(from, 'month'), msEdge(to, 'month')], {
      series: 'reason',
      stages: lost,
      rawJoin: reasons,
      rawWhere: sql`s.left_at is null`,
      rawGroup: sql`coalesce(r.value, '')`,
      at: sql`s.entered_at`,
    });
    // One group per stage and reason: the stages' counts add up per reason ('' is no reason).
    const byReason = new Map<string, number>();
    for (const [group, n] of sums!) {
      const reason = group.slice(group.indexOf('\u0000') + 1);
      byReason.set(reason, (byReason.get(reason) ?? 0) + Number(n));
    }
    return [...byReason]
      .filter(([, n]) => n !== 0)
      .map(([reason, leads]) => ({ reasonKey: reason === '' ? null : reason, leads }));
  }

  /** Per stage: the leads that entered it within [from, to), and how many of them are now in a won stage. */
  async stageFlow(urlKey: string, stages: StageSets, from: number, to: number): Promise<StageFlowRow[]> {
    if (stages.all.length === 0) return [];
    // A lead's latest stay in a stage counts it once; a lead whose latest entry is past `to` (a clock
    // ahead of the period's end) is counted from its earlier stays in the period.
    const [[sums], later] = await Promise.all([
      this.sums(urlKey, [msEdge(from, 'month'), msEdge(to, 'month')], {
        series: 'entered',
        stages: stages.all,
        rawWhere: sql`s.latest = 1`,
        rawGroup: sql`s.current_stage_id`,
        at: sql`s.entered_at`,
      }),
      this.enteredAgainLater(urlKey, stages, from, to),
    ]);
    const rows = new Map<string, StageFlowRow>();
    const row = (stageId: string) =>
      rows.get(stageId) ?? rows.set(stageId, { stageId, entered: 0, won: 0 }).get(stageId)!;
    for (const [group, n] of sums!) {
      const [stageId, current] = group.split('\u0000') as [string, string];
      row(stageId).entered += Number(n);
      if (stages.won.includes(current)) row(stageId).won += Number(n);
    }
    for (const extra of later) {
      row(extra.stageId).entered += extra.entered;
      row(extra.stageId).won += extra.won;
    }
    return [...rows.values()].filter((r) => r.entered !== 0);
  }

  /** Leads that entered a stage within [from, to) whose latest entry into it is at or after `to`. */
  private async enteredAgainLater(urlKey: string, stages: StageSets, from: number, to: number) {
    const won = stages.won.length > 0 ? sql`t.current_stage_id in (${sql.join(stages.won)})` : sql`1 = 0`;
    const result = await sql<{ stage_id: string; entered: number | string; won: number | string }>`
      select t.stage_id, count(distinct t.lead_pk) as entered, count(distinct case when ${won} then t.lead_pk end) as won
      from lead_stays f join lead_stays t on t.lead_pk = f.lead_pk and t.stage_id = f.stage_id
        and t.entered_at >= ${from} and t.entered_at < ${to}
      where f.business_pk = ${business(urlKey)} and f.stage_id in (${sql.join(stages.all)}) and f.latest = 1
        and f.entered_at >= ${to}
      group by t.stage_id`.execute(this.db);
    return result.rows.map((r) => ({ stageId: r.stage_id, entered: Number(r.entered), won: Number(r.won) }));
  }

  /** Per stage: the stays that ended within [from, to), and their median length. */
  async stageStays(urlKey: string, stages: readonly string[], from: number, to: number): Promise<StageStayRow[]> {
    if (stages.length === 0) return [];
    const [sums] = await this.sums(urlKey, [msEdge(from, 'month'), msEdge(to, 'month')], {
      series: 'ended',
      stages,
      rawWhere: sql`s.left_at is not null`,
      rawGroup: sql.raw(lengthBucketSql('(s.left_at - s.entered_at)')),
      at: sql`s.left_at`,
    });
    // The histogram per stage: length buckets in length order with their counts.
    const histograms = new Map<string, { lo: number; hi: number; n: number }[]>();
    for (const [group, n] of sums!) {
      if (n === 0n) continue;
      const [stageId, key] = group.split('\u0000') as [string, string];
      const list = histograms.get(stageId) ?? histograms.set(stageId, []).get(stageId)!;
      list.push({ ...lengthBucketRange(key), n: Number(n) });
    }
    return Promise.all(
      [...histograms].map(async ([stageId, buckets]) => {
        buckets.sort((a, b) => a.lo - b.lo);
        const stays = buckets.reduce((total, b) => total + b.n, 0);
        // One middle stay (odd count) or two (even): their mean, exact in milliseconds but for a half.
        const ranks = stays % 2 === 1 ? [(stays + 1) / 2] : [stays / 2, stays / 2 + 1];
        const middle = await Promise.all(ranks.map((rank) => this.nthStay(urlKey, stageId, buckets, rank, from, to)));
        return { stageId, stays, medianMs: middle.reduce((a, b) => a + b, 0) / middle.length };
      }),
    );
  }

  /** The length of the stage's `rank`-th shortest stay ended within [from, to) (1-based): one index range. */
  private async nthStay(
    urlKey: string,
    stageId: string,
    buckets: readonly { lo: number; hi: number; n: number }[],
    rank: number,
    from: number,
    to: number,
  ): Promise<number> {
    let before = 0;
    const bucket = buckets.find((b) => (before += b.n) >= rank)!;
    const offset = rank - (before - bucket.n) - 1;
    const length = sql`(s.left_at - s.entered_at)`;
    const result = await sql<{ ms: number | string }>`
      select ${length} as ms from lead_stays s
      where s.business_pk = ${business(urlKey)} and s.stage_id = ${stageId} and s.left_at is not null
        and ${length} >= ${bucket.lo} and ${length} < ${bucket.hi} and s.left_at >= ${from} and s.left_at < ${to}
      order by ${length} limit 1 offset ${offset}`.execute(this.db);
    return Number(result.rows[0]!.ms);
  }

  /** The raw stays of each edge's piece, per stage and group (`perPiece`: one index range per piece). */
  private pieceSums(
    urlKey: string,
    pieces: readonly { edge: number; lo: number; hi: number }[],
    q: {
      stages: readonly string[];
      rawJoin?: RawBuilder<unknown>;
      rawWhere: RawBuilder<unknown>;
      rawGroup?: RawBuilder<unknown>;
      at: RawBuilder<unknown>;
    },
  ) {
    const range = (lo: unknown, hi: unknown) => sql`select s.stage_id, ${q.rawGroup ?? sql`''`} as other, count(*) as n
      from lead_stays s ${q.rawJoin ?? sql``}
      where s.business_pk = ${business(urlKey)} and s.stage_id in (${sql.join(q.stages)})
        and ${q.at} >= ${lo} and ${q.at} < ${hi} and ${q.rawWhere}
      group by s.stage_id${q.rawGroup ? sql`, ${q.rawGroup}` : sql``}`;
    return perPiece<{ stage_id: string; other: string; n: number | string }>(this.kind, pieces, range);
  }

  /**
   * A series' sums per interval between edges, per stage (and `other`, joined by NUL): its rollup rows
   * between the edges' buckets, and the raw stays (with `rawJoin`, filtered by `rawWhere`, grouped by `rawGroup`)
   * of each edge's piece by their time `at`.
   */
  private async sums(
    urlKey: string,
    edges: readonly BucketEdge<number>[],
    q: {
      series: string;
      stages: readonly string[];
      rawJoin?: RawBuilder<unknown>;
      rawWhere: RawBuilder<unknown>;
      rawGroup?: RawBuilder<unknown>;
      at: RawBuilder<unknown>;
    },
  ): Promise<Map<string, bigint>[]> {
    const pieces = piecesOf(edges);
    const [rollups, raw] = await Promise.all([
      sql<{ stage_id: string; other: string; bucket: string; n: number | string }>`
        select stage_id, other, bucket, cast(sum(n) as text) as n from lead_stay_rollups
        where business_pk = ${business(urlKey)} and series = ${q.series} and stage_id in (${sql.join(q.stages)})
          and bucket >= ${edges[0]!.key} and bucket < ${edges.at(-1)!.key}
        group by stage_id, other, bucket`.execute(this.db),
      pieces.length === 0 ? { rows: [] } : this.pieceSums(urlKey, pieces, q).execute(this.db),
    ]);
    const group = (r: { stage_id: string; other: string }) => `${r.stage_id}\u0000${r.other}`;
    return intervalSums(
      edges,
      rollups.rows.map((r) => ({ bucket: r.bucket, group: group(r), values: [BigInt(r.n)] })),
      raw.rows.map((r) => ({ edge: Number(r.edge), group: group(r), values: [BigInt(r.n)] })),
    ).map((groups) => new Map([...groups].map(([g, [n]]) => [g, n!] as const)));
  }
}

const business = (urlKey: string) => sql`(select id from businesses where url_key = ${urlKey})`;
