import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import type { InvoiceListQuery, StoredInvoice } from './invoices.records.js';
import { storedInvoiceOf } from './invoices.store.js';
import type { Database } from './schema.js';

type Query = SelectQueryBuilder<Database, 'invoices', object>;

/** A find's page and its total: the filters of one business, walked in the sort asked for (indexes: migration 012). */
export class InvoiceListsStore {
  constructor(private readonly db: Kysely<Database>, private readonly kind: StoreKind) {}

  async find(urlKey: string, query: InvoiceListQuery): Promise<{ total: number; page: StoredInvoice[] } | undefined> {
    const business = await this.db.selectFrom('businesses').select('id').where('url_key', '=', urlKey).executeTakeFirst();
    if (!business) return undefined;
    const base = this.filtered(this.db.selectFrom('invoices').where('business_pk', '=', Number(business.id)), query);
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    if (query.limit === 0) return { total: Number(total), page: [] };
    let ordered = base.selectAll();
    for (const { field, direction } of query.sort) ordered = ordered.orderBy(this.column(field), direction === 1 ? 'asc' : 'desc');
    const rows = await ordered.orderBy('created_at', 'desc').orderBy('invoice_id', 'desc').limit(query.limit).offset(query.skip).execute();
    return { total: Number(total), page: rows.map(storedInvoiceOf) };
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
