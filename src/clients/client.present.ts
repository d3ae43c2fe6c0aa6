import type { StoredAnswerParts, StoredClient, StoredClientAnswer } from '../storage/records.js';
import type { BusinessContext } from './business-context.js';

export const BALANCE_MEMBERS = [
  'invoice', 'proforma', 'creditNote', 'paymentReceipt', 'debitNote', 'salesOrder',
  'invoicePayment', 'proformaPayment', 'expenditure', 'expenditurePayment', 'creditConsumed',
] as const;
export type BalanceMember = (typeof BALANCE_MEMBERS)[number];

type Presentable = Pick<StoredClient, 'clientId' | 'source' | 'data' | 'balance' | 'createdAt' | 'updatedAt'>;

const listOrEmpty = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * The public client: every field listed explicitly, in the order of the spec's tables, null for unset
 * scalars, empty lists, custom field values by the field's current display name (live fields only),
 * and no internal identifier.
 */
export function presentClient(stored: Presentable, context: BusinessContext): Record<string, unknown> {
  const values = (stored.data as Record<string, unknown>).customFields as Record<string, unknown> | undefined;
  return { ...lifelongMembers(stored.clientId, stored.data), ...changingMembers(stored, values ?? null, context) };
}

/**
 * The same answer as JSON text: from the parts kept at create when the client has them (a GET then
 * neither parses the stored data nor serialises its forty members again), else from its data. Both
 * are made of the same two halves, so they cannot differ (test/unit/client.answer.test.ts).
 */
export function presentClientText(stored: StoredClient | StoredClientAnswer, context: BusinessContext, idempotent = false): string {
  const text = stored.parts
    ? `${stored.parts.head},${JSON.stringify(changingMembers(stored, stored.parts.customValues, context)).slice(1)}`
    : JSON.stringify(presentClient(stored as StoredClient, context));
  return idempotent ? `${text.slice(0, -1)},"idempotent":true}` : text;
}

/** What a create keeps of its answer (see StoredAnswerParts). */
export function answerParts(clientId: string | null, data: unknown): StoredAnswerParts {
  const values = (data as Record<string, unknown>).customFields as Record<string, unknown> | undefined;
  return {
    head: JSON.stringify(lifelongMembers(clientId, data)).slice(0, -1),
    customValues: values && Object.keys(values).length > 0 ? values : null,
  };
}

/**
 * The members that never change once a client is created, in answer order: the head of StoredAnswerParts.
 * One object literal, not keys added one by one: V8 keeps an object built by forty keyed stores as a
 * dictionary, which JSON.stringify serialises on its slow path (a GET client: 288-294k -> 267k
 * instructions in the main thread, bench/instructions.ts). Changing these members changes the stored
 * heads' format: bump CLIENT_ANSWER_FORMAT.
 */
export function lifelongMembers(clientId: string | null, data: unknown): Record<string, unknown> {
  const v = data as Record<string, unknown>;
  return {
    clientId, name: v.name ?? null, alias: v.alias ?? null, clientType: v.clientType ?? null,
    isClient: v.isClient ?? null, isVendor: v.isVendor ?? null, email: v.email ?? null, phone: v.phone ?? null,
    phoneShowInInvoice: v.phoneShowInInvoice ?? null, emailShowInInvoice: v.emailShowInInvoice ?? null,
    dueInDays: v.dueInDays ?? null, locale: v.locale ?? null,
    street: v.street ?? null, building: v.building ?? null, city: v.city ?? null, district: v.district ?? null,
    state: v.state ?? null, pincode: v.pincode ?? null, country: v.country ?? null,
    gstin: v.gstin ?? null, gstState: v.gstState ?? null, panNumber: v.panNumber ?? null, trnNumber: v.trnNumber ?? null,
    tinNumber: v.tinNumber ?? null, sstNumber: v.sstNumber ?? null, taxPayerType: v.taxPayerType ?? null,
    vatNumber: v.vatNumber ?? null, vatLabel: v.vatLabel ?? null,
    additionalIds: listOrEmpty(v.additionalIds), shippingDetails: listOrEmpty(v.shippingDetails), bankAccounts: listOrEmpty(v.bankAccounts),
  };
}

/** The members presented afresh on every read: custom field names can change, and so can the balance. */
function changingMembers(stored: Omit<Presentable, 'data'>, customValues: Record<string, unknown> | null, context: BusinessContext) {
  return {
    customFields: customFieldsByName(customValues, context),
    source: stored.source,
    createdAt: new Date(stored.createdAt).toISOString(),
    updatedAt: new Date(stored.updatedAt).toISOString(),
    balance: presentBalance(stored.balance, context.business.currency),
  };
}

function customFieldsByName(values: Record<string, unknown> | null, context: BusinessContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!values) return out;
  for (const field of context.customFields) {
    if (!field.isArchived && Object.hasOwn(values, field.id)) out[field.name] = values[field.id];
  }
  return out;
}

function presentBalance(b: Record<string, number>, currency: string): Record<BalanceMember | 'currency', number | string> {
  return {
    invoice: b.invoice ?? 0, proforma: b.proforma ?? 0, creditNote: b.creditNote ?? 0, paymentReceipt: b.paymentReceipt ?? 0,
    debitNote: b.debitNote ?? 0, salesOrder: b.salesOrder ?? 0, invoicePayment: b.invoicePayment ?? 0,
    proformaPayment: b.proformaPayment ?? 0, expenditure: b.expenditure ?? 0, expenditurePayment: b.expenditurePayment ?? 0,
    creditConsumed: b.creditConsumed ?? 0, currency,
  };
}
