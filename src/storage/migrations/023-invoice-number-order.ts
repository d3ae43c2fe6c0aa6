import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * find's `$sort[invoiceNumber]` orders by code point (invoices-interface 4.3): on PostgreSQL
 * `invoice_number collate "C"` (src/storage/invoice-lists.store.ts), which the unique index of
 * 012-invoices, in the database's collation, cannot serve: with many invoices the sort read the whole
 * table (test/storage/invoices.plans.test.ts). This index holds the numbers in that order. SQLite
 * compares bytes by default, so 012's index already serves it there.
 */
export function invoiceNumberOrderMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind !== 'postgres') return;
      await sql`create index invoices_business_number_c on invoices (business_pk, invoice_number collate "C")`.execute(
        db,
      );
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
