import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { createSyncClock, installSyncPositions, type SyncedTable } from '../sync-positions.js';

/** The leads' sync positions (src/storage/sync-positions.ts): what repairSyncPositions checks at start. */
export const LEADS_SYNCED: SyncedTable = { table: 'leads', live: 't.removed = 0' };

/**
 * Issue 34: lead sync pages follow commit order. Every lead gets a change position (existing leads
 * numbered below every future one, in their old sync order, updatedAt then leadId), stamped on each
 * write; the sync page reads `(business, position, leadId)` over live leads, as the updatedAt index did.
 * On PostgreSQL the backfill rewrites every lead row once (at 1,000,000 leads: one pass, minutes at most).
 */
export function syncPositionsMigration(kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createSyncClock(db, kind);
      await installSyncPositions(db, kind, 'leads', {
        backfillOrder: 'updated_at, lead_id',
        index: { name: 'leads_sync', columns: 'business_pk, sync_pos, lead_id', where: 'removed = 0' },
      });
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
