import type { Balance, OperatorClient } from '../openapi/answer-types.js';
import type { StoredClient } from '../storage/records.js';
import type { BusinessContext } from './business-context.js';

export const BALANCE_MEMBERS = [
  'invoice',
  'proforma',
  'creditNote',
  'paymentReceipt',
  'debitNote',
  'salesOrder',
  'invoicePayment',
  'proformaPayment',
  'expenditure',
  'expenditurePayment',
  'creditConsumed',
] as const;
export type BalanceMember = (typeof BALANCE_MEMBERS)[number];

const listOrEmpty = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

/** The server-set members; the rest is stored as the validator accepted it. */
type ServerSet = 'clientId' | 'source' | 'createdAt' | 'updatedAt' | 'balance' | 'customFields' | 'status';
type Accepted = Omit<OperatorClient, ServerSet>;
/**
 * A stored client's values: what the validator accepted, read back from JSON, typed as the answer types
 * its members (storage keeps JSON and cannot say so itself): a member the answer may leave null may be
 * missing, the others (name, flags with defaults, derived labels) are always stored; custom fields by id.
 */
type StoredValues = { [K in keyof Accepted as null extends Accepted[K] ? K : never]?: Accepted[K] } & {
  [K in keyof Accepted as null extends Accepted[K] ? never : K]: Accepted[K];
} & { customFields?: Record<string, unknown> };

/**
 * The public client: every field listed explicitly, in the order of the spec's tables, null for unset
 * scalars, empty lists, custom field values by the field's current display name (live fields only),
 * and no internal identifier.
 *
 * One object literal, not keys added one by one: V8 keeps an object built by forty keyed stores as a
 * dictionary, which JSON.stringify serialises on its slow path (a GET client: 288-294k -> 267k
 * instructions in the main thread, bench/experiments/instructions.ts).
 */
export function presentClient(stored: StoredClient, context: BusinessContext): OperatorClient {
  const v = stored.data as StoredValues;
  return {
    clientId: stored.clientId,
    name: v.name ?? null,
    alias: v.alias ?? null,
    clientType: v.clientType ?? null,
    isClient: v.isClient ?? null,
    isVendor: v.isVendor ?? null,
    email: v.email ?? null,
    phone: v.phone ?? null,
    phoneShowInInvoice: v.phoneShowInInvoice ?? null,
    emailShowInInvoice: v.emailShowInInvoice ?? null,
    dueInDays: v.dueInDays ?? null,
    locale: v.locale ?? null,
    street: v.street ?? null,
    building: v.building ?? null,
    city: v.city ?? null,
    district: v.district ?? null,
    state: v.state ?? null,
    pincode: v.pincode ?? null,
    country: v.country ?? null,
    gstin: v.gstin ?? null,
    gstState: v.gstState ?? null,
    panNumber: v.panNumber ?? null,
    trnNumber: v.trnNumber ?? null,
    tinNumber: v.tinNumber ?? null,
    sstNumber: v.sstNumber ?? null,
    taxPayerType: v.taxPayerType ?? null,
    vatNumber: v.vatNumber ?? null,
    vatLabel: v.vatLabel ?? null,
    additionalIds: listOrEmpty(v.additionalIds),
    shippingDetails: listOrEmpty(v.shippingDetails),
    bankAccounts: listOrEmpty(v.bankAccounts),
    customFields: customFieldsByName(v.customFields, context),
    source: stored.source as OperatorClient['source'],
    createdAt: new Date(stored.createdAt).toISOString(),
    updatedAt: new Date(stored.updatedAt).toISOString(),
    balance: presentBalance(stored.balance, context.business.currency),
  } satisfies OperatorClient;
}

function customFieldsByName(
  values: Record<string, unknown> | undefined,
  context: BusinessContext,
): OperatorClient['customFields'] {
  const out: OperatorClient['customFields'] = {};
  if (!values) return out;
  for (const field of context.customFields) {
    if (!field.isArchived && Object.hasOwn(values, field.id))
      out[field.name] = values[field.id] as OperatorClient['customFields'][string];
  }
  return out;
}

function presentBalance(b: Record<string, number>, currency: string): Balance {
  return {
    invoice: b.invoice ?? 0,
    proforma: b.proforma ?? 0,
    creditNote: b.creditNote ?? 0,
    paymentReceipt: b.paymentReceipt ?? 0,
    debitNote: b.debitNote ?? 0,
    salesOrder: b.salesOrder ?? 0,
    invoicePayment: b.invoicePayment ?? 0,
    proformaPayment: b.proformaPayment ?? 0,
    expenditure: b.expenditure ?? 0,
    expenditurePayment: b.expenditurePayment ?? 0,
    creditConsumed: b.creditConsumed ?? 0,
    currency,
  } satisfies Balance;
}
