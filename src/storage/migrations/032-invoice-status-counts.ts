import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { invoiceContributions, invoiceUpsert, rollupTriggers } from './028-report-rollups.js';

/**
 * Live invoice counts per business, currency and status (issue 36 item 7): the `total` of a find by
 * nothing or by status (invoices-interface 4.3) becomes a sum over a few rollup rows instead of a count
 * of every invoice of the business (2.2 ms of CPU per answer at 77,000 invoices on SQLite; 400 ms of
 * PostgreSQL's at 1,000,000: docs/performance.md "Find's total from live counts").
 *
 * A new series of migration 028's `invoice_rollups`, `listed`, rather than a table of its own: the
 * invoices' rollup triggers already upsert one statement's rows in key order, and the new rows ride in
 * that statement (no second trigger, no second lock order). On PostgreSQL a `listed` row is spread over
 * the same slots as the `invoiced` month's row, by the same invoice id: the creates that would queue on
 * it already queue on that one. The triggers are replaced with ones that write the series, and the
 * invoices already there are counted once (the migration runs under the store's lock, before any write).
 */
export function invoiceStatusCountsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await rollupTriggers(db, kind, ['invoices']);
      await sql.raw(`delete from invoice_rollups where series = 'listed'`).execute(db);
      const listed = `select * from (${invoiceContributions('invoices i', '+', kind)}) c where series = 'listed'`;
      await sql.raw(invoiceUpsert(listed)).execute(db);
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
