import type { Kysely } from 'kysely';

/**
 * The ready parts of each client's answer (records.ts StoredAnswerParts). Nullable and not backfilled:
 * a row without them is presented from its data, as every row was before, so the migration is instant
 * on any table size and older rows answer exactly as they did.
 */
export function clientAnswersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('clients').addColumn('answer_head', 'text').execute();
      await db.schema.alterTable('clients').addColumn('answer_format', 'integer').execute();
      await db.schema.alterTable('clients').addColumn('custom_values', 'text').execute();
    },
    async down(): Promise<void> {
      throw new Error('the client answer columns are not reversible');
    },
  };
}
