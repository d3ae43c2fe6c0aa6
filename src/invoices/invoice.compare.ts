import { decimalToText } from './invoice.money.js';
import { plain, type Party } from './invoice.parties.js';
import type { InvoiceInput } from './invoice.validate.js';

/**
 * Idempotency by invoiceNumber (invoices-interface 4.1 "same details"). A create stores its request
 * normalised (names trimmed, e-mails and phones normalised, codes upper-cased by the validator; numbers
 * as decimal text by value; dates as instants; gstRate and taxRate as one rate; fixed defaults filled;
 * false flags and empty lists dropped). A retry's request is compared with it: members whose default
 * depends on time or configuration count as stored when the retry omits them, tags as a set, email never.
 */

export type CreateRequest = Record<string, unknown>;

const NEVER_COMPARED = 'email';

/** Left out of the comparison when a retry omits them: their defaults depend on time or configuration. */
const DEFAULTED_BY_CONTEXT = ['invoiceDate', 'dueDate', 'locale', 'terms', 'billedBy'];

/** Without false flags, empty lists or unset members: their omission means the same. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(trimmed);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === false || member === null || member === undefined || (Array.isArray(member) && member.length === 0))
      continue;
    out[key] = trimmed(member);
  }
  return out;
}

export function createRequestOf(input: InvoiceInput): CreateRequest {
  const sent = new Set(input.sent);
  const request: CreateRequest = {
    invoiceNumber: input.invoiceNumber,
    invoiceType: input.billType,
    currency: input.currency.code,
    billedTo: plain(input.billedTo),
    items: input.items.map((item) => ({
      name: item.name,
      rate: decimalToText(item.rate),
      quantity: decimalToText(item.quantity),
      taxRate: decimalToText(item.taxRate),
      hsn: item.hsn,
    })),
    additionalCharges: input.charges.map((c) => ({
      label: c.label,
      type: c.type,
      amount: decimalToText(c.amount),
      multiplier: c.multiplier,
    })),
  };
  if (sent.has('invoiceDate')) request.invoiceDate = input.invoiceDate;
  if (sent.has('dueDate')) request.dueDate = input.dueDate;
  const optional: [string, unknown][] = [
    ['locale', input.locale],
    ['invoiceTitle', input.invoiceTitle],
    ['invoiceSubTitle', input.invoiceSubTitle],
    ['billedBy', input.billedBy],
    ['shippedTo', input.shippedTo],
    ['shippedFrom', input.shippedFrom],
    ['transportDetails', input.transportDetails],
    ['contact', input.contact],
    ['terms', input.terms],
    ['tags', input.tagIds && [...input.tagIds].sort()],
    // Stored for the documents issue's mail (sent after commit when SMTP_URL is set); never compared.
    ['email', input.email],
  ];
  for (const [key, value] of optional) if (value !== null && value !== undefined) request[key] = plain(value);
  return trimmed(request) as CreateRequest;
}

/** Whether a retry's request names the stored invoice (see above). */
export function sameCreateRequest(stored: CreateRequest, retry: CreateRequest): boolean {
  const keys = new Set([...Object.keys(stored), ...Object.keys(retry)]);
  for (const key of keys) {
    if (key === NEVER_COMPARED) continue;
    if (!(key in retry) && DEFAULTED_BY_CONTEXT.includes(key)) continue;
    if (key === 'billedTo') {
      if (!sameBuyer(stored.billedTo as Party, retry.billedTo as Party)) return false;
    } else if (canonical(stored[key]) !== canonical(retry[key])) return false;
  }
  return true;
}

/** With a clientId, members the retry omits were filled from the client: they count as stored. */
function sameBuyer(stored: Party, retry: Party): boolean {
  if (retry.clientId === undefined) return canonical(stored) === canonical(retry);
  return Object.keys(retry).every((key) => canonical(stored[key]) === canonical(retry[key]));
}

/** JSON text with object keys sorted, so member order never matters. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
