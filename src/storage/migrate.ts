import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from './db.js';
import { initialMigration } from './migrations/001-initial.js';
import { leadsMigration } from './migrations/002-leads.js';
import { leadsSearchMigration } from './migrations/003-leads-search.js';
import { webhooksMigration } from './migrations/004-webhooks.js';
import { operatorMigration } from './migrations/005-operator.js';
import { leadCountsMigration } from './migrations/006-lead-counts.js';
import { leadWordsMigration } from './migrations/007-lead-words.js';
import { leadWordsBestMigration } from './migrations/008-lead-words-best.js';
import { outboxClaimsMigration } from './migrations/009-outbox-claims.js';
import { LEADS_SYNCED, syncPositionsMigration } from './migrations/011-sync-positions.js';
import { invoicesMigration } from './migrations/012-invoices.js';
import { INVOICES_SYNCED, invoiceSyncMigration } from './migrations/013-invoice-sync.js';
import { idempotencyKeysMigration } from './migrations/015-idempotency-keys.js';
import { leadBudgetSumsMigration } from './migrations/020-lead-budget-sums.js';
import { invoiceMailMigration } from './migrations/022-invoice-mail.js';
import { leadSavedFiltersMigration } from './migrations/027-lead-saved-filters.js';
import { reportAggregatesMigration } from './migrations/026-report-aggregates.js';
import { reportRollupsMigration } from './migrations/028-report-rollups.js';
import { invoiceNumberOrderMigration } from './migrations/023-invoice-number-order.js';
import { webhookAttemptsMessageMigration } from './migrations/031-webhook-attempts-message.js';
import { invoiceFindCountsMigration } from './migrations/032-invoice-find-counts.js';
import { invoiceDatePageMigration } from './migrations/033-invoice-date-page.js';
import { repairSyncPositions } from './sync-positions.js';

export class SchemaTooNewError extends Error {}

/** Every migration by name, in order (exported for tests that start from an older schema). */
export function migrations(kind: StoreKind): Record<string, Migration> {
  return {
    '001-initial': initialMigration(kind),
    '002-leads': leadsMigration(kind),
    '003-leads-search': leadsSearchMigration(kind),
    '004-webhooks': webhooksMigration(kind),
    '005-operator': operatorMigration(kind),
    '006-lead-counts': leadCountsMigration(kind),
    '007-lead-words': leadWordsMigration(kind),
    '008-lead-words-best': leadWordsBestMigration(kind),
    '009-outbox-claims': outboxClaimsMigration(),
    '011-sync-positions': syncPositionsMigration(kind),
    '012-invoices': invoicesMigration(kind),
    '013-invoice-sync': invoiceSyncMigration(kind),
    '015-idempotency-keys': idempotencyKeysMigration(),
    '020-lead-budget-sums': leadBudgetSumsMigration(kind),
    '022-invoice-mail': invoiceMailMigration(kind),
    '023-invoice-number-order': invoiceNumberOrderMigration(kind),
    '026-report-aggregates': reportAggregatesMigration(kind),
    '027-lead-saved-filters': leadSavedFiltersMigration(),
    '028-report-rollups': reportRollupsMigration(kind),
    '031-webhook-attempts-message': webhookAttemptsMessageMigration(),
    '032-invoice-find-counts': invoiceFindCountsMigration(kind),
    '033-invoice-date-page': invoiceDatePageMigration(kind),
  };
}

/**
 * The names migrations were recorded under before issue 35 numbered them uniquely (two shared 002, so
 * every later one moved up by one). A database migrated by an older build still records these: they are
 * renamed before the Migrator reads the record, which then finds every migration applied. The history
 * keeps its order (Kysely orders it by time, then name), so nothing runs twice.
 */
export const FORMER_NAMES: Readonly<Record<string, string>> = {
  '002-leads-search': '003-leads-search',
  '003-webhooks': '004-webhooks',
  '004-operator': '005-operator',
  '005-lead-counts': '006-lead-counts',
  '006-lead-words': '007-lead-words',
  '007-lead-words-best': '008-lead-words-best',
  '008-outbox-claims': '009-outbox-claims',
};

/** Kysely's record of applied migrations (its default name). */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * One statement, so that two processes starting at once cannot interleave: the second finds no former
 * name left. A database that has no record yet (a new one) has nothing to rename.
 */
async function renameFormerMigrations(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const found =
    kind === 'postgres'
      ? await sql<{ found: boolean }>`select to_regclass(${MIGRATION_TABLE}) is not null as found`.execute(db)
      : await sql<{
          found: number;
        }>`select count(*) as found from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(db);
  if (!found.rows[0]?.found) return;
  const cases = sql.join(
    Object.entries(FORMER_NAMES).map(([former, now]) => sql`when ${former} then ${now}`),
    sql` `,
  );
  await sql`update ${sql.table(MIGRATION_TABLE)} set name = case name ${cases} end
    where name in (${sql.join(Object.keys(FORMER_NAMES))})`.execute(db);
}

/** The newest migration this build knows: reported by /healthz. */
export const SCHEMA_VERSION = Object.keys(migrations('sqlite')).at(-1)!;

/**
 * Runs pending migrations under the store's lock (a PostgreSQL session advisory lock, so `db` must hold a
 * session: never a transaction-mode pooler, see openStore; SQLite's write lock),
 * so that two processes starting at once do not collide. Twice is harmless.
 */
export async function migrateToLatest(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const known = migrations(kind);
  await renameFormerMigrations(db, kind);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => known } });
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
  // The word table's backfill (007-lead-words, rebuilt by 008-lead-words-best) is read index-only, which
  // needs its visibility map: vacuumed once here (outside the migration's transaction) rather than
  // minutes later by autovacuum.
  if (
    kind === 'postgres' &&
    results?.some((r) => /^00[78]-lead-words/.test(r.migrationName) && r.status === 'Success')
  ) {
    await sql`vacuum (analyze) lead_words`.execute(db);
  }
  // A database restored into a new cluster: sync positions continue above the stored ones.
  await repairSyncPositions(db, kind, [LEADS_SYNCED, INVOICES_SYNCED]);
}
