import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameClient } from '../../src/clients/client.compare.js';
import { validateClient } from '../../src/clients/client.validate.js';
import { ERROR_STATUS } from '../../src/errors/codes.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import { bodyFromValue, validBody } from './support/client-arbitraries.js';
import { CUSTOM_FIELDS, context } from './support/client-context.js';

const LIVE = new Set(CUSTOM_FIELDS.filter((f) => !f.isArchived).map((f) => f.id));
const VALIDATION_CODES = new Set([
  'INVALID_FIELD',
  'INVALID_FIELD_VALUE',
  'CUSTOM_FIELDS_NOT_ENABLED',
  'INVALID_CUSTOM_FIELD',
  'INVALID_CUSTOM_FIELD_VALUE',
]);
const RUNS = { numRuns: 300, seed: FUZZ_SEED };

const validate = (body: unknown) => validateClient(body, context(), 'api');

describe(`properties of validation (seed ${FUZZ_SEED})`, () => {
  it('valid generated bodies validate, and the stored value validates again to itself (idempotent normalisation)', () => {
    fc.assert(
      fc.property(validBody, (body) => {
        const first = validate(body);
        if (!first.ok) throw new Error(JSON.stringify(first.errors));
        const second = validate(bodyFromValue(first.value));
        if (!second.ok) throw new Error(JSON.stringify(second.errors));
        expect(second.value).toEqual(first.value);
        expect(sameClient(first.value, second.value, LIVE)).toBe(true);
        expect(JSON.parse(JSON.stringify(first.value))).toEqual(first.value);
      }),
      RUNS,
    );
  });

  it('reordering any list is an identical retry', () => {
    fc.assert(
      fc.property(validBody, fc.integer(), (body, seed) => {
        const first = validate(body);
        if (!first.ok) throw new Error(JSON.stringify(first.errors));
        const reordered = { ...body };
        for (const key of ['shippingDetails', 'bankAccounts'] as const) {
          const list = body[key] as unknown[] | undefined;
          if (list) reordered[key] = rotate(list, seed);
        }
        const second = validate(reordered);
        expect(second.ok && sameClient(first.value, second.value, LIVE)).toBe(true);
      }),
      RUNS,
    );
  });

  it('random JSON never throws and always answers errors with codes from the table', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (junk) => checkAnswer(junk)),
      { ...RUNS, numRuns: 500 },
    );
  });

  it('valid bodies with random keys and values spliced in never throw', () => {
    const member = fc.tuple(
      fc.constantFrom(
        'clientId',
        'name',
        'email',
        'phone',
        'gstin',
        'state',
        'isClient',
        'additionalIds',
        'shippingDetails',
        'bankAccounts',
        'customFields',
        'source',
        'x',
        '__proto__',
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(validBody, fc.array(member, { maxLength: 4 }), (body, members) => {
        const mutated: Record<string, unknown> = { ...body };
        for (const [key, value] of members)
          Object.defineProperty(mutated, key, { value, enumerable: true, configurable: true, writable: true });
        checkAnswer(mutated);
      }),
      RUNS,
    );
  });

  it('junk inside list entries and custom fields is named by path', () => {
    const entry = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 4 });
    fc.assert(
      fc.property(entry, entry, entry, fc.dictionary(fc.string(), fc.jsonValue()), (a, s, b, custom) => {
        checkAnswer({
          clientId: 'c',
          name: 'n',
          additionalIds: [a],
          shippingDetails: [s],
          bankAccounts: [b],
          customFields: custom,
        });
      }),
      RUNS,
    );
  });
});

function checkAnswer(body: unknown): void {
  const result = validate(body);
  if (result.ok) return;
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) {
    expect(VALIDATION_CODES.has(error.code) && error.code in ERROR_STATUS).toBe(true);
    expect(typeof error.field).toBe('string');
    expect(typeof error.message).toBe('string');
  }
}

function rotate<T>(list: T[], seed: number): T[] {
  if (list.length === 0) return list;
  const by = Math.abs(seed) % list.length;
  return [...list.slice(by), ...list.slice(0, by)];
}
