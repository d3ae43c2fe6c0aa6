import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import type { InvoiceListQuery, StoredInvoice, StoredInvoiceText } from './invoices.records.js';
import { INVOICE_ANSWER_COLUMNS, storedInvoiceOf, storedInvoiceTextOf, type InvoiceRow } from './invoices.store.js';
import { msEdge, type BucketEdge } from './reports-buckets.js';
import { syncPage, syncStatements, type SyncCursor, type SyncPageSpec } from './sync-pages.js';
import type { Database } from './schema.js';

type Query = SelectQueryBuilder<Database, 'invoices', object>;

/** A business's row id, looked up by urlKey inside the statement that needs it (businessOf). */
type Business = RawBuilder<number>;

/** The business's id, looked up inside the statement (at most one row: url_key is unique). */
const businessOf = (urlKey: string): RawBuilder<number> =>
  sql<number>`(select b.id from businesses b where b.url_key = ${urlKey})`;

/** One currency's sums over the invoices a filter selects (minor units). */
export interface InvoiceTotalsRow {
  currency: string;
  count: number;
  invoicedMinor: bigint;
  collectedMinor: bigint;
}

/** At most this many invoices in a date range are read whole and sorted for a page in createdAt order. */
const DATE_RANGE_READ = 10_000;

/**
 * A page in createdAt order with an invoiceDate filter: PostgreSQL walks the createdAt index from the
 * newest invoice, expecting to meet the range soon (it assumes dates spread evenly over creation), but
 * invoice dates follow creation, so a range a year back read every newer invoice first (92,481 rows
 * thrown away for a week in the middle of 200,000, test/storage/invoices.plans.test.ts). When the total
 * says the range is small, the page reads the range by the date index and sorts it instead.
 */
function readsDateRange(query: InvoiceListQuery, total: number): boolean {
  const dated = query.filter.dateFrom !== undefined || query.filter.dateTo !== undefined;
  const byCreation = query.sort.every(({ field }) => field === 'createdAt');
  return dated && byCreation && total <= DATE_RANGE_READ;
}

