import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { installSyncPositions, type SyncedTable } from '../sync-positions.js';

/** The invoices' sync positions (src/storage/sync-positions.ts): what repairSyncPositions checks at start. */
export const INVOICES_SYNCED: SyncedTable = { table: 'invoices', live: '1 = 1' };

/**
 * Invoice sync (invoices-interface 4.3, as leads-interface 4.4) on the commit-ordered positions of
 * migration 011: every invoice gets a change position, stamped on each write (a payment, a cancel);
 * the catch-up phase reads (business, updatedAt, _id), the follow phase (business, position, _id).
 */
export function invoiceSyncMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await installSyncPositions(db, kind, 'invoices', {
        backfillOrder: 'updated_at, invoice_id',
        index: { name: 'invoices_sync', columns: 'business_pk, sync_pos, invoice_id' },
      });
      await db.schema
        .createIndex('invoices_business_updated')
        .on('invoices')
        .columns(['business_pk', 'updated_at', 'invoice_id'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
