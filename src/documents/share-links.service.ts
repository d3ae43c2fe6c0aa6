import { AppError } from '../errors/app-error.js';
import { notFound, type InvoicesService } from '../invoices/invoices.service.js';
import type { InvoiceAnswer } from '../invoices/invoice.present.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { newShareToken, sameToken, TOKEN_SHAPE } from '../invoices/invoice.share-token.js';

/** The invoice a share token opens, and the business's time zone its dates are shown in. */
export interface SharedDocument {
  invoice: InvoiceAnswer;
  timeZone: string;
}

/**
 * Share links (invoices-interface 2.7, 4.7, 8): the public page's lookup and the operator's revocation.
 * Every way a token can fail (malformed, unknown, revoked, its business gone) ends in the one
 * `ShareNotFound`, so the page cannot tell them apart.
 */
export class ShareLinks {
  constructor(
    private readonly store: Store,
    private readonly invoices: InvoicesService,
    private readonly now: () => number,
  ) {}

  /** The invoice a token opens now; a malformed token never reaches the database. */
  async open(token: string): Promise<SharedDocument | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const found = await this.store.shareLinks.findByToken(token);
    if (!found || !sameToken(token, found.invoice.shareToken)) return undefined;
    try {
      const { timeZone } = await this.invoices.context(found.urlKey);
      return { invoice: this.invoices.present(found.urlKey, found.invoice), timeZone };
    } catch (error) {
      if (error instanceof AppError && error.code === 'BUSINESS_NOT_FOUND') return undefined;
      throw error;
    }
  }

  /**
   * A new token for the invoice: the old link is dead in every process once this commits (nothing caches it).
   * `audit`: the operator's line, written in the same transaction.
   */
  async revoke(urlKey: string, invoiceId: string, audit: AuditEntry | null = null): Promise<InvoiceAnswer> {
    await this.invoices.context(urlKey);
    const stored = await this.store.shareLinks.replaceToken(urlKey, invoiceId, newShareToken(), this.now(), audit);
    if (!stored) throw notFound();
    return this.invoices.present(urlKey, stored);
  }
}
