import { emailComparisonKey } from '../validation/email.js';
import { comparisonOf, type CompareMode } from '../validation/field-spec.js';
import { CLIENT_SPEC } from './client.schema.js';
import type { ClientValue } from './client.types.js';

/**
 * Idempotency comparison (docs/derivation.md "Idempotency").
 * Both sides are normalised and derived ClientValues, so omitted derived values, restated derived
 * values, omitted defaults and phone formatting already compare equal. What remains: e-mail case,
 * list order (multisets, nested lists too), and custom fields only for fields still live: each field's
 * mode comes from the table (CLIENT_SPEC, comparisonOf). `source` is not in the table, so never compared
 * (rule 3; createdAt, updatedAt and balance are not part of a ClientValue).
 */

/** Every field of the table with its comparison mode: a new field is compared without a hand list. */
const COMPARED: [string, CompareMode][] = [...CLIENT_SPEC.fields].map(([key, field]) => [key, comparisonOf(field)]);

export function sameClient(
  stored: ClientValue,
  candidate: ClientValue,
  liveCustomFieldIds: ReadonlySet<string>,
): boolean {
  const a = stored as unknown as Record<string, unknown>;
  const b = candidate as unknown as Record<string, unknown>;
  return COMPARED.every(([key, mode]) => sameMember(mode, a[key], b[key], liveCustomFieldIds));
}

function sameMember(mode: CompareMode, stored: unknown, candidate: unknown, live: ReadonlySet<string>): boolean {
  switch (mode) {
    case 'exact':
      return (stored ?? null) === (candidate ?? null);
    case 'email':
      return sameEmail((stored as string | undefined) ?? null, (candidate as string | undefined) ?? null);
    case 'multiset':
      return canonical(stored ?? []) === canonical(candidate ?? []);
    case 'liveCustomFields':
      return sameLiveCustomFields(
        (stored ?? {}) as Record<string, unknown>,
        (candidate ?? {}) as Record<string, unknown>,
        live,
      );
    case 'never':
      return true;
  }
}

function sameEmail(stored: string | null, candidate: string | null): boolean {
  if (stored === null || candidate === null) return stored === candidate;
  return emailComparisonKey(stored) === emailComparisonKey(candidate);
}

/** Values under archived or removed fields take no part (docs/decisions.md "Clients"): compare live field ids only. */
function sameLiveCustomFields(
  stored: Record<string, unknown>,
  candidate: Record<string, unknown>,
  live: ReadonlySet<string>,
): boolean {
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
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== null && record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
