import type { Invoice, Payment } from '../openapi/answer-types.js';
import type { StoredInvoice, StoredInvoiceText, StoredPayment } from '../storage/invoices.records.js';
import { shareLinkOf } from './invoice.share-token.js';
import { currencyOf, moneyToJson } from './invoice.money.js';

/** Where links point (2.7): PUBLIC_URL, and the business the invoice belongs to. */
export interface PresentContext {
  publicUrl: string;
  urlKey: string;
}

export type InvoiceAnswer = Invoice;

/** What the members around the content are made of: the row's columns, parsed or not the content. */
type InvoiceRowFields = Omit<StoredInvoice, 'content'>;

/** The members presentInvoice writes from the row or as constants; the stored content holds the others. */
type FromRow =
  | '_id'
  | 'invoiceNumber'
  | 'status'
  | 'client'
  | 'share'
  | 'discount'
  | 'attachments'
  | 'isExpenditure'
  | 'amountPaid'
  | 'amountDue'
  | 'createdAt'
  | 'updatedAt';
/** The content snapshot as the create stored it: the answer's members that never change (storage keeps JSON). */
export type InvoiceContent = Omit<Invoice, FromRow>;

/**
 * An invoice in the vendor's shape (2.1): the stored content, and what changes (status, payments, the
 * share link) from the row. No internal identifier at any depth.
 */
export function presentInvoice(stored: StoredInvoice, ctx: PresentContext): InvoiceAnswer {
  return { ...headOf(stored), ...(stored.content as InvoiceContent), ...tailOf(stored, ctx) } satisfies Invoice;
}

/**
 * The same answer as JSON text, composed around the content snapshot's stored text (JSON.stringify of
 * the snapshot) without parsing it: byte for byte JSON.stringify(presentInvoice(…)), as the members
 * before and after the content are the same two objects, the content holds none of theirs (InvoiceContent),
 * and JSON.parse then JSON.stringify gives back the text JSON.stringify wrote. GET invoice answers with it
 * (docs/performance.md "GET invoice against GET client, counted"); test/unit/invoice.present.test.ts.
 */
export function presentInvoiceText(stored: StoredInvoiceText, ctx: PresentContext): string {
  const head = JSON.stringify(headOf(stored));
  const content = stored.contentText.slice(1, -1);
  const tail = JSON.stringify(tailOf(stored, ctx));
  return `${head.slice(0, -1)},${content === '' ? '' : `${content},`}${tail.slice(1)}`;
}

/**
 * A find page (4.3) as JSON text around its invoices' texts (presentInvoiceText): byte for byte
 * JSON.stringify of the page object, whose members come in this order (total, limit, skip, data, and a
 * sync page's nextCursor). The app's find answers with it; the operator's list sends the object.
 */
export function presentPageText(
  head: { total: number | null; limit: number; skip: number },
  invoices: readonly string[],
  nextCursor?: string | null,
): string {
  const shell = JSON.stringify({ total: head.total, limit: head.limit, skip: head.skip });
  const cursor = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
  return `${shell.slice(0, -1)},"data":[${invoices.join(',')}]${cursor}}`;
}

/** The members before the content, in the answer's order. */
const headOf = (stored: InvoiceRowFields): Pick<Invoice, '_id' | 'invoiceNumber'> => ({
  _id: stored.invoiceId,
  invoiceNumber: stored.invoiceNumber,
});

/** The members after the content, in the answer's order: what changes, from the row, and the vendor's constants. */
function tailOf(
  stored: InvoiceRowFields,
  ctx: PresentContext,
): Pick<Invoice, Exclude<FromRow, '_id' | 'invoiceNumber'>> {
  const currency = currencyOf(stored.currency)!;
  const canceled = stored.status === 'CANCELED';
  const paid = canceled ? 0n : stored.paidMinor;
  const due = canceled ? 0n : stored.totalMinor - stored.paidMinor;
  const base = `/api/v1/businesses/${encodeURIComponent(ctx.urlKey)}/invoices/${stored.invoiceId}`;
  return {
    status: stored.status as Invoice['status'],
    client: stored.clientId,
    share: { link: shareLinkOf(ctx.publicUrl, stored.shareToken), pdf: `${ctx.publicUrl}${base}/pdf` },
    // The vendor's constant members (2.1).
    discount: { discountType: 'PERCENTAGE' },
    attachments: [],
    isExpenditure: false,
    amountPaid: moneyToJson(paid, currency),
    amountDue: moneyToJson(due, currency),
    createdAt: new Date(stored.createdAt).toISOString(),
    updatedAt: new Date(stored.updatedAt).toISOString(),
  };
}

/** The stored payment members, as the answer shows them (storage keeps JSON). */
type StoredPaymentData = Pick<Payment, 'amount' | 'tds' | 'transactionCharge' | 'paymentDate'> &
  Partial<Pick<Payment, 'paymentMethod' | 'notes' | 'refId' | 'appId'>>;

/** A payment: of its invoice, only the identifiers (no content parsed to answer one). */
export function presentPayment(
  payment: StoredPayment,
  invoice: Pick<StoredInvoice, 'invoiceId' | 'clientId'>,
  urlKey: string,
): Payment {
  const d = payment.data as StoredPaymentData;
  return {
    _id: payment.paymentId,
    amount: d.amount,
    tds: d.tds,
    transactionCharge: d.transactionCharge,
    paymentDate: d.paymentDate,
    paymentMethod: d.paymentMethod ?? null,
    notes: d.notes ?? null,
    refId: d.refId ?? null,
    business: urlKey,
    payerBusiness: invoice.clientId,
    isApproved: true,
    isRemoved: payment.removed,
    appId: d.appId ?? null,
    invoice: invoice.invoiceId,
    createdAt: new Date(payment.createdAt).toISOString(),
  } satisfies Payment;
}
