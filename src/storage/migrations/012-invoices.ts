import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { idColumn } from '../migration-parts/id-column.js';

/**
 * Invoices (invoices-interface.md): the invoices, their payments, each business's invoice settings and
 * numbering state, and the buyers invoices created clients for. An invoice's content never changes, so
 * it is one JSON document (`content`); columns exist for what find filters or sorts on, what a payment
 * or cancel changes, and the sums the client's balance needs (money in whole minor units).
 */
export function invoicesMigration(kind: StoreKind) {
  const id = idColumn(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('invoices'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        // 24 hex characters of random bytes; unique over every business, so never reused.
        .addColumn('invoice_id', 'text', (c) => c.notNull().unique())
        .addColumn('invoice_number', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('total_minor', 'bigint', (c) => c.notNull())
        .addColumn('paid_minor', 'bigint', (c) => c.notNull())
        .addColumn('invoice_date', 'bigint', (c) => c.notNull())
        .addColumn('share_token', 'text', (c) => c.notNull().unique())
        .addColumn('content', 'text', (c) => c.notNull())
        // The normalised create request, compared on a retry of the same number (invoices-interface 4.1).
        .addColumn('create_request', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // Numbers are unique per business, case-sensitive; the index also serves the exact-number filter and its sort.
      await db.schema
        .createIndex('invoices_business_number')
        .unique()
        .on('invoices')
        .columns(['business_pk', 'invoice_number'])
        .execute();
      // find's default order (createdAt, _id descending) and each filter, each walked in that order.
      await db.schema
        .createIndex('invoices_business_created')
        .on('invoices')
        .columns(['business_pk', 'created_at', 'invoice_id'])
        .execute();
      await db.schema
        .createIndex('invoices_business_client')
        .on('invoices')
        .columns(['business_pk', 'client_id', 'created_at', 'invoice_id'])
        .execute();
      await db.schema
        .createIndex('invoices_business_status')
        .on('invoices')
        .columns(['business_pk', 'status', 'created_at', 'invoice_id'])
        .execute();
      await db.schema
        .createIndex('invoices_business_date')
        .on('invoices')
        .columns(['business_pk', 'invoice_date', 'invoice_id'])
        .execute();

      await id(db.schema.createTable('invoice_payments'))
        .addColumn('invoice_pk', 'bigint', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
        .addColumn('payment_id', 'text', (c) => c.notNull().unique())
        // amount + tds + transactionCharge, in minor units: what the payment settles.
        .addColumn('settled_minor', 'bigint', (c) => c.notNull())
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invoice_payments_invoice')
        .on('invoice_payments')
        .columns(['invoice_pk', 'created_at', 'payment_id'])
        .execute();

      // One row per business that has invoiced or saved settings: the lock every create takes, so numbers
      // are assigned one create at a time across processes; the last number the next one continues.
      await db.schema
        .createTable('invoice_settings')
        .addColumn('business_pk', 'bigint', (c) => c.primaryKey().references('businesses.id').onDelete('cascade'))
        .addColumn('doc', 'text')
        .addColumn('last_number', 'text')
        // Set when an operator saves a numbering: the next auto number starts the series there.
        .addColumn('series_start', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      // The clients invoices created, by the buyer's match key (invoices-interface 3.6).
      await db.schema
        .createTable('invoice_buyers')
        .addColumn('client_pk', 'bigint', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull())
        .addColumn('match_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invoice_buyers_key')
        .on('invoice_buyers')
        .columns(['business_pk', 'match_key'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
