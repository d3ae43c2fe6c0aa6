import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from './db.js';
import { initialMigration } from './migrations/001-initial.js';
import { leadsMigration } from './migrations/002-leads.js';
import { leadsSearchMigration } from './migrations/002-leads-search.js';
import { webhooksMigration } from './migrations/003-webhooks.js';
import { operatorMigration } from './migrations/004-operator.js';
import { leadCountsMigration } from './migrations/005-lead-counts.js';
import { leadWordsMigration } from './migrations/006-lead-words.js';
import { leadWordsBestMigration } from './migrations/007-lead-words-best.js';
import { outboxClaimsMigration } from './migrations/008-outbox-claims.js';
import { invoicesMigration } from './migrations/012-invoices.js';
import { INVOICES_SYNCED, invoiceSyncMigration } from './migrations/013-invoice-sync.js';
import { idempotencyKeysMigration } from './migrations/015-idempotency-keys.js';
import { LEADS_SYNCED, syncPositionsMigration } from './migrations/011-sync-positions.js';
import { repairSyncPositions } from './sync-positions.js';

export class SchemaTooNewError extends Error {}

/** Every migration by name, in order (exported for tests that start from an older schema). */
export function migrations(kind: StoreKind): Record<string, Migration> {
  return {
    '001-initial': initialMigration(kind), '002-leads': leadsMigration(kind), '002-leads-search': leadsSearchMigration(kind),
    '003-webhooks': webhooksMigration(kind),
    '004-operator': operatorMigration(kind),
    '005-lead-counts': leadCountsMigration(kind),
    '006-lead-words': leadWordsMigration(kind),
    '007-lead-words-best': leadWordsBestMigration(kind),
    '008-outbox-claims': outboxClaimsMigration(),
    '011-sync-positions': syncPositionsMigration(kind),
    '012-invoices': invoicesMigration(kind),
    '013-invoice-sync': invoiceSyncMigration(kind),
    '015-idempotency-keys': idempotencyKeysMigration(),
  };
}

/** The newest migration this build knows: reported by /healthz. */
export const SCHEMA_VERSION = '015-idempotency-keys';

/**
 * Runs pending migrations under the store's lock (a PostgreSQL session advisory lock, so `db` must hold a
 * session: never a transaction-mode pooler, see openStore; SQLite's write lock),
 * so that two processes starting at once do not collide. Twice is harmless.
 */
export async function migrateToLatest(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const known = migrations(kind);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => known } });
  const applied = await migrator.getMigrations().catch(() => []);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/missing|corrupted/i.test(message)) {
      throw new SchemaTooNewError(
        `The database schema is newer than this crmkit build knows (it has migrations this build lacks). Upgrade crmkit; known schema: ${SCHEMA_VERSION}.`,
      );
    }
    throw error;
  }
  void applied;
  // The word table's backfill (006-lead-words, rebuilt by 007-lead-words-best) is read index-only, which
  // needs its visibility map: vacuumed once here (outside the migration's transaction) rather than
  // minutes later by autovacuum.
  if (kind === 'postgres' && results?.some((r) => /^00[67]-lead-words/.test(r.migrationName) && r.status === 'Success')) {
    await sql`vacuum (analyze) lead_words`.execute(db);
  }
  // A database restored into a new cluster: sync positions continue above the stored ones.
  await repairSyncPositions(db, kind, [LEADS_SYNCED, INVOICES_SYNCED]);
}
