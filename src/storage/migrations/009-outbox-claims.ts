import { sql, type Kysely } from 'kysely';

/**
 * The webhook outbox's indexes, split by a row's phase, so that writing an event touches only indexes
 * that grow at their end (issue 24: the outbox's cost to the change that writes it).
 *
 * 003 indexed every row by (endpoint, resource key, state, id), for the claim's question "is an earlier
 * event of this resource still pending". A resource key is as random as a client id, so each event
 * dirtied a page of its own in that index. Measured on SQLite (`npx tsx bench/experiments/outbox-pages.ts`: 50
 * creates per commit, after 10,000): WAL pages per create 1.25 without an event, 2.88 with one under
 * 003's indexes, 1.78 under these; CPU per create 18 -> 37 -> 26 µs. End to end the webhook scenario
 * did not move beyond the noise (bench/experiments/compare.ts A/B, docs/performance.md "What was tried"). Now:
 * - a new event (never attempted) is indexed by its row id alone: a claim takes new events in id order,
 *   a prefix, so an earlier new event of the same resource is always in that prefix (see
 *   WebhooksStore.claim);
 * - an attempted event (in flight or waiting to retry) is indexed by its resource, and by when it is
 *   due: a claim moves an event there, off the path of the write that made it;
 * - a delivered or given-up event is in neither.
 * Events are read by message id as before (resend), an index that grows at its end (ids begin with
 * their time).
 */
export function outboxClaimsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_outbox_new')
        .on('webhook_outbox')
        .column('id')
        .where(sql.ref('state'), '=', sql.lit('pending'))
        .where(sql.ref('attempts'), '=', sql.lit(0))
        .execute();
      await db.schema
        .createIndex('webhook_outbox_retry_due')
        .on('webhook_outbox')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('state'), '=', sql.lit('pending'))
        .where(sql.ref('attempts'), '>', sql.lit(0))
        .execute();
      await db.schema
        .createIndex('webhook_outbox_retry_order')
        .on('webhook_outbox')
        .columns(['endpoint_pk', 'resource_key', 'id'])
        .where(sql.ref('state'), '=', sql.lit('pending'))
        .where(sql.ref('attempts'), '>', sql.lit(0))
        .execute();
      await db.schema.dropIndex('webhook_outbox_due').execute();
      await db.schema.dropIndex('webhook_outbox_order').execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
