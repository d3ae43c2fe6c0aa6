import type { Kysely } from 'kysely';

/**
 * Saved lead filters (issue 39, docs/decisions.md "Saved lead filters"): per business and operator, a
 * name and the lead list's query string. The name is unique per operator and business, so saving under
 * a taken name replaces that filter in one statement (INSERT … ON CONFLICT). `public_id` is what the
 * API shows and deletes by. Additive only: an older build ignores the table.
 */
export function leadSavedFiltersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('lead_saved_filters')
        .addColumn('public_id', 'text', (c) => c.primaryKey())
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('operator_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('lead_saved_filters_name', ['business_pk', 'operator_id', 'name'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
