import { sql, type Kysely } from 'kysely';
import type { StoreKind } from '../db.js';
import { idColumn } from '../migration-parts/id-column.js';

/**
 * The invoice mail outbox (docs/invoice-documents.md "E-mail"): one row per invoice created with `email`
 * while SMTP_URL was set, written in the creating transaction. The unique (business, invoice) pair is
 * what makes "one mail per invoice" a fact of the database rather than of any process. A row stays
 * after it is sent or given up: it is the record of what happened to that invoice's mail.
 * Additive only: an older build ignores the table.
 */
export function invoiceMailMigration(kind: StoreKind) {
  const id = idColumn(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('invoice_mail'))
        .addColumn('business_pk', 'bigint', (c) => c.notNull().references('businesses.id').onDelete('cascade'))
        .addColumn('invoice_id', 'text', (c) => c.notNull())
        // {to: {name?, email}, cc: [email]} as the create request gave them, normalised.
        .addColumn('recipients', 'text', (c) => c.notNull())
        // pending (due at next_attempt_at, or claimed until it), sent, failed (given up).
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addUniqueConstraint('invoice_mail_invoice', ['business_pk', 'invoice_id'])
        .execute();
      // The worker's one question, what is due: pending rows only, so sent ones cost the claim nothing.
      await db.schema
        .createIndex('invoice_mail_due')
        .on('invoice_mail')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('state'), '=', sql.lit('pending'))
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