/** A find's page and its total: the filters of one business, walked in the sort asked for (indexes: migration 012). */
export class InvoiceListsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
  ) {}

  async find(
    urlKey: string,
    query: InvoiceListQuery,
  ): Promise<{ total: number | null; page: StoredInvoice[]; next: SyncCursor | null } | undefined> {
    const found = await this.read(urlKey, query);
    return found && { ...found, page: found.page.map(storedInvoiceOf) };
  }

  /** The same page with each invoice's content left as its stored JSON text (the app's find composes its answer around it). */
  async findTexts(
    urlKey: string,
    query: InvoiceListQuery,
  ): Promise<{ total: number | null; page: StoredInvoiceText[]; next: SyncCursor | null } | undefined> {
    const found = await this.read(urlKey, query);
    return found && { ...found, page: found.page.map(storedInvoiceTextOf) };
  }

  private async read(
    urlKey: string,
    query: InvoiceListQuery,
  ): Promise<{ total: number | null; page: InvoiceRow[]; next: SyncCursor | null } | undefined> {
    if (query.sync) {
      const businessPk = await this.businessPk(urlKey);
      if (businessPk === undefined) return undefined;
      const { rows, next } = await syncPage<InvoiceRow>(this.db, this.syncSpec(businessPk, query), query.sync.cursor);
      return { total: null, page: rows, next };
    }
    const counted = await this.counted(urlKey, query).executeTakeFirstOrThrow();
    if (counted.business_pk === null) return undefined;
    const total = Number(counted.total);
    if (query.limit === 0) return { total, page: [], next: null };
    const rows = await this.page(businessOf(urlKey), query, readsDateRange(query, total)).execute();
    return { total, page: rows, next: null };
  }

  /** The statements a find runs (the page, then the total; a sync page's), for the plan checks of the tests. */
  async compile(urlKey: string, query: InvoiceListQuery): Promise<{ sql: string; parameters: readonly unknown[] }[]> {
    const businessPk = await this.businessPk(urlKey);
    if (businessPk === undefined) return [];
    if (query.sync)
      return syncStatements(this.syncSpec(businessPk, query), query.sync.cursor).map((s) => s.compile(this.db));
    const counted = this.counted(urlKey, query);
    const total = Number((await counted.executeTakeFirstOrThrow()).total);
    return [this.page(businessOf(urlKey), query, readsDateRange(query, total)).compile(), counted.compile()];
  }

  /**
   * The business and the find's total in one statement: each round trip to PostgreSQL was a socket write
   * and a read on both sides, and a find made three (the business, the total, the page), where GET invoice
   * makes one (docs/performance.md "A find's round trips"). Null business: no such business.
   */
  private counted(urlKey: string, query: InvoiceListQuery) {
    return this.db.selectNoFrom([
      sql<number | null>`${businessOf(urlKey)}`.as('business_pk'),
      sql<string>`(${this.count(businessOf(urlKey), query)})`.as('total'),
    ]);
  }

  private async businessPk(urlKey: string): Promise<number | undefined> {
    const business = await this.db
      .selectFrom('businesses')
      .select('id')
      .where('url_key', '=', urlKey)
      .executeTakeFirst();
    return business ? Number(business.id) : undefined;
  }

  /**
   * The statement of a find's total, from the live counts of migration 032-invoice-find-counts where the
   * filters allow: by nothing or by status, the `listed` rows (a few per currency); by invoiceDate alone,
   * the `dated` rows of the UTC days between the bounds, corrected at each bound by the invoices of the
   * at most half a day between it and the nearest day boundary (src/storage/reports-buckets.ts). Any other
   * filter counts the invoices it selects, through that filter's index.
   */
  private count(businessPk: Business, query: InvoiceListQuery) {
    const { statuses, dateFrom, dateTo, ...others } = query.filter;
    const dated = dateFrom !== undefined || dateTo !== undefined;
    if (Object.values(others).every((value) => value === undefined) && !(dated && statuses))
      return dated ? this.datedTotal(businessPk, dateFrom, dateTo) : this.listedTotal(businessPk, statuses);
    return this.filtered(this.db.selectFrom('invoices').where('business_pk', '=', businessPk), query).select(
      sql<string>`cast(count(*) as text)`.as('total'),
    );
  }

  private rollups(businessPk: Business, series: 'listed' | 'dated') {
    return this.db.selectFrom('invoice_rollups').where('business_pk', '=', businessPk).where('series', '=', series);
  }

  /** The invoices of these statuses (all without): their `listed` rows. */
  private listedTotal(businessPk: Business, statuses: string[] | undefined) {
    const rows = this.rollups(businessPk, 'listed');
    return (statuses ? rows.where('bucket', 'in', statuses) : rows).select(
      sql<string>`cast(coalesce(sum(n), 0) as text)`.as('total'),
    );
  }

  /** The invoices dated in [from, to] (either open): everything before to + 1 ms less everything before from. */
  private datedTotal(businessPk: Business, from: number | undefined, to: number | undefined) {
    const [lower, upper] = [from, to === undefined ? undefined : to + 1].map((at) =>
      at === undefined ? undefined : msEdge(at, 'day'),
    );
    // The rollups' key is (business, series, currency, bucket, slot): a day range is an index range only
    // within one currency. So the days are summed per currency, named from the few `listed` rows (the same
    // trigger writes both series), by a subquery the currency is a bound of. A range on the day alone read
    // every day of the business: 215 index pages and 2-4 ms of PostgreSQL at 1,000,000 invoices over four
    // years, against 10 pages and 0.2 ms.
    const bound = (op: '>=' | '<', edge: BucketEdge<number> | undefined) =>
      edge ? sql`and r.bucket ${sql.raw(op)} ${edge.key}` : sql``;
    const sum = sql`select coalesce(sum((select sum(r.n) from invoice_rollups r
        where r.business_pk = ${businessPk} and r.series = 'dated' and r.currency = c.currency
        ${bound('>=', lower)} ${bound('<', upper)})), 0)
      from (select distinct currency from invoice_rollups where business_pk = ${businessPk} and series = 'listed') c`;
    const piece = (edge: BucketEdge<number> | undefined) =>
      edge && edge.sign !== 0
        ? sql`${edge.sign} * (select count(*) from invoices where business_pk = ${businessPk}
            and invoice_date >= ${edge.lo} and invoice_date < ${edge.hi})`
        : sql`0`;
    return this.db.selectNoFrom(sql<string>`cast((${sum}) + ${piece(upper)} - ${piece(lower)} as text)`.as('total'));
  }

  /**
   * `byRange` (see readsDateRange): the page orders by createdAt through an expression no index holds, so
   * the range is read by the date index; that index holds created_at and the id (migration
   * 033-invoice-date-page), so the range is sorted on the index alone and only the page's rows are read
   * whole, by id.
   */
  private page(businessPk: Business, query: InvoiceListQuery, byRange: boolean) {
    const base = this.filtered(this.db.selectFrom('invoices').where('business_pk', '=', businessPk), query);
    if (!byRange) return this.inOrder(base.select(INVOICE_ANSWER_COLUMNS), query, sql`created_at`, query.skip);
    const ids = this.inOrder(base.select('id'), query, sql`created_at + 0`, query.skip);
    const rows = this.db.selectFrom('invoices').select(INVOICE_ANSWER_COLUMNS).where('id', 'in', ids);
    return this.inOrder(rows, query, sql`created_at`, 0);
  }

  /**
   * The find's sort, then newest first and by id, which makes the order total; `limit` rows after `skip`.
   * A first page's limit is written into the statement, not sent as a value: PostgreSQL plans a prepared
   * statement with a LIMIT or OFFSET parameter again on every call (its generic plan, costed for an unknown
   * limit, never wins), about 1 ms of planning per find; with the limit written in (0 to 100, so a few
   * statement texts) it keeps the plan after five calls (docs/performance.md "A find's plan, kept"). A
   * later page keeps both as values: its offsets are many.
   */
  private inOrder<Q extends SelectQueryBuilder<Database, 'invoices', object>>(
    q: Q,
    query: InvoiceListQuery,
    createdAt: RawBuilder<unknown>,
    skip: number,
  ): Q {
    let ordered = q;
    for (const { field, direction } of query.sort)
      ordered = ordered.orderBy(
        field === 'createdAt' ? createdAt : this.column(field),
        direction === 1 ? 'asc' : 'desc',
      ) as Q;
    ordered = ordered.orderBy(createdAt, 'desc').orderBy('invoice_id', 'desc') as Q;
    if (skip > 0) return ordered.limit(query.limit).offset(skip) as Q;
    if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new Error(`invalid page limit ${query.limit}`);
    return ordered.limit(sql.lit(query.limit)) as Q;
  }

  /**
   * Per currency, the invoices a find's filters select: how many, Σ total and Σ paid of those not canceled
   * (a canceled invoice is owed nothing), in minor units. Sums come back as digit strings: exact past 2^53.
   */
  async totals(urlKey: string, query: InvoiceListQuery): Promise<InvoiceTotalsRow[] | undefined> {
    const businessPk = await this.businessPk(urlKey);
    if (businessPk === undefined) return undefined;
    const live = (column: 'total_minor' | 'paid_minor') =>
      sql<string>`cast(coalesce(sum(case when status <> 'CANCELED' then ${sql.ref(column)} else 0 end), 0) as text)`;
    const rows = await this.filtered(this.db.selectFrom('invoices').where('business_pk', '=', businessPk), query)
      .select((eb) => [
        'currency',
        eb.fn.countAll<number>().as('count'),
        live('total_minor').as('invoiced'),
        live('paid_minor').as('collected'),
      ])
      .groupBy('currency')
      .orderBy('currency')
      .execute();
    return rows.map((row) => ({
      currency: row.currency,
      count: Number(row.count),
      invoicedMinor: BigInt(row.invoiced),
      collectedMinor: BigInt(row.collected),
    }));
  }

  /** A sync page's parts (src/storage/sync-pages.ts): the business's invoices matching the filters. */
  private syncSpec(businessPk: number, { filter, limit }: InvoiceListQuery): SyncPageSpec {
    const conditions = [sql`invoices.business_pk = ${businessPk}`];
    const any = (column: string, values: string[]) => sql`${sql.ref(`invoices.${column}`)} in (${sql.join(values)})`;
    if (filter.clientIds) conditions.push(any('client_id', filter.clientIds));
    if (filter.statuses) conditions.push(any('status', filter.statuses));
    if (filter.invoiceNumber !== undefined) conditions.push(sql`invoices.invoice_number = ${filter.invoiceNumber}`);
    if (filter.dateFrom !== undefined) conditions.push(sql`invoices.invoice_date >= ${filter.dateFrom}`);
    if (filter.dateTo !== undefined) conditions.push(sql`invoices.invoice_date <= ${filter.dateTo}`);
    return {
      kind: this.kind,
      alias: 'invoices',
      key: 'invoice_id',
      from: sql`invoices`,
      conditions,
      select: sql.join(INVOICE_ANSWER_COLUMNS.map((column) => sql.ref(`invoices.${column}`))),
      limit: Math.max(limit, 1),
    };
  }

  private filtered(q: Query, { filter }: InvoiceListQuery): Query {
    let out = q;
    if (filter.clientIds) out = out.where('client_id', 'in', filter.clientIds);
    if (filter.statuses) out = out.where('status', 'in', filter.statuses);
    if (filter.invoiceNumber !== undefined) out = out.where('invoice_number', '=', filter.invoiceNumber);
    if (filter.dateFrom !== undefined) out = out.where('invoice_date', '>=', filter.dateFrom);
    if (filter.dateTo !== undefined) out = out.where('invoice_date', '<=', filter.dateTo);
    return out;
  }

  /** invoiceNumber sorts by code point: PostgreSQL's "C" collation (SQLite's default compares bytes, the same order). */
  private column(field: InvoiceListQuery['sort'][number]['field']) {
    if (field === 'createdAt') return sql`created_at`;
    if (field === 'invoiceDate') return sql`invoice_date`;
    return this.kind === 'postgres' ? sql`invoice_number collate "C"` : sql`invoice_number`;
  }
}
