import { type RawBuilder, sql } from 'kysely';
import type { StoreKind } from './db.js';

/**
 * The time buckets of the report rollups (migration 028-report-rollups, docs/performance.md "Reports at
 * 1,000,000 leads and 1,000,000 invoices"). A rollup row sums what happened in one UTC calendar month
 * (`YYYY-MM`) or, for due dates, one UTC day (`YYYY-MM-DD`). A report's edges are instants of the
 * business's time zone (00:00 of a month's or a day's first day there), which fall inside a bucket, so
 * the count of everything before an edge E is the buckets before the bucket boundary B nearest to E, plus
 * the raw rows in [B, E) when B is before E, or minus the raw rows in [E, B) when it is after. For a
 * month of any time zone that raw piece is at most 14 hours of rows (the widest UTC offset), read from the
 * indexes the raw reports used; any other edge stays exact too (a piece of at most half a bucket).
 *
 * Epoch-millisecond times (stays, invoice dates) bucket by their UTC month; ISO 8601 texts (payment and
 * due dates, compared as text as the documents hold them) by their first 7 or 10 characters, so a bucket
 * is the text range [key, next key) and the pieces are text ranges.
 */

export type BucketUnit = 'month' | 'day';

/** One edge of a report period: where the rollup sum stops, and the raw piece that corrects it. */
export interface BucketEdge<T extends number | string> {
  /** The first bucket after the boundary (rollup rows with `bucket >= key` are past it). */
  key: string;
  /** +1: add the raw rows in [lo, hi); -1: take them away; 0: the edge is the boundary (no piece). */
  sign: 1 | -1 | 0;
  lo: T;
  hi: T;
}

const DAY_MS = 86_400_000;

/** The UTC month (`YYYY-MM`) or day (`YYYY-MM-DD`) holding an epoch-ms instant. */
export function bucketKeyOf(at: number, unit: BucketUnit): string {
  return new Date(at).toISOString().slice(0, unit === 'month' ? 7 : 10);
}

/** The start of the UTC month or day nearest to `at` (epoch ms), before or after it. */
export function nearestBoundary(at: number, unit: BucketUnit): number {
  const d = new Date(at);
  const floor = unit === 'month' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) : Math.floor(at / DAY_MS) * DAY_MS;
  const next = unit === 'month' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) : floor + DAY_MS;
  return at - floor <= next - at ? floor : next;
}

/** An edge over epoch-ms times (entered_at, left_at, invoice_date). */
export function msEdge(at: number, unit: BucketUnit): BucketEdge<number> {
  const boundary = nearestBoundary(at, unit);
  const key = bucketKeyOf(boundary, unit);
  if (boundary === at) return { key, sign: 0, lo: at, hi: at };
  return boundary < at ? { key, sign: 1, lo: boundary, hi: at } : { key, sign: -1, lo: at, hi: boundary };
}

/** An edge over ISO 8601 texts (paid_on, due_on), given as an instant's ISO text; the pieces are text ranges. */
export function textEdge(iso: string, unit: BucketUnit): BucketEdge<string> {
  const key = bucketKeyOf(nearestBoundary(Date.parse(iso), unit), unit);
  if (key === iso) return { key, sign: 0, lo: iso, hi: iso };
  return key < iso ? { key, sign: 1, lo: key, hi: iso } : { key, sign: -1, lo: iso, hi: key };
}

/**
 * Sums per interval [edges[i], edges[i+1]) and group: the rollup rows whose bucket lies between the two
 * edges' keys, corrected by each edge's raw piece (`pieces` hold the raw sums per edge index and group).
 * Values are bigint columns (a count, an amount in minor units).
 */
export function intervalSums(
  edges: readonly BucketEdge<number | string>[],
  buckets: readonly { bucket: string; group: string; values: readonly bigint[] }[],
  pieces: readonly { edge: number; group: string; values: readonly bigint[] }[],
): Map<string, bigint[]>[] {
  const intervals = edges.slice(1).map(() => new Map<string, bigint[]>());
  const add = (interval: number, group: string, values: readonly bigint[], sign: bigint) => {
    const target = intervals[interval];
    if (!target) return;
    const sums = target.get(group) ?? values.map(() => 0n);
    values.forEach((v, i) => {
      sums[i] = sums[i]! + sign * v;
    });
    target.set(group, sums);
  };
  for (const row of buckets) {
    const interval = edges.findIndex(
      (e, i) => i + 1 < edges.length && row.bucket >= e.key && row.bucket < edges[i + 1]!.key,
    );
    if (interval >= 0) add(interval, row.group, row.values, 1n);
  }
  for (const piece of pieces) {
    const sign = BigInt(edges[piece.edge]!.sign);
    // The piece corrects the count before its edge: the interval it ends adds it, the one it starts subtracts it.
    add(piece.edge - 1, piece.group, piece.values, sign);
    add(piece.edge, piece.group, piece.values, -sign);
  }
  return intervals;
}

