import type { FieldError } from '../errors/codes.js';
import { businessLocale } from '../validation/countries.js';
import { addDays, calendarDateIn, startOfDay } from './invoice.dates.js';
import { decimalToJson, moneyToJson, type Currency } from './invoice.money.js';
import { clientParty, partyOf, plain, sentParty, type Party } from './invoice.parties.js';
import { computeInvoice, type FinalAmounts, type ItemAmounts } from './invoice.tax.js';
import type { InvoiceInput } from './invoice.validate.js';
import { randomText } from './invoice.random.js';
import { zatcaQrBase64 } from './zatca.js';

/**
 * The stored content of a new invoice (invoices-interface 2.1 to 2.5, 3.2 to 3.4, 3.8): parties after
 * defaults, taxed items and totals, dates and defaults. Rules that need the resolved parties are checked
 * here and answered as field errors of the body.
 */

export interface BuildContext {
  business: { name: string; country: string; currency: string };
  timeZone: string;
  /** The business's saved billing details and default terms (section 8), if any. */
  settings: { billedBy?: Party; defaultTerms?: unknown[] } | null;
  /** The linked client (3.6.1), as GET clients shows it. */
  client: Record<string, unknown> | null;
  now: number;
}

export interface BuiltInvoice {
  content: Record<string, unknown>;
  totalMinor: bigint;
  invoiceDate: number;
}

/** Place-of-supply rule (3.2.3): intra-state only for an Indian, non-SEZ buyer in the seller's state. */
function interState(billedBy: Party, billedTo: Party): boolean {
  return !(billedTo.country === 'IN' && billedTo.gstState === billedBy.gstState && billedTo.taxPayerType !== 'SEZ');
}

/** A rule is checked only when every body key it reads was read without failure: no error follows from another. */
const readWell = (failed: ReadonlySet<string>, ...keys: string[]) => keys.every((key) => !failed.has(key));

function partyRules(input: InvoiceInput, billedBy: Party, billedTo: Party, failed: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const required = (field: string, why: string) =>
    errors.push({ field, code: 'INVALID_FIELD_VALUE', message: `${field} is required ${why}` });
  if (input.regime === 'INDIA' && !billedBy.gstState && readWell(failed, 'billedBy'))
    required('billedBy.gstState', 'for an Indian seller (send it, or save billing details)');
  if (input.regime === 'INDIA' && billedTo.country === 'IN' && !billedTo.gstState && readWell(failed, 'billedTo'))
    required('billedTo.gstState', 'for a buyer in India: it is the place of supply');
  const taxInvoice = input.billType === 'INVOICE' && readWell(failed, 'invoiceType', 'billedBy');
  if (input.regime === 'SAUDI' && taxInvoice && !billedBy.vatNumber)
    required('billedBy.vatNumber', 'on a Saudi tax invoice');
  return errors;
}

