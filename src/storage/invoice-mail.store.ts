import { sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import { canName } from './keys.js';
import type { Database } from './schema.js';

/** Who an invoice's mail goes to: the create request's `email`, normalised (invoices-interface 4.1). */
export interface MailRecipients {
  to: { name?: string; email: string };
  cc: string[];
}

/** A mail claimed for one attempt: the row is leased to this process until the claim's `leaseUntil`. */
export interface ClaimedMail {
  id: number;
  urlKey: string;
  invoiceId: string;
  recipients: MailRecipients;
  /** 1 for the first attempt. */
  attempt: number;
}

/** How an attempt ended: sent; failed and due again at `retryAt`; or failed for good (`retryAt` null). */
export type MailOutcome = { sent: true } | { error: string; retryAt: number | null };

/** What an operator (or a test) can learn of one invoice's mail. */
export interface MailStatus {
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  finishedAt: number | null;
}

/**
 * Queues an invoice's mail with `trx`, the creating transaction: a failed create queues nothing, and
 * the unique (business, invoice) key means an invoice is queued once whatever happens around it.
 */
export async function queueInvoiceMail(
  trx: Kysely<Database>,
  mail: { businessPk: number; invoiceId: string; recipients: MailRecipients; at: number },
): Promise<void> {
  await trx
    .insertInto('invoice_mail')
    .values({
      business_pk: mail.businessPk,
      invoice_id: mail.invoiceId,
      recipients: JSON.stringify(mail.recipients),
      state: 'pending',
      attempts: 0,
      next_attempt_at: mail.at,
      last_error: null,
      created_at: mail.at,
      finished_at: null,
    })
    .execute();
}

/** The invoice mail outbox: claims across processes (as the webhook outbox's), attempts, status. */
export class InvoiceMailStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
  ) {}

  /**
   * Claims due mails: each claim moves `next_attempt_at` to `leaseUntil` and counts the attempt, so no
   * other process takes the row while it is being sent, and a claim lost with its process (kill -9)
   * comes due again after the lease. PostgreSQL: rows locked FOR UPDATE SKIP LOCKED, so two processes
   * claiming at once take different rows; SQLite: one process, one writer.
   */
  async claim(now: number, limit: number, leaseUntil: number): Promise<ClaimedMail[]> {
    return this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('invoice_mail')
        .select('id')
        // A literal, so that both planners can use the partial index invoice_mail_due.
        .where(sql<boolean>`state = 'pending'`)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
      if (this.kind === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => Number(row.id));
      if (ids.length === 0) return [];
      await trx
        .updateTable('invoice_mail')
        .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', ids)
        .execute();
      const rows = await trx
        .selectFrom('invoice_mail as m')
        .innerJoin('businesses as b', 'b.id', 'm.business_pk')
        .select(['m.id', 'm.invoice_id', 'm.recipients', 'm.attempts', 'b.url_key'])
        .where('m.id', 'in', ids)
        .orderBy('m.id')
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        urlKey: row.url_key,
        invoiceId: row.invoice_id,
        recipients: JSON.parse(row.recipients) as MailRecipients,
        attempt: Number(row.attempts),
      }));
    });
  }

  /**
   * Records an attempt's outcome. Only the claim that made this attempt may: a process whose lease ran
   * out, and whose row was claimed again, changes nothing here.
   */
  async finish(mail: ClaimedMail, outcome: MailOutcome, at: number): Promise<void> {
    const set =
      'sent' in outcome
        ? { state: 'sent', last_error: null, finished_at: at }
        : outcome.retryAt === null
          ? { state: 'failed', last_error: outcome.error, finished_at: at }
          : { next_attempt_at: outcome.retryAt, last_error: outcome.error };
    await this.db
      .updateTable('invoice_mail')
      .set(set)
      .where('id', '=', mail.id)
      .where('state', '=', 'pending')
      .where('attempts', '=', mail.attempt)
      .execute();
  }

  /** The invoice's mail, or undefined when none was queued (no `email`, or mail not configured then). */
  async status(urlKey: string, invoiceId: string): Promise<MailStatus | undefined> {
    if (!canName(urlKey, invoiceId)) return undefined;
    const row = await this.db
      .selectFrom('invoice_mail')
      .select(['state', 'attempts', 'last_error', 'finished_at'])
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return (
      row && {
        state: row.state as MailStatus['state'],
        attempts: Number(row.attempts),
        lastError: row.last_error,
        finishedAt: row.finished_at === null ? null : Number(row.finished_at),
      }
    );
  }
}
