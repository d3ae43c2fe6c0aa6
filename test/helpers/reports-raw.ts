import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { StoreKind } from '../../src/storage/db.js';
import type {
  AgeingBucket,
  AgeingEdges,
  AgeingRow,
  MoneyRow,
  MonthMoneyRow,
} from '../../src/storage/reports-invoices.store.js';
import type {
  OutcomeRow,
  ReasonRow,
  ReportMonth,
  StageFlowRow,
  StageSets,
  StageStayRow,
} from '../../src/storage/reports-leads.store.js';
import type { Database } from '../../src/storage/schema.js';

/**
 * The reports' queries over the raw rows, as they were before the rollups of migration 028 (the stays
 * and copied columns of migration 026 only): test/http/reports.rollups.test.ts checks that the rollups
 * answer exactly what these recompute.
 */
export class RawLeadReports {
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

export class RawInvoiceReports {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  /** Non-canceled invoices per month of their invoice date. */
  async invoiced(urlKey: string, months: readonly ReportMonth[]): Promise<MonthMoneyRow[]> {
    if (months.length === 0) return [];
    const result = await sql<SumRow & { month: string }>`
      with ${monthsTable(months)}
      select m.month, i.currency, count(*) as n, cast(sum(i.total_minor) as text) as minor
      from months m join invoices i on i.business_pk = ${business(urlKey)}
        and i.invoice_date >= m.starts and i.invoice_date < m.ends
      where i.status <> 'CANCELED'
      group by m.month, i.currency`.execute(this.db);
    return result.rows.map((r) => ({ month: r.month, ...moneyOf(r) }));
  }

  /** Live payments per month of their payment date, in their invoice's currency (a canceled invoice's kept payments too). */
  async collected(urlKey: string, months: readonly ReportMonth[]): Promise<MonthMoneyRow[]> {
    if (months.length === 0) return [];
    const edges = months.map(
      (m) => sql`(cast(${m.month} as text), cast(${iso(m.from)} as text), cast(${iso(m.to)} as text))`,
    );
    const result = await sql<SumRow & { month: string }>`
      with months(month, starts, ends) as (values ${sql.join(edges)})
      select m.month, p.currency, count(*) as n, cast(sum(p.settled_minor) as text) as minor
      from months m join invoice_payments p on p.business_pk = ${business(urlKey)} and p.removed = 0
        and p.paid_on >= m.starts and p.paid_on < m.ends
      group by m.month, p.currency`.execute(this.db);
    return result.rows.map((r) => ({ month: r.month, ...moneyOf(r) }));
  }

  /** What unpaid and partly paid invoices still owe, by how long past their due date they are. */
  async ageing(urlKey: string, edges: AgeingEdges): Promise<AgeingRow[]> {
    const due = sql`i.due_on`;
    const bucket = sql`case
        when ${due} is null or ${due} >= ${edges.dueAfterToday} then 'current'
        when ${due} >= ${edges.over30} then '0-30'
        when ${due} >= ${edges.over60} then '31-60'
        when ${due} >= ${edges.over90} then '61-90'
        else 'over-90' end`;
    const result = await sql<SumRow & { bucket: AgeingBucket }>`
      select aged.bucket, aged.currency, count(*) as n, cast(sum(aged.owed) as text) as minor
      from (select ${bucket} as bucket, i.currency, i.total_minor - i.paid_minor as owed
        from invoices i
        where i.business_pk = ${business(urlKey)} and i.status in ('UNPAID', 'PARTIALLY_PAID')) aged
      group by aged.bucket, aged.currency`.execute(this.db);
    return result.rows.map((r) => ({ bucket: r.bucket, ...moneyOf(r) }));
  }
}

const business = (urlKey: string) => sql`(select id from businesses where url_key = ${urlKey})`;

const iso = (at: number) => new Date(at).toISOString();

interface SumRow {
  currency: string;
  n: number | string;
  minor: string;
}

const moneyOf = (row: SumRow): MoneyRow => ({ currency: row.currency, count: Number(row.n), minor: BigInt(row.minor) });

/** The CTE `months(month, starts, ends)`: the period's months as rows, so the database buckets by them. */
function monthsTable(months: readonly ReportMonth[]): RawBuilder<unknown> {
  const rows = months.map((m) => sql`(cast(${m.month} as text), cast(${m.from} as bigint), cast(${m.to} as bigint))`);
  return sql`months(month, starts, ends) as (values ${sql.join(rows)})`;
}
