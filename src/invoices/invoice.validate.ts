import type { ErrorCode, FieldError } from '../errors/codes.js';
import type { LeadContext } from '../leads/lead-context.js';
import { resolveTags } from '../leads/lead.resolve.js';
import { FieldReader, isJsonObject, type ReadValues } from '../validation/field-reader.js';
import { parseInvoiceDate } from './invoice.dates.js';
import { currencyOf, DECIMAL_ZERO, decimalOf, exactMinor, type Currency, type Decimal } from './invoice.money.js';
import { CHARGE_TYPES, INVOICE_SPEC, LIMITS } from './invoice.schema.js';
import { isAllowedRate, regimeOf, type BillType, type ChargeType, type TaxRegime } from './invoice.tax.js';

/**
 * An invoice create body (invoices-interface 2.2 to 2.5, 3.1 to 3.4, 3.8, 4.1) in one pass: shapes
 * through the one body reader (invoice.schema.ts), then the rules that span members, every failure
 * collected and ordered by the body key it belongs to. What needs the store (the client named by
 * billedTo.clientId, the billing details) is resolved by the service.
 */

export interface ItemInput {
  name: string;
  rate: Decimal;
  quantity: Decimal;
  taxRate: Decimal;
  hsn: string | null;
}

export interface ChargeEntry {
  label: string;
  type: ChargeType;
  amount: Decimal;
  multiplier: 1 | -1;
}

export interface InvoiceInput {
  /** The body's keys in order: the comparison of a retry reads which were sent. */
  sent: string[];
  invoiceNumber: string | null;
  invoiceDate: number | null;
  dueDate: number | null;
  billType: BillType;
  regime: TaxRegime;
  currency: Currency;
  locale: string | null;
  invoiceTitle: string | null;
  invoiceSubTitle: string | null;
  billedTo: ReadValues;
  billedBy: ReadValues | null;
  shippedTo: ReadValues | null;
  shippedFrom: ReadValues | null;
  transportDetails: ReadValues | null;
  contact: ReadValues | null;
  items: ItemInput[];
  charges: ChargeEntry[];
  terms: ReadValues[] | null;
  tagIds: string[] | null;
  email: ReadValues | null;
}

/**
 * `input` is what could be read even when `errors` is not empty (members that failed are absent or
 * defaulted), so the rules needing the store and the resolved parties (invoice.build.ts) run on the
 * same body and one 400 carries every failure (4.1); it is stored only when `errors` is empty.
 */
export type Validated = { errors: FieldError[]; input: InvoiceInput | null };

const PARTIES = ['billedTo', 'billedBy', 'shippedTo', 'shippedFrom'] as const;
const UPPER_MEMBERS = ['country', 'gstin', 'panNumber', 'trnNumber', 'tinNumber', 'sstNumber', 'vatNumber'] as const;

/** Country, currency and tax ids are upper-cased, e-mails lower-cased, before they are read (2.2, 4.1). */
function upperCased(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (typeof out.currency === 'string') out.currency = out.currency.toUpperCase();
  for (const party of [...PARTIES, 'contact']) {
    const block = out[party];
    if (!isJsonObject(block)) continue;
    const copy = { ...block };
    for (const key of UPPER_MEMBERS) if (typeof copy[key] === 'string') copy[key] = (copy[key] as string).toUpperCase();
    if (typeof copy.email === 'string') copy.email = copy.email.toLowerCase();
    out[party] = copy;
  }
  return out;
}

