import { AppError } from '../errors/app-error.js';
import type { Invoice, Payment } from '../openapi/answer-types.js';
import type {
  Decision,
  LockedInvoice,
  LockedRow,
  StoredInvoiceText,
  StoredPayment,
} from '../storage/invoices.records.js';
import type { EventPlan } from '../webhooks/events.js';
import { invoiceEvent } from './invoice.events.js';
import { currencyOf, moneyToJson, pow10 } from './invoice.money.js';

/**
 * What a payment, a cancel or a payment's removal does to an invoice (invoices-interface 3.7, 4.5, 4.6,
 * 8), decided purely against the row the store locked: so concurrent ones apply one after the other and
 * never over-settle. A refusal is the answer of a decision without a change.
 */

export type Outcome<T> = { ok: T } | { refused: AppError };

/** 3.7.1 */
export function statusOf(paid: bigint, total: bigint): string {
  if (paid === 0n && total !== 0n) return 'UNPAID';
  return paid < total ? 'PARTIALLY_PAID' : 'PAID';
}

export interface SettleContext {
  plan: EventPlan;
  now: number;
  businessCurrency: string;
  /** The invoice in its answer shape (for an event: its content parsed only then), and a payment in its own. */
  present(invoice: StoredInvoiceText): Invoice;
  presentPayment(payment: StoredPayment, invoice: StoredInvoiceText): Payment;
}

/** Minor units of the invoice's currency as the balance's ten-thousandths; 0 for another currency (3.7.3). */
function e4(invoice: StoredInvoiceText, minor: bigint, businessCurrency: string): number {
  if (invoice.currency !== businessCurrency) return 0;
  return Number(minor * pow10(4 - currencyOf(invoice.currency)!.minorUnit));
}

const refuse = <T>(error: AppError): Decision<Outcome<T>> => ({ answer: { refused: error } });

/** 4.6, on the locked row alone: a payment's decision does not read the invoice's other payments. */
export function decidePayment(
  locked: LockedRow,
  payment: StoredPayment,
  ctx: SettleContext,
): Decision<Outcome<{ invoice: StoredInvoiceText; payment: StoredPayment }>> {
  const { invoice } = locked;
  if (invoice.status === 'CANCELED')
    return refuse(new AppError('INVOICE_CANCELED', 'The invoice is canceled: it takes no payment'));
  const due = invoice.totalMinor - invoice.paidMinor;
  if (payment.settledMinor > due) {
    const amountDue = moneyToJson(due, currencyOf(invoice.currency)!);
    return refuse(
      new AppError('PAYMENT_EXCEEDS_DUE', `The payment settles more than the ${amountDue} due`, undefined, {
        amountDue,
      }),
    );
  }
  const paidMinor = invoice.paidMinor + payment.settledMinor;
  const next = { ...invoice, paidMinor, status: statusOf(paidMinor, invoice.totalMinor), updatedAt: ctx.now };
  const data = () => ({ invoice: ctx.present(next), payment: ctx.presentPayment(payment, next) });
  const events = [
    ...invoiceEvent(ctx.plan, 'invoice.payment_recorded', invoice.invoiceId, data, ctx.now),
    ...(next.status === 'PAID'
      ? invoiceEvent(ctx.plan, 'invoice.paid', invoice.invoiceId, () => ctx.present(next), ctx.now)
      : []),
  ];
  const balance = [
    { member: 'invoicePayment' as const, e4: e4(invoice, payment.settledMinor, ctx.businessCurrency) },
  ].filter((b) => b.e4 !== 0);
  return {
    change: { invoice: next, addPayment: payment, balance, events },
    answer: { ok: { invoice: next, payment } },
  };
}

/** 4.5: live payments need cancelPayment (they are removed with it); a canceled invoice answers as it is. */
export function decideCancel(
  locked: LockedInvoice,
  cancelPayment: boolean,
  ctx: SettleContext,
): Decision<Outcome<StoredInvoiceText>> {
  const { invoice, livePayments } = locked;
  if (invoice.status === 'CANCELED') return { answer: { ok: invoice } };
  if (livePayments.length > 0 && !cancelPayment) {
    return refuse(
      new AppError(
        'INVOICE_HAS_PAYMENTS',
        'The invoice has payments: cancel with cancelPayment=true to remove them too',
      ),
    );
  }
  const next = { ...invoice, status: 'CANCELED', paidMinor: 0n, updatedAt: ctx.now };
  const balance = [
    { member: 'invoice' as const, e4: -e4(invoice, invoice.totalMinor, ctx.businessCurrency) },
    { member: 'invoicePayment' as const, e4: -e4(invoice, invoice.paidMinor, ctx.businessCurrency) },
  ].filter((b) => b.e4 !== 0);
  const events = invoiceEvent(ctx.plan, 'invoice.canceled', invoice.invoiceId, () => ctx.present(next), ctx.now);
  return {
    change: { invoice: next, removePaymentIds: livePayments.map((p) => p.paymentId), balance, events },
    answer: { ok: next },
  };
}

/** Section 8: an operator removes a live payment; the status is recomputed. */
export function decideRemoval(
  locked: LockedInvoice,
  paymentId: string,
  ctx: SettleContext,
): Decision<Outcome<{ invoice: StoredInvoiceText; payment: StoredPayment }>> {
  const { invoice } = locked;
  const found = locked.livePayments.find((p) => p.paymentId === paymentId);
  if (!found) return refuse(new AppError('PAYMENT_NOT_FOUND', 'No live payment with this id on this invoice'));
  const paidMinor = invoice.paidMinor - found.settledMinor;
  const next = { ...invoice, paidMinor, status: statusOf(paidMinor, invoice.totalMinor), updatedAt: ctx.now };
  const payment = { ...found, removed: true };
  const data = () => ({ invoice: ctx.present(next), payment: ctx.presentPayment(payment, next) });
  const balance = [
    { member: 'invoicePayment' as const, e4: -e4(invoice, found.settledMinor, ctx.businessCurrency) },
  ].filter((b) => b.e4 !== 0);
  const events = invoiceEvent(ctx.plan, 'invoice.payment_removed', invoice.invoiceId, data, ctx.now);
  return {
    change: { invoice: next, removePaymentIds: [paymentId], balance, events },
    answer: { ok: { invoice: next, payment } },
  };
}
