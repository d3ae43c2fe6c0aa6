import { AppError } from '../errors/app-error.js';
import type {
  Decision,
  LockedInvoice,
  LockedRow,
  StoredInvoiceText,
  StoredPayment,
} from '../storage/invoices.records.js';
import { contentParsed } from '../storage/invoices.store.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { idempotentAnswer, type IdempotencyClaim, type IdempotentAnswer } from '../storage/idempotency-keys.store.js';
import { FieldReader, isJsonObject } from '../validation/field-reader.js';
import type { WebhookEvents } from '../webhooks/events.js';
import { randomHex } from './invoice.build.js';
import { parseInvoiceDate } from './invoice.dates.js';
import { currencyOf, decimalOf, exactMinor, INVOICE_MINOR_UNITS, moneyToJson } from './invoice.money.js';
import type { InvoiceCanceled, Payment } from '../openapi/answer-types.js';
import { presentPayment } from './invoice.present.js';
import { PAYMENT_SPEC } from './invoice.schema.js';
import { decideCancel, decidePayment, decideRemoval, type Outcome, type SettleContext } from './invoice.settle.js';
import { inBodyOrder } from './invoice.validate.js';
import { notFound, type InvoicesService } from './invoices.service.js';

const MONEY_MEMBERS = ['amount', 'tds', 'transactionCharge'] as const;

type PaymentDone = { invoice: StoredInvoiceText; payment: StoredPayment };

/** Payments and cancel (invoices-interface 4.5, 4.6, 8): each a decision on the locked invoice. */
export class PaymentsService {
  constructor(
    private readonly store: Store,
    private readonly invoices: InvoicesService,
    private readonly now: () => number,
    private readonly events: WebhookEvents,
  ) {}

  private async settleContext(urlKey: string): Promise<SettleContext & { timeZone: string }> {
    const [context, plan] = await Promise.all([this.invoices.context(urlKey), this.events.plan(urlKey)]);
    return {
      plan,
      now: this.now(),
      businessCurrency: context.business.currency,
      timeZone: context.timeZone,
      present: (invoice) => this.invoices.present(urlKey, contentParsed(invoice)),
      presentPayment: (payment, invoice) => presentPayment(payment, invoice, urlKey),
    };
  }

  /** The decision under the invoice's lock; the refusal it answers is thrown after the transaction. */
  private async decide<T>(
    urlKey: string,
    invoiceId: string,
    decide: (locked: LockedInvoice) => Decision<Outcome<T>>,
  ): Promise<T> {
    return this.settled(await this.store.invoices.changeInvoice(urlKey, invoiceId, decide));
  }

  private settled<T>(outcome: Outcome<T> | undefined): T {
    if (outcome === undefined) throw notFound();
    if ('refused' in outcome) throw outcome.refused;
    this.events.sent();
    return outcome.ok;
  }

  /**
   * 4.6: 400 (body) → 404 → 409 INVOICE_CANCELED → 400 PAYMENT_EXCEEDS_DUE. The body is read before the
   * invoice; the rest is decided on the locked row alone (one read of the invoice, its content not parsed,
   * its other payments not read), where the amounts' minor unit, which is the invoice's currency's, is
   * checked first. An accepted payment keeps its Idempotency-Key's answer in its transaction.
   */
  async record(
    urlKey: string,
    invoiceId: string,
    body: unknown,
    appId: string | null,
    claim: IdempotencyClaim | null = null,
    audit: AuditEntry | null = null,
  ): Promise<Payment> {
    const ctx = await this.settleContext(urlKey);
    const values = readPayment(body, ctx.timeZone);
    const decide = ({ invoice }: LockedRow): Decision<Outcome<PaymentDone>> => {
      const made = paymentOf(values, invoice, appId, ctx.now);
      if ('refused' in made) return { answer: made };
      const answer = idempotentAnswer(claim, 201, presentPayment(made.payment, invoice, urlKey));
      const detail = audit && { ...audit, detail: { ...(audit.detail as object), paymentId: made.payment.paymentId } };
      return keeping(decidePayment({ invoice }, made.payment, ctx), { answer, audit: detail });
    };
    const done = this.settled(await this.store.invoices.changeInvoiceRow(urlKey, invoiceId, decide));
    return presentPayment(done.payment, done.invoice, urlKey);
  }

  async list(urlKey: string, invoiceId: string, includeRemoved: boolean): Promise<Record<string, unknown>[]> {
    const [invoice, payments] = await Promise.all([
      this.store.invoices.findInvoiceText(urlKey, invoiceId),
      this.store.invoices.listPayments(urlKey, invoiceId, includeRemoved),
    ]);
    if (!invoice || !payments) throw notFound();
    return payments.map((p) => presentPayment(p, invoice, urlKey));
  }

  /** 4.5: the invoice plus `payments: []` (the vendor's shape). */
  async cancel(
    urlKey: string,
    invoiceId: string,
    cancelPayment: boolean,
    audit: AuditEntry | null = null,
  ): Promise<InvoiceCanceled> {
    const ctx = await this.settleContext(urlKey);
    const invoice = await this.decide(urlKey, invoiceId, (locked) =>
      keeping(decideCancel(locked, cancelPayment, ctx), { audit }),
    );
    return { ...ctx.present(invoice), payments: [] } satisfies InvoiceCanceled;
  }

