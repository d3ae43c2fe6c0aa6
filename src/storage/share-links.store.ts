import type { Kysely } from 'kysely';
import { INVOICE_ANSWER_COLUMNS, storedInvoiceOf, type StoredInvoice } from './invoices.store.js';
import { withAuditLine } from './audit-lines.js';
import { canName } from './keys.js';
import type { AuditEntry } from './records.js';
import type { Database } from './schema.js';

/** An invoice found by its share token, with the business it belongs to (its links and time zone need it). */
export interface SharedInvoice {
  urlKey: string;
  invoice: StoredInvoice;
}

/**
 * Invoice share links (invoices-interface 2.7, 8): the one read that finds an invoice without its business
 * (the public share page), and the operator's revocation. Nothing is cached: every share request reads
 * the row, so a revoked token is unknown to every process the moment the new one commits.
 */
export class ShareLinksStore {
  constructor(readonly db: Kysely<Database>) {}

  /** By the unique index on share_token; the caller still compares the token it got in constant time. */
  async findByToken(token: string): Promise<SharedInvoice | undefined> {
    if (!canName(token)) return undefined;
    const row = await this.db
      .selectFrom('invoices')
      .innerJoin('businesses', 'businesses.id', 'invoices.business_pk')
      .select(INVOICE_ANSWER_COLUMNS.map((column) => `invoices.${column}` as const))
      .select('businesses.url_key as business_url_key')
      .where('invoices.share_token', '=', token)
      .executeTakeFirst();
    return row && { urlKey: row.business_url_key, invoice: storedInvoiceOf(row) };
  }

  /** Gives the invoice a new token (the old one then finds nothing); undefined: no such invoice in this business. */
  async replaceToken(
    urlKey: string,
    invoiceId: string,
    token: string,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<StoredInvoice | undefined> {
    if (!canName(urlKey, invoiceId)) return undefined;
    const row = await withAuditLine(
      this.db,
      audit,
      (db) =>
        db
          .updateTable('invoices')
          .set({ share_token: token, updated_at: now })
          .where('business_pk', '=', (eb) =>
            eb.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', urlKey),
          )
          .where('invoice_id', '=', invoiceId)
          .returningAll()
          .executeTakeFirst(),
      (updated) => updated !== undefined,
    );
    return row && storedInvoiceOf(row);
  }
}
