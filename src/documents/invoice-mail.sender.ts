import { Rounds } from '../ops/rounds.js';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport } from 'nodemailer';
import type { CachedLoader } from '../cache/cached-loader.js';
import { publicUrlOf, type Config } from '../config.js';
import { presentInvoice } from '../invoices/invoice.present.js';
import type { LeadContext } from '../leads/lead-context.js';
import type { ClaimedMail, MailOutcome } from '../storage/invoice-mail.store.js';
import type { Store } from '../storage/store.js';
import { retryDelayMs } from '../webhooks/retry-schedule.js';
import type { InvoiceAnswer } from './invoice-document.types.js';
import { invoiceMessage } from './invoice-mail.message.js';
import { createPdfPool, type PdfPool } from './pdf-pool.js';

/** Mails claimed at once: mail is rare beside requests, and each holds a PDF in memory while it is sent. */
const BATCH = 4;
/** Time a PDF may take to render (a 500-item invoice takes about a second), within the claim's lease. */
const RENDER_ALLOWANCE_MS = 60_000;

export type MailSenderConfig = Pick<
  Config,
  'smtpUrl' | 'mailFrom' | 'mailRetryBaseMs' | 'mailPollMs' | 'smtpTimeoutMs' | 'publicUrl' | 'host' | 'port'
>;

/** An SMTP refusal the server calls permanent (5xx: no such mailbox, policy): retrying cannot help. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What the row records of a failure: the server's answer or the error's text, never a credential or a stack. */
function describe(error: unknown): string {
  const { response, code, message } = error as { response?: unknown; code?: unknown; message?: unknown };
  const text = typeof response === 'string' ? response : typeof message === 'string' ? message : String(error);
  return (typeof code === 'string' ? `${code}: ${text}` : text).slice(0, 500);
}

/**
 * Sends the invoice mail outbox: claims due mail (claims never overlap across processes), renders each
 * invoice's PDF in a worker thread, sends it through SMTP_URL, and records the outcome: sent; a
 * temporary failure due again on the webhook retry schedule (in units of MAIL_RETRY_BASE_MS); a
 * permanent refusal, or the schedule's end, given up with the error kept.
 */
export class InvoiceMailSender {
  private readonly rounds: Rounds;
  private pool: PdfPool | null = null;
  private readonly transport;
  private readonly publicHost: string;

  constructor(
    private readonly store: Store,
    private readonly config: MailSenderConfig & { smtpUrl: string; mailFrom: string },
    private readonly contexts: CachedLoader<LeadContext>,
    private readonly now: () => number,
    private readonly logger?: FastifyBaseLogger,
  ) {
    const timeout = config.smtpTimeoutMs;
    this.rounds = new Rounds(() => this.round(), config.mailPollMs);
    this.transport = createTransport({
      url: config.smtpUrl,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    this.publicHost = new URL(publicUrlOf(config)).hostname;
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
    this.transport.close();
    await this.pool?.close();
    this.pool = null;
  }

  /** Look for due work now (or right after the current round). */
  wake(): void {
    this.rounds.wake();
  }

  private async round(): Promise<void> {
    try {
      // The lease outlasts an attempt (render, then connect, greet and a few commands), so a live
      // claim never comes due again; a claim lost with its process is sent again once it runs out.
      const lease = RENDER_ALLOWANCE_MS + 8 * this.config.smtpTimeoutMs;
      while (this.rounds.active) {
        const now = this.now();
        const claimed = await this.store.invoiceMail.claim(now, BATCH, now + lease);
        await Promise.all(claimed.map((mail) => this.attempt(mail)));
        if (claimed.length < BATCH) return;
      }
    } catch (error) {
      this.logger?.warn({ err: error }, 'invoice mail round failed; retrying at the next poll');
    }
  }

  private async attempt(mail: ClaimedMail): Promise<void> {
    let outcome: MailOutcome;
    try {
      outcome = await this.send(mail);
    } catch (error) {
      const retryAt = isPermanent(error) ? null : retryDelayMs(mail.attempt, this.config.mailRetryBaseMs);
      outcome = { error: describe(error), retryAt: retryAt === null ? null : this.now() + retryAt };
      this.logger?.warn(
        { urlKey: mail.urlKey, invoiceId: mail.invoiceId, attempt: mail.attempt, error: outcome.error },
        outcome.retryAt === null ? 'invoice mail given up' : 'invoice mail failed; retrying',
      );
    }
    try {
      await this.store.invoiceMail.finish(mail, outcome, this.now());
    } catch (error) {
      this.logger?.warn({ err: error }, 'invoice mail outcome not recorded; the mail is tried again after its lease');
    }
  }

  private async send(mail: ClaimedMail): Promise<MailOutcome> {
    const stored = await this.store.invoices.findInvoice(mail.urlKey, mail.invoiceId);
    if (!stored) return { error: 'the invoice no longer exists', retryAt: null };
    if (stored.status === 'CANCELED')
      return { error: 'the invoice was canceled before its mail was sent', retryAt: null };
    const context = await this.contexts.get(mail.urlKey);
    if (!context) return { error: 'the business no longer exists', retryAt: null };
    const invoice = presentInvoice(stored, { publicUrl: publicUrlOf(this.config), urlKey: mail.urlKey });
    const document = invoice as unknown as InvoiceAnswer & { _id: string };
    this.pool ??= createPdfPool({ threads: 1 });
    const pdf = await this.pool.render({ invoice: document, timeZone: context.timeZone });
    const message = invoiceMessage(document, mail.recipients, pdf, {
      mailFrom: this.config.mailFrom,
      publicHost: this.publicHost,
      timeZone: context.timeZone,
    });
    await this.transport.sendMail(message);
    return { sent: true };
  }
}
