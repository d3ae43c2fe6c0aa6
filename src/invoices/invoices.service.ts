import { newShareToken } from './invoice.share-token.js';
import type { CachedLoader } from '../cache/cached-loader.js';
import { presentClient } from '../clients/client.present.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { LeadContext } from '../leads/lead-context.js';
import type { InvoiceInsert, NumberSeries, StoredInvoice } from '../storage/invoices.records.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { idempotentAnswer, withAssigned, type IdempotencyClaim } from '../storage/idempotency-keys.store.js';
import type { WebhookEvents } from '../webhooks/events.js';
import { buildInvoice, failedKeys, randomHex, type BuiltInvoice } from './invoice.build.js';
import { createRequestOf, sameCreateRequest, type CreateRequest } from './invoice.compare.js';
import { invoiceClientEvents, invoiceEvent } from './invoice.events.js';
import { pow10 } from './invoice.money.js';
import { followingCandidate, formatNumbering, nextInvoiceNumber, type InvoiceNumbering } from './invoice.numbering.js';
import { matchKeyOf, newClientValue, partyOf, sentParty } from './invoice.parties.js';
import type { InvoicePreview } from '../openapi/answer-types.js';
import {
  presentInvoice,
  presentInvoiceText,
  presentPageText,
  type InvoiceAnswer,
  type InvoiceContent,
} from './invoice.present.js';
import { encodeCursor, parseFindQuery } from './invoices.find.js';
import { isJsonObject } from '../validation/field-reader.js';
import { inBodyOrder, validateInvoice, type InvoiceInput } from './invoice.validate.js';
import type { InvoiceSettings } from './invoice-settings.service.js';
import type { InvoiceMailQueue } from '../documents/invoice-mail.queue.js';

/** A find page (4.3); a sync page also carries nextCursor (null only on an empty page: nothing follows yet) and total null. */
export interface FindPage {
  total: number | null;
  limit: number;
  skip: number;
  data: InvoiceAnswer[];
  nextCursor?: string | null;
}

export type CreateOutcome = { invoice: InvoiceAnswer; idempotent: boolean };

export const notFound = () => new AppError('INVOICE_NOT_FOUND', 'Invoice not found');

/** The series rules handed to the store, which assigns the number under the business's lock (3.5). */
export const SERIES: NumberSeries = {
  first: ({ lastNumber, seriesStart }) => seriesStart ?? nextInvoiceNumber(lastNumber),
  following: followingCandidate,
};

/** A balance amount in the client balance's ten-thousandths, or null when the currency is not the balance's (3.7.3). */
export function balanceE4(minor: bigint, currency: string, minorUnit: number, businessCurrency: string): number | null {
  return currency === businessCurrency ? Number(minor * pow10(4 - minorUnit)) : null;
}

