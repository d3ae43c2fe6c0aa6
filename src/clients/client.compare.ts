import { emailComparisonKey } from '../validation/email.js';
import type { ClientValue } from './client.types.js';

/**
 * Idempotency comparison (service-interface 4.4 rules 1 to 6, decisions.md "Idempotency details").
 * Both sides are normalised and derived ClientValues, so omitted derived values, restated derived
 * values, omitted defaults and phone formatting already compare equal. What remains: e-mail case,
 * list order (multisets, nested lists too), and custom fields only for fields still live. `source`
 * is never compared (rule 3; createdAt, updatedAt and balance are not part of a ClientValue).
 */

type ComparedKey = Exclude<keyof ClientValue, 'source'>;

const EXACT_KEYS = [
  'clientId', 'name', 'alias', 'clientType', 'isClient', 'isVendor', 'phone', 'phoneShowInInvoice',
  'emailShowInInvoice', 'dueInDays', 'locale', 'street', 'building', 'city', 'district', 'state', 'pincode',
  'country', 'gstin', 'gstState', 'panNumber', 'trnNumber', 'tinNumber', 'sstNumber', 'taxPayerType',
  'vatNumber', 'vatLabel',
] as const satisfies readonly ComparedKey[];

const LIST_KEYS = ['additionalIds', 'shippingDetails', 'bankAccounts'] as const satisfies readonly ComparedKey[];

export function sameClient(stored: ClientValue, candidate: ClientValue, liveCustomFieldIds: Set<string>): boolean {
  return EXACT_KEYS.every((key) => (stored[key] ?? null) === (candidate[key] ?? null))
    && sameEmail(stored.email, candidate.email)
    && LIST_KEYS.every((key) => canonical(stored[key] ?? []) === canonical(candidate[key] ?? []))
    && sameLiveCustomFields(stored.customFields ?? {}, candidate.customFields ?? {}, liveCustomFieldIds);
}

function sameEmail(stored: string | null, candidate: string | null): boolean {
  if (stored === null || candidate === null) return stored === candidate;
  return emailComparisonKey(stored) === emailComparisonKey(candidate);
}

/** Values under archived or removed fields take no part (decisions.md): compare live field ids only. */
function sameLiveCustomFields(stored: Record<string, unknown>, candidate: Record<string, unknown>, live: Set<string>): boolean {
  for (const id of live) {
    const a = Object.hasOwn(stored, id) ? stored[id] : null;
    const b = Object.hasOwn(candidate, id) ? candidate[id] : null;
    if (a !== b) return false;
  }
  return true;
}

/**
 * A text form in which equal multisets are equal strings: object keys sorted, every array's elements
 * canonicalised and sorted (all lists of a client compare regardless of order), a null member as a missing one.
 */
export function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).sort().join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record).sort()
      .filter((key) => record[key] !== null && record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
