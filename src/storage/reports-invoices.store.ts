import { sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import { monthsTable, type ReportMonth } from './reports-leads.store.js';
import type { Database } from './schema.js';

/** A sum of money in one currency: whole minor units (exact), and how many documents it adds up. */
export interface MoneyRow {
  currency: string;
  count: number;
  minor: bigint;
}

export interface MonthMoneyRow extends MoneyRow {
  month: string;
}

/** Buckets of days past due (docs/decisions.md, "Reports: receivables ageing"). */
export const AGEING_BUCKETS = ['current', '0-30', '31-60', '61-90', 'over-90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

/**
 * The instants, as UTC ISO 8601 texts, where an unpaid invoice's due date moves it to an older bucket:
 * 00:00 in the business's time zone of tomorrow, of 30, 60 and 90 days before today.
 */
export interface AgeingEdges {
  dueAfterToday: string;
  over30: string;
  over60: string;
  over90: string;
}

export interface AgeingRow extends MoneyRow {
  bucket: AgeingBucket;
}

interface SumRow {
  currency: string;
  n: number | string;
  minor: string;
}

/**
 * Invoice reports (issue 38 item 4): sums of whole minor units per currency, added by the database
 * (cast to text, read as BigInt: exact past 2^53). The documents' dueDate and paymentDate, copied to
 * `invoices.due_on` and `invoice_payments.paid_on` by migration 026-report-aggregates, are UTC ISO 8601
 * texts with milliseconds, whose order as text is their order in time, so they are compared as text
 * against edges computed in the business's time zone.
 */
export class InvoiceReportsStore {
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

const iso = (at: number) => new Date(at).toISOString();

const business = (urlKey: string) => sql`(select id from businesses where url_key = ${urlKey})`;

const moneyOf = (row: SumRow): MoneyRow => ({ currency: row.currency, count: Number(row.n), minor: BigInt(row.minor) });