/** Invoice use cases (invoices-interface 4.1, 4.4, 4.5): create, get, cancel; for apps and operators. */
export class InvoicesService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
    private readonly settings: InvoiceSettings,
    private readonly now: () => number,
    private readonly events: WebhookEvents,
    private readonly publicUrl: string,
    private readonly mail: InvoiceMailQueue,
  ) {}

  async context(urlKey: string): Promise<LeadContext> {
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return context;
  }

  present(urlKey: string, stored: StoredInvoice): InvoiceAnswer {
    return presentInvoice(stored, { publicUrl: this.publicUrl, urlKey });
  }

  /**
   * Validation first (every failure in one 400, never a 409 for an invalid body), then the invoice and
   * what it makes are stored in one transaction; a taken number answers the stored invoice when the
   * details are the same (idempotent), else 409.
   */
  /** `audit`: an operator's line, written in the creating transaction (none for an identical retry). */
  async create(
    urlKey: string,
    body: unknown,
    claim: IdempotencyClaim | null = null,
    audit: AuditEntry | null = null,
  ): Promise<CreateOutcome> {
    const context = await this.context(urlKey);
    const now = this.now();
    const { errors, input, client } = await this.validated(urlKey, body, context);
    const [settings, plan] = await Promise.all([this.settings.stored(urlKey), this.events.plan(urlKey)]);
    const built = buildInvoice(
      input,
      { business: context.business, timeZone: context.timeZone, settings, client, now },
      failedKeys(errors),
    );
    if (!built.ok) throw AppError.fromFieldErrors(inBodyOrder([...errors, ...built.errors], input.sent));
    const request = createRequestOf(input);
    const insert = this.insertOf(urlKey, input, built.value, request, client, now, { plan, context });
    // The answer an Idempotency-Key replays: the number and client are settled in the transaction (withAssigned).
    // Presented only when there is a key (it was presented and dropped on every create).
    const answer =
      claim &&
      idempotentAnswer(claim, 201, this.present(urlKey, { ...insert.invoice, invoiceNumber: '', clientId: '' }));
    // The mail is queued in the creating transaction: sent once after the commit, never for a retry.
    const mail = this.mail.recipientsOf(input.email);
    const withAudit = audit && {
      ...audit,
      detail: { ...(audit.detail as object), invoiceId: insert.invoice.invoiceId },
    };
    const result = await this.store.invoices.insertInvoice(urlKey, { ...insert, answer, mail, audit: withAudit });
    if (result.outcome === 'no-business') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    if (result.outcome === 'exists') return this.retried(urlKey, result.invoice, result.createRequest, request);
    this.events.sent();
    if (mail) this.mail.queued();
    const invoice = this.present(urlKey, result.invoice);
    return {
      invoice: answer
        ? (withAssigned(answer.body, { invoiceNumber: invoice.invoiceNumber, client: invoice.client }) as InvoiceAnswer)
        : invoice,
      idempotent: false,
    };
  }

  /**
   * What create would store, by the same validation and rules, with nothing stored: the dashboard's live
   * totals (docs/decisions.md "Invoice preview"). Without invoiceNumber, the number it would get now.
   */
  async preview(urlKey: string, body: unknown): Promise<InvoicePreview> {
    const context = await this.context(urlKey);
    const { errors, input, client } = await this.validated(urlKey, body, context);
    const settings = await this.settings.stored(urlKey);
    const { business, timeZone } = context;
    const built = buildInvoice(input, { business, timeZone, settings, client, now: this.now() }, failedKeys(errors));
    if (!built.ok) throw AppError.fromFieldErrors(inBodyOrder([...errors, ...built.errors], input.sent));
    return {
      invoiceNumber: input.invoiceNumber ?? (await this.nextNumber(urlKey)),
      ...(built.value.content as InvoiceContent),
      status: built.value.totalMinor === 0n ? 'PAID' : 'UNPAID',
    } satisfies InvoicePreview;
  }

  /**
   * The number an invoice created now without one would get (3.5, 8), taken ones skipped; with a
   * numbering, the one saving it would start the series at.
   */
  async nextNumber(urlKey: string, numbering?: InvoiceNumbering): Promise<string> {
    const state = await this.store.invoices.seriesState(urlKey);
    let candidate = SERIES.first({
      lastNumber: state?.lastNumber ?? null,
      seriesStart: numbering ? formatNumbering(numbering) : (state?.seriesStart ?? null),
    });
    while (await this.numberTaken(urlKey, candidate)) candidate = SERIES.following(candidate);
    return candidate;
  }

  private async numberTaken(urlKey: string, invoiceNumber: string): Promise<boolean> {
    const query = { filter: { invoiceNumber }, sort: [], limit: 0, skip: 0 };
    return ((await this.store.invoiceLists.find(urlKey, query))?.total ?? 0) > 0;
  }

  /**
   * The body's pass and the client billedTo.clientId names (CLIENT_NOT_FOUND among the body's errors);
   * the errors are answered with those of the build (one 400), the input is stored only without any.
   */
  private async validated(
    urlKey: string,
    body: unknown,
    context: LeadContext,
  ): Promise<{ errors: FieldError[]; input: InvoiceInput; client: Record<string, unknown> | null }> {
    const { errors, input } = validateInvoice(body, context);
    const clientId =
      typeof (body as { billedTo?: { clientId?: unknown } } | null)?.billedTo?.clientId === 'string'
        ? (body as { billedTo: { clientId: string } }).billedTo.clientId.trim()
        : undefined;
    const stored = clientId ? await this.store.data.findClient(urlKey, clientId) : undefined;
    const found =
      stored && stored.status === 'active'
        ? presentClient(stored, { business: context.business, customFields: [], liveFieldIds: new Set() })
        : null;
    const all: FieldError[] = [...errors];
    if (clientId && !found)
      all.push({
        field: 'billedTo.clientId',
        code: 'CLIENT_NOT_FOUND',
        message: 'billedTo.clientId does not name a client of this business',
      });
    if (!input) throw AppError.fromFieldErrors(inBodyOrder(all, isJsonObject(body) ? Object.keys(body) : []));
    return { errors: all, input, client: found };
  }

  private insertOf(
    urlKey: string,
    input: InvoiceInput,
    built: BuiltInvoice,
    request: CreateRequest,
    client: Record<string, unknown> | null,
    now: number,
    { plan, context }: { plan: Awaited<ReturnType<WebhookEvents['plan']>>; context: LeadContext },
  ): Omit<InvoiceInsert, 'answer' | 'audit'> {
    const invoiceId = randomHex();
    const newClientId = `invoice-${invoiceId}`;
    const newClient = client
      ? null
      : { clientId: newClientId, data: newClientValue(newClientId, input.billedTo, context.business.country) };
    const invoice = {
      invoiceId,
      status: built.totalMinor === 0n ? 'PAID' : 'UNPAID',
      currency: input.currency.code,
      totalMinor: built.totalMinor,
      paidMinor: 0n,
      invoiceDate: built.invoiceDate,
      shareToken: newShareToken(),
      content: built.content,
      createRequest: request,
      createdAt: now,
      updatedAt: now,
    };
    return {
      invoice,
      number: input.invoiceNumber !== null ? { given: input.invoiceNumber } : { auto: SERIES },
      client: client
        ? { kind: 'existing', clientId: String(client.clientId) }
        : { kind: 'buyer', matchKey: matchKeyOf(partyOf(sentParty(input.billedTo))), newClient: newClient! },
      balanceE4: balanceE4(built.totalMinor, input.currency.code, input.currency.minorUnit, context.business.currency),
      events: (settled) => [
        ...(settled.createdClient
          ? invoiceClientEvents(plan, newClient!.clientId, newClient!.data, now, context.business)
          : []),
        ...invoiceEvent(
          plan,
          'invoice.created',
          invoiceId,
          () => this.present(urlKey, { ...invoice, invoiceNumber: settled.invoiceNumber, clientId: settled.clientId }),
          now,
        ),
      ],
    };
  }

  private retried(
    urlKey: string,
    stored: StoredInvoice,
    storedRequest: unknown,
    request: CreateRequest,
  ): CreateOutcome {
    if (!sameCreateRequest(storedRequest as CreateRequest, request)) {
      throw new AppError(
        'IDEMPOTENCY_CONFLICT',
        'An invoice with this invoiceNumber already exists with different details',
        undefined,
        { existingInvoiceId: stored.invoiceId },
      );
    }
    return { invoice: this.present(urlKey, stored), idempotent: true };
  }

  /** 4.3: `{total, limit, skip, data}`. */
  async find(urlKey: string, rawQuery: Record<string, unknown>): Promise<FindPage> {
    const query = await this.findQuery(urlKey, rawQuery);
    const found = await this.store.invoiceLists.find(urlKey, query);
    if (!found) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    const page: FindPage = {
      total: found.total,
      limit: query.limit,
      skip: query.skip,
      data: found.page.map((invoice) => this.present(urlKey, invoice)),
    };
    if (query.sync) page.nextCursor = found.next && encodeCursor(found.next, urlKey);
    return page;
  }

  /**
   * The answer of `find` as its JSON text, each invoice composed around its stored content without
   * parsing it (presentPageText, presentInvoiceText): docs/performance.md "Find's page composed".
   */
  async findText(urlKey: string, rawQuery: Record<string, unknown>): Promise<string> {
    const query = await this.findQuery(urlKey, rawQuery);
    const found = await this.store.invoiceLists.findTexts(urlKey, query);
    if (!found) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    const context = { publicUrl: this.publicUrl, urlKey };
    return presentPageText(
      { total: found.total, limit: query.limit, skip: query.skip },
      found.page.map((invoice) => presentInvoiceText(invoice, context)),
      query.sync ? found.next && encodeCursor(found.next, urlKey) : undefined,
    );
  }

  private async findQuery(urlKey: string, rawQuery: Record<string, unknown>) {
    const context = await this.context(urlKey);
    return parseFindQuery(rawQuery, context.timeZone, urlKey);
  }

  async get(urlKey: string, invoiceId: string): Promise<InvoiceAnswer> {
    const stored = await this.store.invoices.findInvoice(urlKey, invoiceId);
    if (!stored) throw notFound();
    return this.present(urlKey, stored);
  }

  /** The answer of `get` as its JSON text, composed without parsing the stored content (presentInvoiceText). */
  async getText(urlKey: string, invoiceId: string): Promise<string> {
    const stored = await this.store.invoices.findInvoiceText(urlKey, invoiceId);
    if (!stored) throw notFound();
    return presentInvoiceText(stored, { publicUrl: this.publicUrl, urlKey });
  }
}
