import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * A find by an invoiceDate range in createdAt order (the default sort) reads the range by the date index
 * and sorts it (src/storage/invoice-lists.store.ts, readsDateRange). With created_at and the row id in
 * that index, the sort runs on the index alone and only the page's rows are read whole: at 1,000,000
 * invoices a week's page (6,720 invoices) took PostgreSQL 13-15 ms warm with every row of the range read,
 * 3.3-3.5 ms this way (docs/performance.md "Three changes measured here"). PostgreSQL carries
 * them as INCLUDE columns; SQLite, which has no INCLUDE, as a last key column (its rowid, the id, is in
 * every index). The key columns, and so every plan that used the index, stay as they were.
 */
export function invoiceDatePageMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`drop index invoices_business_date`.execute(db);
      await (kind === 'postgres'
        ? sql`create index invoices_business_date on invoices (business_pk, invoice_date, invoice_id)
            include (created_at, id)`
        : sql`create index invoices_business_date on invoices (business_pk, invoice_date, invoice_id, created_at)`
      ).execute(db);
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
