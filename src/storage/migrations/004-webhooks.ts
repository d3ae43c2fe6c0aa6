import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { idColumn } from '../migration-parts/id-column.js';

/**
 * Webhooks: endpoints per business, the outbox (one row per event and endpoint, written in the
 * transaction of the change that causes it) and the delivery log. Additive only: an older build
 * ignores these tables.
 */
export function webhooksMigration(kind: StoreKind) {
  const id = idColumn(kind);

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('webhook_endpoints'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        // Kept as issued: an HMAC key must be usable, so it cannot be hashed (docs/decisions.md).
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_business')
        .on('webhook_endpoints')
        .columns(['business_pk'])
        .execute();

      await id(db.schema.createTable('webhook_outbox'))
        .addColumn('endpoint_pk', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('resource_key', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The worker's two questions: what is due, and is an earlier event of the same resource still pending.
      await db.schema
        .createIndex('webhook_outbox_due')
        .on('webhook_outbox')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_outbox_order')
        .on('webhook_outbox')
        .columns(['endpoint_pk', 'resource_key', 'state', 'id'])
        .execute();
      await db.schema
        .createIndex('webhook_outbox_message')
        .on('webhook_outbox')
        .columns(['endpoint_pk', 'message_id'])
        .execute();

      await id(db.schema.createTable('webhook_attempts'))
        .addColumn('endpoint_pk', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_endpoint')
        .on('webhook_attempts')
        .columns(['endpoint_pk', 'id'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
