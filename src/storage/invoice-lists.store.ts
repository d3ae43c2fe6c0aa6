import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import type { InvoiceListQuery, StoredInvoice } from './invoices.records.js';
import { storedInvoiceOf } from './invoices.store.js';
import { syncPage, type SyncCursor, type SyncPageSpec } from './sync-pages.js';
import type { InvoicesTable } from './schema.js';
import type { Selectable } from 'kysely';

type InvoiceRow = Selectable<InvoicesTable>;
import type { Database } from './schema.js';

type Query = SelectQueryBuilder<Database, 'invoices', object>;

/** One currency's sums over the invoices a filter selects (minor units). */
export interface InvoiceTotalsRow {
  currency: string;
  count: number;
  invoicedMinor: bigint;
  collectedMinor: bigint;
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
    const business = await this.db
      .selectFrom('businesses')
      .select('id')
      .where('url_key', '=', urlKey)
      .executeTakeFirst();
    if (!business) return undefined;
    if (query.sync) {
      const { rows, next } = await syncPage<InvoiceRow>(
        this.db,
        this.syncSpec(Number(business.id), query),
        query.sync.cursor,
      );
      return { total: null, page: rows.map(storedInvoiceOf), next };
    }
    const base = this.filtered(this.db.selectFrom('invoices').where('business_pk', '=', Number(business.id)), query);
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    if (query.limit === 0) return { total: Number(total), page: [], next: null };
    let ordered = base.selectAll();
    for (const { field, direction } of query.sort)
      ordered = ordered.orderBy(this.column(field), direction === 1 ? 'asc' : 'desc');
    const rows = await ordered
      .orderBy('created_at', 'desc')
      .orderBy('invoice_id', 'desc')
      .limit(query.limit)
      .offset(query.skip)
      .execute();
    return { total: Number(total), page: rows.map(storedInvoiceOf), next: null };
  }

  /**
   * Per currency, the invoices a find's filters select: how many, Σ total and Σ paid of those not canceled
   * (a canceled invoice is owed nothing), in minor units. Sums come back as digit strings: exact past 2^53.
   */
  async totals(urlKey: string, query: InvoiceListQuery): Promise<InvoiceTotalsRow[] | undefined> {
    const business = await this.db
      .selectFrom('businesses')
      .select('id')
      .where('url_key', '=', urlKey)
      .executeTakeFirst();
    if (!business) return undefined;
    const live = (column: 'total_minor' | 'paid_minor') =>
      sql<string>`cast(coalesce(sum(case when status <> 'CANCELED' then ${sql.ref(column)} else 0 end), 0) as text)`;
    const rows = await this.filtered(
      this.db.selectFrom('invoices').where('business_pk', '=', Number(business.id)),
      query,
    )
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
      select: sql`invoices.*`,
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