/** The body keys that hold a failure (`items[2].rate` → `items`). */
export const failedKeys = (errors: FieldError[]): Set<string> => new Set(errors.map((e) => e.field.split(/[.[]/)[0]!));

/**
 * `failed`: the body keys validation already refused. The rules reading them are skipped, the others
 * still run, so one 400 carries every failure of the body (4.1).
 */
export function buildInvoice(
  input: InvoiceInput,
  ctx: BuildContext,
  failed: ReadonlySet<string> = new Set(),
): { ok: true; value: BuiltInvoice } | { ok: false; errors: FieldError[] } {
  const { business } = ctx;
  const billedBy = partyOf(
    { name: business.name, country: business.country },
    ctx.settings?.billedBy,
    sentParty(input.billedBy),
  );
  const billedTo = partyOf(ctx.client && clientParty(ctx.client), sentParty(input.billedTo));
  const errors = partyRules(input, billedBy, billedTo, failed);
  const igst = interState(billedBy, billedTo);
  const currency = input.currency;
  if (!readWell(failed, 'items', 'additionalCharges', 'currency', 'invoiceType'))
    return { ok: false, errors: [...errors, ...dateRules(input, ctx, failed).errors] };
  const amounts = computeInvoice({
    currency,
    regime: input.regime,
    billType: input.billType,
    interState: igst,
    items: input.items,
    charges: input.charges,
  });
  if (!amounts.ok) {
    const message =
      amounts.code === 'AMOUNT_TOO_LARGE'
        ? `${amounts.field} makes an amount of 10^12 or more`
        : `${amounts.field} takes the total below 0`;
    errors.push({ field: amounts.field, code: amounts.code, message });
  }
  const dates = dateRules(input, ctx, failed);
  errors.push(...dates.errors);
  if (errors.length > 0 || !amounts.ok || failed.size > 0) return { ok: false, errors };
  const { invoiceDate, dueDate } = dates;
  const money = (minor: bigint) => moneyToJson(minor, currency);
  const india = input.regime === 'INDIA';
  const content: Record<string, unknown> = {
    invoiceDate: new Date(invoiceDate).toISOString(),
    ...(dueDate !== null && { dueDate: new Date(dueDate).toISOString() }),
    billType: input.billType,
    taxType: input.regime,
    ...(india && { igst }),
    currency: currency.code,
    billedBy,
    billedTo,
    ...optionalMembers(input),
    invoiceTitle: input.invoiceTitle ?? (input.billType === 'BOS' ? 'Bill of Supply' : 'Invoice'),
    ...(input.invoiceSubTitle !== null && { invoiceSubTitle: input.invoiceSubTitle }),
    items: input.items.map((item, i) => presentItem(item, amounts.items[i]!, india, money)),
    finalTotal: presentTotals(amounts.finalTotal, india, money),
    additionalCharges: input.charges.map((c, i) => ({
      label: c.label,
      amount: decimalToJson(c.amount),
      type: c.type,
      multiplier: c.multiplier,
      appliedAmount: money(amounts.charges[i]!.appliedAmount),
    })),
    terms: input.terms ? plain(input.terms) : (ctx.settings?.defaultTerms ?? []),
    tags: input.tagIds ?? [],
    locale: input.locale ?? (ctx.client?.locale as string | null | undefined) ?? businessLocale(business.country),
    ...(input.regime === 'SAUDI' &&
      input.billType === 'INVOICE' && { zatcaQr: zatca(billedBy, invoiceDate, amounts.finalTotal, currency) }),
  };
  return { ok: true, value: { content, totalMinor: amounts.finalTotal.total, invoiceDate } };
}

/** 3.8: the invoice date (default now, to the second) and the due date, which may not precede its calendar date. */
function dateRules(
  input: InvoiceInput,
  ctx: BuildContext,
  failed: ReadonlySet<string>,
): { invoiceDate: number; dueDate: number | null; errors: FieldError[] } {
  const invoiceDate = input.invoiceDate ?? Math.floor(ctx.now / 1000) * 1000;
  const invoiceDay = calendarDateIn(ctx.timeZone, invoiceDate);
  const dueDate = input.dueDate ?? defaultDue(invoiceDay, ctx);
  const errors: FieldError[] = [];
  const precedes = dueDate !== null && calendarDateIn(ctx.timeZone, dueDate) < invoiceDay;
  if (precedes && readWell(failed, 'invoiceDate', 'dueDate'))
    errors.push({
      field: 'dueDate',
      code: 'INVALID_FIELD_VALUE',
      message: "dueDate may not precede the invoice's date",
    });
  return { invoiceDate, dueDate, errors };
}

function optionalMembers(input: InvoiceInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shipped = { shippedTo: input.shippedTo, shippedFrom: input.shippedFrom };
  for (const [key, value] of Object.entries(shipped)) if (value) out[key] = partyOf(sentParty(value));
  if (input.transportDetails) out.transportDetails = plain(input.transportDetails);
  if (input.contact) out.contact = plain(input.contact);
  return out;
}

/** 3.8: the invoice's calendar date plus the linked client's dueInDays, at 00:00 in the business's zone. */
function defaultDue(invoiceDay: string, ctx: BuildContext): number | null {
  const days = ctx.client?.dueInDays;
  return typeof days === 'number' ? startOfDay(addDays(invoiceDay, days), ctx.timeZone) : null;
}

type Money = (minor: bigint) => number;

function presentItem(
  item: InvoiceInput['items'][number],
  line: ItemAmounts,
  india: boolean,
  money: Money,
): Record<string, unknown> {
  const rate = decimalToJson(item.taxRate);
  const head = {
    _id: randomHex(),
    name: item.name,
    rate: decimalToJson(item.rate),
    quantity: decimalToJson(item.quantity),
    ...(item.hsn !== null && { hsn: item.hsn }),
  };
  const taxes = india
    ? {
        gstRate: rate,
        subTotal: money(line.subTotal),
        amount: money(line.amount),
        igst: money(line.igst),
        cgst: money(line.cgst),
        sgst: money(line.sgst),
      }
    : { taxRate: rate, subTotal: money(line.subTotal), amount: money(line.amount), tax: money(line.tax) };
  return { ...head, ...taxes, total: money(line.total), discount: { discountType: 'PERCENTAGE' }, images: [] };
}

function presentTotals(t: FinalAmounts, india: boolean, money: Money): Record<string, unknown> {
  const taxes = india ? { igst: money(t.igst), cgst: money(t.cgst), sgst: money(t.sgst) } : { tax: money(t.tax) };
  return {
    subTotal: money(t.subTotal),
    amount: money(t.amount),
    ...taxes,
    discount: money(t.discount),
    charges: money(t.charges),
    total: money(t.total),
  };
}

function zatca(billedBy: Party, invoiceDate: number, totals: FinalAmounts, currency: Currency): string {
  return zatcaQrBase64({
    sellerName: String(billedBy.name),
    vatNumber: String(billedBy.vatNumber),
    invoiceDate: new Date(invoiceDate),
    total: totals.total,
    tax: totals.tax,
    currency,
  });
}

/** 24 lowercase hex characters from a cryptographic source: invoice, item and payment ids. */
export function randomHex(): string {
  return randomText(12, 'hex');
}
