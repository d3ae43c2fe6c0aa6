import { plain } from '../invoices/invoice.parties.js';
import type { MailRecipients } from '../storage/invoice-mail.store.js';

/**
 * The create side of invoice mail: whether an invoice's `email` is queued (only with SMTP_URL set, so
 * setting it later never mails old invoices), in what form, and the wake-up of this process's sender
 * once the creating transaction has committed.
 */
export class InvoiceMailQueue {
  private wake: () => void = () => {};

  constructor(private readonly configured: boolean) {}

  /** The recipients to queue for the create request's `email` (read values), or null: nothing to send. */
  recipientsOf(email: unknown): MailRecipients | null {
    if (!this.configured || email === null || email === undefined) return null;
    const sent = plain(email) as { to: { name?: string; email: string }; cc?: string[] };
    return {
      to: { ...(sent.to.name && { name: sent.to.name }), email: sent.to.email },
      cc: [...new Set(sent.cc ?? [])],
    };
  }

  /** After a commit that queued mail: this process's sender looks now (others at their next poll). */
  queued(): void {
    this.wake();
  }

  onQueued(wake: () => void): void {
    this.wake = wake;
  }
}