export function validateInvoice(raw: unknown, context: LeadContext): Validated {
  if (!isJsonObject(raw))
    return {
      errors: [{ field: 'body', code: 'INVALID_FIELD', message: 'The request body must be a JSON object' }],
      input: null,
    };
  const body = upperCased(raw);
  const reader = new FieldReader({ businessCountry: context.business.country, enforceGstinChecksum: false });
  const values = reader.readEntry(INVOICE_SPEC, body, '') ?? new Map();
  const errors = reader.errors.map((e) => (e.field === 'items' ? { ...e, code: 'INVALID_ITEMS' as ErrorCode } : e));
  const fail = (field: string, code: ErrorCode, message: string) => errors.push({ field, code, message });
  if (Array.isArray(body.items) && body.items.length === 0)
    fail('items', 'INVALID_ITEMS', `items must hold 1 to ${LIMITS.items} items`);
  const get = <T>(key: string) => values.get(key) as T | undefined;
  const currencyCode = get<string>('currency') ?? context.business.currency;
  const currency = currencyOf(currencyCode);
  if (!currency && values.has('currency'))
    fail('currency', 'INVALID_FIELD_VALUE', 'currency must be an ISO 4217 code with a minor unit of 0, 2 or 3 digits');
  const billType = (get<string>('invoiceType') ?? 'INVOICE') as BillType;
  const regime = regimeOf(context.business.country);
  const money = currency ?? { code: currencyCode, minorUnit: 2 };
  const dates = readDates(values, context.timeZone, fail);
  checkBuyer(get<ReadValues>('billedTo'), fail);
  const billedBy = get<ReadValues>('billedBy');
  if (billedBy?.has('country') && billedBy.get('country') !== context.business.country) {
    fail(
      'billedBy.country',
      'INVALID_FIELD_VALUE',
      `billedBy.country must be the business's country, ${context.business.country}`,
    );
  }
  const items = readItems(body.items, get<ReadValues[]>('items') ?? [], { regime, billType }, fail);
  const charges = readCharges(get<ReadValues[]>('additionalCharges') ?? [], money, fail);
  checkDigits(body, fail);
  const tagIds = readTags(get<string[]>('tags'), context, fail);
  return {
    errors: inBodyOrder(errors, Object.keys(raw)),
    input: {
      sent: Object.keys(raw),
      invoiceNumber: get<string>('invoiceNumber') ?? null,
      ...dates,
      billType,
      regime,
      currency: money,
      locale: get<string>('locale') ?? null,
      invoiceTitle: get<string>('invoiceTitle') ?? null,
      invoiceSubTitle: get<string>('invoiceSubTitle') ?? null,
      billedTo: get<ReadValues>('billedTo') ?? new Map(),
      billedBy: billedBy ?? null,
      shippedTo: get<ReadValues>('shippedTo') ?? null,
      shippedFrom: get<ReadValues>('shippedFrom') ?? null,
      transportDetails: get<ReadValues>('transportDetails') ?? null,
      contact: get<ReadValues>('contact') ?? null,
      items,
      charges,
      terms: get<ReadValues[]>('terms') ?? null,
      tagIds,
      email: get<ReadValues>('email') ?? null,
    },
  };
}

type Fail = (field: string, code: ErrorCode, message: string) => void;

function readDates(
  values: ReadValues,
  timeZone: string,
  fail: Fail,
): { invoiceDate: number | null; dueDate: number | null } {
  const read = (key: string): number | null => {
    const value = values.get(key) as string | undefined;
    if (value === undefined) return null;
    const at = parseInvoiceDate(value, timeZone);
    if (at === undefined)
      fail(
        key,
        'INVALID_FIELD_VALUE',
        `${key} must be a date (YYYY-MM-DD) or an ISO 8601 instant with Z or an offset, years 1970 to 9999`,
      );
    return at ?? null;
  };
  const transport = values.get('transportDetails') as ReadValues | undefined;
  const challan = transport?.get('challanDate') as string | undefined;
  if (challan !== undefined && parseInvoiceDate(challan, timeZone) === undefined) {
    fail(
      'transportDetails.challanDate',
      'INVALID_FIELD_VALUE',
      'transportDetails.challanDate must be a date (YYYY-MM-DD) or an ISO 8601 instant with Z or an offset',
    );
  }
  return { invoiceDate: read('invoiceDate'), dueDate: read('dueDate') };
}

/** 2.2: a buyer without clientId needs a name and a country. */
function checkBuyer(buyer: ReadValues | undefined, fail: Fail): void {
  if (!buyer || buyer.has('clientId')) return;
  for (const key of ['name', 'country']) {
    if (!buyer.has(key))
      fail(`billedTo.${key}`, 'INVALID_FIELD_VALUE', `billedTo.${key} is required unless billedTo.clientId is sent`);
  }
}

