import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BusinessContext } from '../../src/clients/business-context.js';
import { answerParts, BALANCE_MEMBERS, lifelongMembers, presentClient, presentClientText } from '../../src/clients/client.present.js';
import { validateClient } from '../../src/clients/client.validate.js';
import { CLIENT_ANSWER_FORMAT, type StoredClient } from '../../src/storage/records.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import { validBody } from './support/client-arbitraries.js';
import { CUSTOM_FIELDS, context } from './support/client-context.js';

const RUNS = { numRuns: 300, seed: FUZZ_SEED };

/** What the business may have become since the client was created: fields renamed or archived, another currency. */
const laterContext = fc.record({
  renamed: fc.subarray(CUSTOM_FIELDS.map((f) => f.id)),
  archived: fc.subarray(CUSTOM_FIELDS.map((f) => f.id)),
  currency: fc.constantFrom('INR', 'AED', 'SAR', 'MYR'),
}).map(({ renamed, archived, currency }): BusinessContext => {
  const customFields = CUSTOM_FIELDS.map((f) => ({
    ...f, name: renamed.includes(f.id) ? `${f.name} (renamed)` : f.name, isArchived: f.isArchived || archived.includes(f.id),
  }));
  return {
    business: { urlKey: 'b', name: 'B', country: 'SA', currency, customFieldsEnabled: true, createdAt: 0, updatedAt: 0 },
    customFields, liveFieldIds: new Set(customFields.filter((f) => !f.isArchived).map((f) => f.id)),
  };
});

const balance = fc.dictionary(fc.constantFrom(...BALANCE_MEMBERS), fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 10_000));
const instant = fc.integer({ min: 0, max: 253_402_300_799_000 });

describe(`a client's answer from the parts kept at create (seed ${FUZZ_SEED})`, () => {
  it('is the very text of the answer presented from its data, whatever changed since: names, archiving, balance, status time, currency', () => {
    fc.assert(fc.property(validBody, laterContext, balance, instant, instant, (body, later, amounts, createdAt, updatedAt) => {
      const result = validateClient(body, context(), 'api');
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const clientId = result.value.clientId as string;
      // The store keeps the data as JSON text: the fallback presents what a read parses back.
      const stored: StoredClient = {
        clientId, status: 'active', source: 'API', data: JSON.parse(JSON.stringify(result.value)), parts: null, balance: amounts, createdAt, updatedAt,
      };
      const expected = JSON.stringify(presentClient(stored, later));
      const withParts = { ...stored, parts: answerParts(clientId, result.value) };
      expect(presentClientText(withParts, later)).toBe(expected);
      expect(presentClientText(stored, later)).toBe(expected);
      expect(JSON.parse(presentClientText(withParts, later, true))).toEqual({ ...JSON.parse(expected), idempotent: true });
      expect(presentClientText(withParts, later, true)).toBe(presentClientText(stored, later, true));
    }), RUNS);
  });

  it('keeps no custom values for a client without any', () => {
    expect(answerParts('c-1', { name: 'A', customFields: {} }).customValues).toBeNull();
    expect(answerParts('c-1', { name: 'A' }).customValues).toBeNull();
    expect(answerParts('c-1', { name: 'A', customFields: { 'cf-vip': false } }).customValues).toEqual({ 'cf-vip': false });
  });

  // Heads stored by one format are served as they are: a change to these members must bump the format,
  // so that heads written before it are presented from their data instead.
  it(`format ${CLIENT_ANSWER_FORMAT} heads hold exactly these members, in this order`, () => {
    expect(CLIENT_ANSWER_FORMAT).toBe(1);
    expect(Object.keys(lifelongMembers('c-1', {}))).toEqual([
      'clientId', 'name', 'alias', 'clientType', 'isClient', 'isVendor', 'email', 'phone', 'phoneShowInInvoice', 'emailShowInInvoice',
      'dueInDays', 'locale', 'street', 'building', 'city', 'district', 'state', 'pincode', 'country', 'gstin', 'gstState', 'panNumber',
      'trnNumber', 'tinNumber', 'sstNumber', 'taxPayerType', 'vatNumber', 'vatLabel', 'additionalIds', 'shippingDetails', 'bankAccounts',
    ]);
    expect(Object.values(lifelongMembers('c-1', {}))).toEqual(['c-1', ...Array(27).fill(null), [], [], []]);
  });
});
