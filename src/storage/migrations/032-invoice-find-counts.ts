import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { invoiceContributions, invoiceUpsert, paymentContributions, rollupTriggers } from './028-report-rollups.js';

/**
 * Live invoice counts per business and currency (issue 36 item 7): `listed` by status, `dated` by UTC day
 * of invoice date. The `total` of a find by nothing, by status or by invoiceDate (invoices-interface 4.3)
 * becomes a sum over a few rollup rows (and, for a date bound, the invoices of at most half a day at each
 * edge) instead of a count of every invoice the filter selects: 2.2 ms of CPU per answer at 77,000
 * invoices on SQLite; 400 ms of PostgreSQL's at 1,000,000 (docs/performance.md "Find's total from live
 * counts").
 *
 * Series of the rollups rather than a table of their own: the invoices' rollup triggers already upsert
 * one statement's rows in key order, and the new rows ride in that statement (no second trigger, no
 * second lock order). On PostgreSQL a new row is spread over the same slots as the `invoiced` month's
 * row, by the same invoice id: the creates that would queue on it already queue on that one.
 *
 * The invoices' and payments' rollups also spread over INVOICE_ROLLUP_SLOTS (16) rather than 4 on
 * PostgreSQL (measured in 028-report-rollups). The triggers of both tables are replaced, and the invoice
 * rollups are computed again from the rows (every series, so that each row sits in the slot a trigger
 * would now write), under the store's lock before any write: 6 s for 1,000,000 invoices at load 12.
 */
export function invoiceFindCountsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await rollupTriggers(db, kind, ['invoices', 'invoice_payments']);
      const run = (text: string) => sql.raw(text).execute(db);
      await run('delete from invoice_rollups');
      await run(invoiceUpsert(invoiceContributions('invoices i', '+', kind)));
      await run(invoiceUpsert(paymentContributions('invoice_payments p', '+', kind)));
      if (kind === 'postgres') await run('analyze invoice_rollups');
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
