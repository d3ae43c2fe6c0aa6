import { describe, expect, it } from 'vitest';
import { sameClient } from '../../src/clients/client.compare.js';
import { presentClient } from '../../src/clients/client.present.js';
import { CLIENT_SPEC, SERVER_OWNED_KEYS } from '../../src/clients/client.schema.js';
import type { StoredClient } from '../../src/storage/records.js';
import { comparisonOf } from '../../src/validation/field-spec.js';
import { CUSTOM_FIELDS, valid } from './support/client-context.js';

const SPEC_KEYS = [...CLIENT_SPEC.fields.keys()];
const LIVE = new Set(CUSTOM_FIELDS.filter((f) => !f.isArchived).map((f) => f.id));
const stored = valid({ clientId: 'c-1', name: 'Acme', email: 'a@b.in', customFields: { Region: 'North' } });

describe('issue 27 item 2: the client field table drives build, compare and the presenter', () => {
  it("the presenter answers exactly the table's fields, in its order, then the server-set ones", () => {
    const record = {
      clientId: 'c-1',
      source: 'API',
      data: stored,
      balance: {},
      createdAt: 0,
      updatedAt: 0,
    } as unknown as StoredClient;
    const context = { business: { currency: 'INR' }, customFields: CUSTOM_FIELDS, liveFieldIds: LIVE } as never;
    const keys = Object.keys(presentClient(record, context));
    expect(keys.filter((key) => !SERVER_OWNED_KEYS.has(key))).toEqual(SPEC_KEYS);
    expect(keys.filter((key) => SERVER_OWNED_KEYS.has(key))).toEqual(['source', 'createdAt', 'updatedAt', 'balance']);
  });

  it('a built client carries every field of the table, in its order', () => {
    expect(Object.keys(stored)).toEqual(SPEC_KEYS);
  });

  // A value different from whatever was stored, of the member's own type.
  const changed = (value: unknown): unknown => {
    if (typeof value === 'boolean') return !value;
    if (typeof value === 'number') return value + 1;
    if (Array.isArray(value)) return [...value, { label: 'extra' }];
    if (value !== null && typeof value === 'object') return { ...value, 'cf-region': 'South' };
    return `${String(value)}-changed`;
  };

  it.each(SPEC_KEYS.filter((key) => comparisonOf(CLIENT_SPEC.fields.get(key)!) !== 'never'))(
    'a different %s is a conflict',
    (key) => {
      const candidate = { ...stored, [key]: changed((stored as unknown as Record<string, unknown>)[key]) };
      expect(sameClient(stored, candidate, LIVE)).toBe(false);
      expect(sameClient(stored, { ...stored }, LIVE)).toBe(true);
    },
  );
});
