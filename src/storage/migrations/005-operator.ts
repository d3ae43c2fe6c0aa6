import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

/**
 * Operator pages (issue 26 item 12): archive of businesses and apps (a time, null while live), the
 * time an app last used its credentials (written at most once a minute per app and process, never
 * per request), and a session version per operator that a password change bumps, which ends the
 * operator's other sessions.
 */
export function operatorMigration(_kind: StoreKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('businesses').addColumn('archived_at', 'bigint').execute();
      await db.schema.alterTable('apps').addColumn('archived_at', 'bigint').execute();
      await db.schema.alterTable('apps').addColumn('last_used_at', 'bigint').execute();
      await db.schema
        .alterTable('operators')
        .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('005-operator is not reversible');
    },
  };
}