function readItems(
  raw: unknown,
  items: ReadValues[],
  tax: { regime: TaxRegime; billType: BillType },
  fail: Fail,
): ItemInput[] {
  const rawItems = Array.isArray(raw) ? raw : [];
  return items.map((item, index) => {
    const sent = (rawItems[index] ?? {}) as Record<string, unknown>;
    const key = sent.gstRate !== undefined && sent.gstRate !== null ? 'gstRate' : 'taxRate';
    const gst = item.has('gstRate') ? decimalOf(item.get('gstRate'))!.value : null;
    const alias = item.has('taxRate') ? decimalOf(item.get('taxRate'))!.value : null;
    const rate = gst ?? alias ?? DECIMAL_ZERO;
    const field = `items[${index}].${key}`;
    if (gst && alias && (gst.units !== alias.units || gst.scale !== alias.scale))
      fail(field, 'INVALID_TAX_RATE', `items[${index}].gstRate and taxRate differ`);
    else if (tax.billType === 'BOS' && rate.units !== 0n)
      fail(field, 'INVALID_TAX_RATE', `${field} must be 0 on a bill of supply`);
    else if (!isAllowedRate(tax.regime, rate))
      fail(field, 'INVALID_TAX_RATE', `${field} is not a rate of the ${tax.regime} regime`);
    return {
      name: item.get('name') as string,
      rate: decimalOf(item.get('rate') ?? 0)!.value,
      quantity: decimalOf(item.get('quantity') ?? 1)!.value,
      taxRate: rate,
      hsn: (item.get('hsn') as string | undefined) ?? null,
    };
  });
}

function readCharges(entries: ReadValues[], currency: Currency, fail: Fail): ChargeEntry[] {
  return entries.map((entry, index) => {
    const at = `additionalCharges[${index}]`;
    const type = entry.get('type') as ChargeType;
    const amount = decimalOf(entry.get('amount') ?? 0)!.value;
    const multiplier = entry.get('multiplier') as number;
    if (multiplier !== 1 && multiplier !== -1 && entry.has('multiplier'))
      fail(`${at}.multiplier`, 'INVALID_FIELD_VALUE', `${at}.multiplier must be 1 or -1`);
    const { percentMax, percentDecimals } = LIMITS;
    if (
      type === CHARGE_TYPES[0] &&
      (amount.scale > percentDecimals || amount.units > BigInt(percentMax) * 10n ** BigInt(amount.scale))
    ) {
      fail(
        `${at}.amount`,
        'INVALID_FIELD_VALUE',
        `${at}.amount must be at most ${percentMax} with at most ${percentDecimals} decimals for PERCENTAGE`,
      );
    }
    if (type === CHARGE_TYPES[1] && exactMinor(amount, currency) === null)
      fail(`${at}.amount`, 'INVALID_FIELD_VALUE', `${at}.amount must be within the minor unit of ${currency.code}`);
    return { label: entry.get('label') as string, type, amount, multiplier: multiplier === -1 ? -1 : 1 };
  });
}

/**
 * 3.1.1: every number of the body has at most 15 significant digits. A walk with a list of its own, not
 * recursion: a body of 10,000 nested arrays (valid JSON) must get a 400, not overflow the stack.
 */
function checkDigits(body: unknown, fail: Fail): void {
  const pending: [unknown, string][] = [[body, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'number') {
      const parsed = decimalOf(value);
      if (parsed && parsed.significantDigits > LIMITS.significantDigits)
        fail(path, 'INVALID_FIELD_VALUE', `${path} must have at most ${LIMITS.significantDigits} significant digits`);
      continue;
    }
    const members: [unknown, string][] = Array.isArray(value)
      ? value.map((item, i) => [item, `${path}[${i}]`])
      : isJsonObject(value)
        ? Object.entries(value).map(([key, member]) => [member, path === '' ? key : `${path}.${key}`])
        : [];
    // Taken from the end: pushed in reverse, so failures come in body order.
    for (let i = members.length - 1; i >= 0; i--) pending.push(members[i]!);
  }
}

/** 4.1: a live tag's id, else its name ignoring case (leads-interface 2.5); duplicates dropped, order kept. */
function readTags(tags: string[] | undefined, context: LeadContext, fail: Fail): string[] | null {
  if (tags === undefined) return null;
  const live = context.settings.tags.filter((tag) => !tag.isArchived);
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const tag of tags) {
    const id = live.find((t) => t.id === tag)?.id ?? resolveTags(context, [tag]).ids[0];
    if (id === undefined) unknown.push(tag);
    else if (!ids.includes(id)) ids.push(id);
  }
  if (unknown.length > 0)
    fail('tags', 'INVALID_TAG', `tags has no live tag named ${unknown.map((t) => JSON.stringify(t)).join(', ')}`);
  return ids;
}

/** Errors in body order, by the top-level key each belongs to (fields not sent first), stable otherwise. */
export function inBodyOrder(errors: FieldError[], order: string[]): FieldError[] {
  const rank = (e: FieldError) => order.indexOf(e.field.split(/[.[]/)[0]!);
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}
