import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { idColumn } from '../migration-parts/id-column.js';

/** The whole first schema. Later migrations must stay backward compatible for one release. */
export function initialMigration(kind: StoreKind) {
  const id = idColumn(kind);

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('operators'))
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Created here, under the migration lock, so that every process signs and verifies with the same key.
      await db
        .insertInto('signing_keys' as never)
        .values({
          kid: randomBytes(9).toString('base64url'),
          secret: randomBytes(32).toString('base64url'),
          created_at: Date.now(),
        } as never)
        .execute();

      await id(db.schema.createTable('businesses'))
        .addColumn('url_key', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('custom_fields_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await id(db.schema.createTable('apps'))
        .addColumn('app_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('secret_version', 'integer', (c) => c.notNull())
        .addColumn('public_key_pem', 'text', (c) => c.notNull())
        .addColumn('key_version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('app_businesses')
        .addColumn('app_pk', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_businesses_pk', ['app_pk', 'business_pk'])
        .execute();

      await db.schema
        .createTable('pipeline_configs')
        .addColumn('business_pk', 'bigint', (c) => c.primaryKey().references('businesses.id').onDelete('cascade'))
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('custom_field_sets')
        .addColumn('business_pk', 'bigint', (c) => c.primaryKey().references('businesses.id').onDelete('cascade'))
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await id(db.schema.createTable('clients'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('client_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The idempotency key: one clientId per business, whatever the client's status. NULLs (dashboard clients) never collide.
      await db.schema
        .createIndex('clients_business_client_id')
        .unique()
        .on('clients')
        .columns(['business_pk', 'client_id'])
        .execute();

      await db.schema
        .createTable('client_balances')
        .addColumn('client_pk', 'bigint', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('member', 'text', (c) => c.notNull())
        .addColumn('amount_e4', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('client_balances_pk', ['client_pk', 'member'])
        .execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();

      await id(db.schema.createTable('audit_log'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('operator_email', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('business_url_key', 'text')
        .addColumn('detail', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
      void sql;
    },
    async down(): Promise<void> {
      throw new Error('the initial schema is not reversible');
    },
  };
}
