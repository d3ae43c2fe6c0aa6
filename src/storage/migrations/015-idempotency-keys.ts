import type { Kysely } from 'kysely';

/**
 * The Idempotency-Key header's claims and kept answers (invoices-interface 4.2; src/http/idempotency-key.ts).
 * One row per (business, caller, key): the primary key is what makes a claim atomic across processes
 * (INSERT … ON CONFLICT DO NOTHING). `token` names the request holding the row: every later write
 * of the row is conditional on it, so a request whose lease was taken over writes nothing.
 * `created_at` orders the pruning of expired rows. Additive only: an older build ignores the table.
 */
export function idempotencyKeysMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('caller', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        // null while the first request runs; the answer's status and exact body once it succeeded.
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['business_pk', 'caller', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