/** The raw pieces of the edges that have one, as `(edge, lo, hi)` rows for a VALUES list. */
export function piecesOf<T extends number | string>(edges: readonly BucketEdge<T>[]) {
  return edges.flatMap((e, edge) => (e.sign === 0 ? [] : [{ edge, lo: e.lo, hi: e.hi }]));
}

/** SQL: the UTC month (`YYYY-MM`) or day (`YYYY-MM-DD`) of an epoch-ms expression, as bucketKeyOf. */
export function bucketOfMsSql(expression: string, unit: BucketUnit, kind: StoreKind): string {
  return kind === 'postgres'
    ? `to_char(to_timestamp((${expression}) / 1000.0) at time zone 'UTC', '${unit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD'}')`
    : `strftime('${unit === 'month' ? '%Y-%m' : '%Y-%m-%d'}', (${expression}) / 1000, 'unixepoch')`;
}

/** SQL: the UTC month (`YYYY-MM`) of an epoch-ms expression. */
export const monthOfMsSql = (expression: string, kind: StoreKind): string => bucketOfMsSql(expression, 'month', kind);

/**
 * Buckets of a stay's length for the median's histogram: hours up to 2 days, days up to 63, weeks up to
 * 104, then 4 weeks; integer arithmetic so that SQL (both dialects) and TypeScript agree on every edge.
 */
const HOUR = 3_600_000;
const LENGTH_UNITS = [
  { name: 'h', unit: HOUR, below: 48 * HOUR },
  { name: 'd', unit: DAY_MS, below: 63 * DAY_MS },
  { name: 'w', unit: 7 * DAY_MS, below: 728 * DAY_MS },
  { name: 'f', unit: 28 * DAY_MS, below: Number.POSITIVE_INFINITY },
] as const;

/** A length bucket's key (`d:12`) and its range [lo, hi) in ms. A negative length (a clock set back) is `n:0`. */
export function lengthBucket(ms: number): { key: string; lo: number; hi: number } {
  if (ms < 0) return { key: 'n:0', lo: Number.MIN_SAFE_INTEGER, hi: 0 };
  const u = LENGTH_UNITS.find((x) => ms < x.below)!;
  const n = Math.floor(ms / u.unit);
  return { key: `${u.name}:${n}`, lo: n * u.unit, hi: (n + 1) * u.unit };
}

/** The range of a length bucket key. */
export function lengthBucketRange(key: string): { lo: number; hi: number } {
  const [name, n] = key.split(':') as [string, string];
  if (name === 'n') return { lo: Number.MIN_SAFE_INTEGER, hi: 0 };
  const u = LENGTH_UNITS.find((x) => x.name === name)!;
  return { lo: Number(n) * u.unit, hi: (Number(n) + 1) * u.unit };
}

/** SQL: the length bucket key of an integer ms expression (integer division in both dialects). */
export function lengthBucketSql(expression: string): string {
  const cases = LENGTH_UNITS.map((u) =>
    Number.isFinite(u.below)
      ? `when ${expression} < ${u.below} then '${u.name}:' || (${expression} / ${u.unit})`
      : `else '${u.name}:' || (${expression} / ${u.unit})`,
  );
  return `case when ${expression} < 0 then 'n:0' ${cases.join(' ')} end`;
}

/**
 * The rows of `range(lo, hi)` for each piece, with its edge index: one index range per piece, planned
 * once. PostgreSQL: a LATERAL join over the pieces (a plain join on the ranges let it scan every row);
 * SQLite, which has no LATERAL: one branch per piece.
 */
export function perPiece<R>(
  kind: StoreKind,
  pieces: readonly { edge: number; lo: number | string; hi: number | string }[],
  range: (lo: unknown, hi: unknown) => RawBuilder<unknown>,
): RawBuilder<R & { edge: number }> {
  if (kind === 'sqlite')
    return sql`${sql.join(
      pieces.map((p) => sql`select ${p.edge} as edge, x.* from (${range(p.lo, p.hi)}) x`),
      sql` union all `,
    )}`;
  const type = typeof pieces[0]?.lo === 'string' ? sql`text` : sql`bigint`;
  const rows = pieces.map((p) => sql`(${p.edge}, cast(${p.lo} as ${type}), cast(${p.hi} as ${type}))`);
  return sql`with pieces(edge, lo, hi) as (values ${sql.join(rows)})
    select cast(p.edge as integer) as edge, x.* from pieces p cross join lateral (${range(sql`p.lo`, sql`p.hi`)}) x`;
}