  async remove(
    urlKey: string,
    invoiceId: string,
    paymentId: string,
    audit: AuditEntry | null = null,
  ): Promise<Record<string, unknown>> {
    const ctx = await this.settleContext(urlKey);
    const done = await this.decide(urlKey, invoiceId, (locked) =>
      keeping(decideRemoval(locked, paymentId, ctx), { audit }),
    );
    return { invoice: ctx.present(done.invoice), payment: presentPayment(done.payment, done.invoice, urlKey) };
  }
}

/** A decision's change that also keeps an Idempotency-Key's answer and the operator's audit line, if any. */
function keeping<T>(
  decision: Decision<T>,
  extra: { answer?: IdempotentAnswer | null; audit: AuditEntry | null },
): Decision<T> {
  return 'change' in decision ? { ...decision, change: { ...decision.change, ...extra } } : decision;
}

type PaymentValues = Map<string, unknown> & { paymentDateAt?: number };

/** The body's shape and dates (the minor unit needs the invoice's currency: paymentOf). */
function readPayment(body: unknown, timeZone: string): PaymentValues {
  const reader = new FieldReader();
  const values = (
    isJsonObject(body)
      ? reader.readEntry(PAYMENT_SPEC, body, '')
      : (reader.nameError('body', 'The request body must be a JSON object'), undefined)
  ) as PaymentValues | undefined;
  const date = values?.get('paymentDate') as string | undefined;
  if (date !== undefined) {
    const at = parseInvoiceDate(date, timeZone);
    if (at === undefined)
      reader.valueError(
        'paymentDate',
        'paymentDate must be a date (YYYY-MM-DD) or an ISO 8601 instant with Z or an offset, years 1970 to 9999',
      );
    else values!.paymentDateAt = at;
  }
  if (values) checkMoneyBeforeLookup(values, reader);
  if (!values || reader.errors.length > 0)
    throw AppError.fromFieldErrors(inBodyOrder(reader.errors, isJsonObject(body) ? Object.keys(body) : []));
  return values;
}

/** The finest minor unit of any invoice currency: more decimals are wrong whatever the invoice. */
const FINEST_MINOR_UNIT = Math.max(...INVOICE_MINOR_UNITS);

/**
 * 4.6 puts the body's 400 before the 404: what can be judged without the invoice is judged here (more
 * decimals than any currency has, nothing settled); the invoice's own minor unit is checked once found.
 */
function checkMoneyBeforeLookup(values: PaymentValues, reader: FieldReader): void {
  const failedBefore = new Set(reader.errors.map((e) => e.field));
  for (const key of MONEY_MEMBERS) {
    const value = values.get(key);
    if (value !== undefined && decimalOf(value)!.value.scale > FINEST_MINOR_UNIT)
      reader.valueError(key, `${key} has more decimals than any currency's minor unit (${FINEST_MINOR_UNIT})`);
  }
  const readWell = MONEY_MEMBERS.every((key) => !failedBefore.has(key)) && values.has('amount');
  if (readWell && MONEY_MEMBERS.every((key) => (values.get(key) ?? 0) === 0))
    reader.valueError('amount', 'amount + tds + transactionCharge must be above 0');
}

/** The payment in the invoice's currency: each amount within its minor unit, the settled sum above 0; else refused. */
function paymentOf(
  values: PaymentValues,
  invoice: StoredInvoiceText,
  appId: string | null,
  now: number,
): { payment: StoredPayment } | { refused: AppError } {
  const currency = currencyOf(invoice.currency)!;
  const errors: { field: string; message: string; code: 'INVALID_FIELD_VALUE' }[] = [];
  const minor = MONEY_MEMBERS.map((key) => {
    const value = exactMinor(decimalOf(values.get(key) ?? 0)!.value, currency);
    if (value === null)
      errors.push({
        field: key,
        code: 'INVALID_FIELD_VALUE',
        message: `${key} must be within the minor unit of ${currency.code}`,
      });
    return value ?? 0n;
  });
  const settled = minor.reduce((a, b) => a + b, 0n);
  if (errors.length === 0 && settled <= 0n)
    errors.push({
      field: 'amount',
      code: 'INVALID_FIELD_VALUE',
      message: 'amount + tds + transactionCharge must be above 0',
    });
  if (errors.length > 0) return { refused: AppError.fromFieldErrors(errors) };
  const [amount, tds, transactionCharge] = minor.map((m) => moneyToJson(m, currency));
  const payment: StoredPayment = {
    paymentId: randomHex(),
    invoiceId: invoice.invoiceId,
    settledMinor: settled,
    removed: false,
    createdAt: now,
    data: {
      amount,
      tds,
      transactionCharge,
      paymentDate: new Date(values.paymentDateAt ?? Math.floor(now / 1000) * 1000).toISOString(),
      paymentMethod: values.get('paymentMethod') ?? null,
      notes: values.get('notes') ?? null,
      refId: values.get('refId') ?? null,
      appId,
    },
  };
  return { payment };
}
