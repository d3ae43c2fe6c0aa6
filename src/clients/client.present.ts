import type { StoredClient } from '../storage/records.js';
import type { BusinessContext } from './business-context.js';

export const BALANCE_MEMBERS = [
  'invoice', 'proforma', 'creditNote', 'paymentReceipt', 'debitNote', 'salesOrder',
  'invoicePayment', 'proformaPayment', 'expenditure', 'expenditurePayment', 'creditConsumed',
] as const;
export type BalanceMember = (typeof BALANCE_MEMBERS)[number];

/** The scalar fields of 2.4, in the order of the spec's tables. */
const SCALARS = [
  'clientId', 'name', 'alias', 'clientType', 'isClient', 'isVendor', 'email', 'phone', 'phoneShowInInvoice',
  'emailShowInInvoice', 'dueInDays', 'locale',
  'street', 'building', 'city', 'district', 'state', 'pincode', 'country',
  'gstin', 'gstState', 'panNumber', 'trnNumber', 'tinNumber', 'sstNumber', 'taxPayerType', 'vatNumber', 'vatLabel',
] as const;

const LISTS = ['additionalIds', 'shippingDetails', 'bankAccounts'] as const;

/**
 * The public client: every field listed explicitly, null for unset scalars, empty lists, custom field
 * values by the field's current display name (live fields only), and no internal identifier.
 */
export function presentClient(stored: StoredClient, context: BusinessContext): Record<string, unknown> {
  const value = stored.data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of SCALARS) out[key] = value[key] ?? null;
  out.clientId = stored.clientId;
  for (const key of LISTS) out[key] = Array.isArray(value[key]) ? value[key] : [];
  out.customFields = customFieldsByName(value.customFields as Record<string, unknown> | undefined, context);
  out.source = stored.source;
  out.createdAt = new Date(stored.createdAt).toISOString();
  out.updatedAt = new Date(stored.updatedAt).toISOString();
  out.balance = presentBalance(stored.balance, context.business.currency);
  return out;
}

function customFieldsByName(values: Record<string, unknown> | undefined, context: BusinessContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!values) return out;
  for (const field of context.customFields) {
    if (!field.isArchived && Object.hasOwn(values, field.id)) out[field.name] = values[field.id];
  }
  return out;
}

function presentBalance(balance: Record<string, number>, currency: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of BALANCE_MEMBERS) out[member] = balance[member] ?? 0;
  out.currency = currency;
  return out;
}
