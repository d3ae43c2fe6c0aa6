import { type RawBuilder, sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import { type BucketEdge, intervalSums, msEdge, perPiece, piecesOf, textEdge } from './reports-buckets.js';
import type { ReportMonth } from './reports-leads.store.js';
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
 * Invoice reports (issue 38 item 4): sums of whole minor units per currency (cast to text, read as
 * BigInt: exact past 2^53). The documents' dueDate and paymentDate, copied to `invoices.due_on` and
 * `invoice_payments.paid_on` by migration 026-report-aggregates, are UTC ISO 8601 texts with
 * milliseconds, whose order as text is their order in time, so they are compared as text against edges
 * computed in the business's time zone. The sums come from the rollups of migration 028-report-rollups,
 * corrected at each edge by the raw rows of a few hours (src/storage/reports-buckets.ts).
 */
export class InvoiceReportsStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: StoreKind,
  ) {}

  /** Non-canceled invoices per month of their invoice date. */
  async invoiced(urlKey: string, months: readonly ReportMonth[]): Promise<MonthMoneyRow[]> {
    if (months.length === 0) return [];
    const edges = [...months.map((m) => msEdge(m.from, 'month')), msEdge(months.at(-1)!.to, 'month')];
    const pieces = piecesOf(edges);
    const raw = () =>
      perPiece<SumRow>(
        this.kind,
        pieces,
        (lo, hi) => sql`select i.currency, count(*) as n, cast(sum(i.total_minor) as text) as minor
        from invoices i
        where i.business_pk = ${business(urlKey)} and i.invoice_date >= ${lo} and i.invoice_date < ${hi}
          and i.status <> 'CANCELED'
        group by i.currency`,
      );
    return this.monthSums(urlKey, 'invoiced', edges, months, pieces.length === 0 ? null : raw());
  }

  /** Live payments per month of their payment date, in their invoice's currency (a canceled invoice's kept payments too). */
  async collected(urlKey: string, months: readonly ReportMonth[]): Promise<MonthMoneyRow[]> {
    if (months.length === 0) return [];
    const edges = [...months.map((m) => textEdge(iso(m.from), 'month')), textEdge(iso(months.at(-1)!.to), 'month')];
    const pieces = piecesOf(edges);
    const raw = () =>
      perPiece<SumRow>(
        this.kind,
        pieces,
        (lo, hi) => sql`select pay.currency, count(*) as n, cast(sum(pay.settled_minor) as text) as minor
        from invoice_payments pay
        where pay.business_pk = ${business(urlKey)} and pay.removed = 0 and pay.paid_on >= ${lo} and pay.paid_on < ${hi}
        group by pay.currency`,
      );
    return this.monthSums(urlKey, 'collected', edges, months, pieces.length === 0 ? null : raw());
  }

  /** What unpaid and partly paid invoices still owe, by how long past their due date they are. */
  async ageing(urlKey: string, edges: AgeingEdges): Promise<AgeingRow[]> {
    // Everything owed before each edge (oldest first), from the day rollups and each edge's raw piece.
    const cuts = [edges.over90, edges.over60, edges.over30, edges.dueAfterToday].map((e) => textEdge(e, 'day'));
    const pieces = piecesOf(cuts).map(
      (p) => sql`select cast(${p.edge} as integer) as edge, i.currency, count(*) as n,
          cast(sum(i.total_minor - i.paid_minor) as text) as minor
        from invoices i
        where i.business_pk = ${business(urlKey)} and i.status in ('UNPAID', 'PARTIALLY_PAID')
          and i.due_on >= ${p.lo} and i.due_on < ${p.hi}
        group by i.currency`,
    );
    const [rollups, raw] = await Promise.all([
      sql<SumRow & { bucket: string }>`
        select bucket, currency, cast(sum(n) as text) as n, cast(sum(minor) as text) as minor from invoice_rollups
        where business_pk = ${business(urlKey)} and series = 'owed'
        group by bucket, currency`.execute(this.db),
      pieces.length === 0
        ? { rows: [] as PieceRow[] }
        : sql<PieceRow>`${sql.join(pieces, sql` union all `)}`.execute(this.db),
    ]);
    // before[k]: per currency, what is owed with a due date before cut k; the last entry: everything.
    const before = [...cuts.map(() => new Map<string, bigint[]>()), new Map<string, bigint[]>()];
    const add = (k: number, currency: string, values: readonly bigint[], sign: bigint) => {
      const sums = before[k]!.get(currency) ?? [0n, 0n];
      before[k]!.set(currency, [sums[0]! + sign * values[0]!, sums[1]! + sign * values[1]!]);
    };
    for (const row of rollups.rows) {
      const values = [BigInt(row.n), BigInt(row.minor)];
      add(cuts.length, row.currency, values, 1n);
      cuts.forEach((cut, k) => {
        if (row.bucket !== '' && row.bucket < cut.key) add(k, row.currency, values, 1n);
      });
    }
    for (const row of raw.rows)
      add(Number(row.edge), row.currency, [BigInt(row.n), BigInt(row.minor)], BigInt(cuts[Number(row.edge)]!.sign));
    const names: AgeingBucket[] = ['over-90', '61-90', '31-60', '0-30', 'current'];
    const currencies = new Set(before.flatMap((m) => [...m.keys()]));
    return names.flatMap((bucket, k) =>
      [...currencies].flatMap((currency) => {
        const upTo = before[k]!.get(currency) ?? [0n, 0n];
        const below = k === 0 ? [0n, 0n] : (before[k - 1]!.get(currency) ?? [0n, 0n]);
        const count = Number(upTo[0]! - below[0]!);
        return count === 0 ? [] : [{ bucket, currency, count, minor: upTo[1]! - below[1]! }];
      }),
    );
  }

  /** A series' sums per month and currency: its rollup rows and the edges' raw pieces. */
  private async monthSums(
    urlKey: string,
    series: string,
    edges: readonly BucketEdge<number | string>[],
    months: readonly ReportMonth[],
    raw: RawBuilder<PieceRow> | null,
  ): Promise<MonthMoneyRow[]> {
    const [rollups, pieces] = await Promise.all([
      sql<SumRow & { bucket: string }>`
        select bucket, currency, cast(sum(n) as text) as n, cast(sum(minor) as text) as minor from invoice_rollups
        where business_pk = ${business(urlKey)} and series = ${series}
          and bucket >= ${edges[0]!.key} and bucket < ${edges.at(-1)!.key}
        group by bucket, currency`.execute(this.db),
      raw ? raw.execute(this.db) : { rows: [] as PieceRow[] },
    ]);
    const values = (r: SumRow) => [BigInt(r.n), BigInt(r.minor)];
    const sums = intervalSums(
      edges,
      rollups.rows.map((r) => ({ bucket: r.bucket, group: r.currency, values: values(r) })),
      pieces.rows.map((r) => ({ edge: Number(r.edge), group: r.currency, values: values(r) })),
    );
    return sums.flatMap((groups, i) =>
      [...groups]
        .filter(([, [n]]) => n !== 0n)
        .map(([currency, [n, minor]]) => ({ month: months[i]!.month, currency, count: Number(n), minor: minor! })),
    );
  }
}

interface PieceRow extends SumRow {
  edge: number | string;
}

const iso = (at: number) => new Date(at).toISOString();

const business = (urlKey: string) => sql`(select id from businesses where url_key = ${urlKey})`;
