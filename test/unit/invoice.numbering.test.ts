import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NUMBERING,
  followingCandidate,
  INVOICE_NUMBER_MAX_LENGTH,
  nextInvoiceNumber,
  validateInvoiceNumber,
} from '../../src/invoices/invoice.numbering.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';

describe('3.5.2 the next number continues the last one', () => {
  const examples: [string | null, string][] = [
    [null, 'INV-0001'],
    ['APP-2020-0004', 'APP-2020-0005'],
    ['INV-9', 'INV-10'],
    ['INV-9999', 'INV-10000'],
    ['2024/ABC-07/X', '2024/ABC-08/X'],
    ['DRAFT', 'DRAFT-1'],
    ['INV-0099', 'INV-0100'],
    ['9', '10'],
    ['007', '008'],
    ['A1B2', 'A1B3'],
    ['X-99-Y', 'X-100-Y'],
    ['inv-1', 'inv-2'],
    ['12345678901234567890123456789', '12345678901234567890123456790'],
    ['Rechnung Nr. ٣', 'Rechnung Nr. ٣-1'],
  ];
  it.each(examples)('%s → %s', (previous, next) => {
    expect(nextInvoiceNumber(previous)).toBe(next);
  });

  it('a taken candidate is incremented again, keeping the width', () => {
    const taken = new Set(['INV-0005', 'INV-0006']);
    let candidate = nextInvoiceNumber('INV-0004');
    while (taken.has(candidate)) candidate = followingCandidate(candidate);
    expect(candidate).toBe('INV-0007');
  });

  it('a saved numbering starts the series with its padded number, then 3.5 continues', () => {
    expect(nextInvoiceNumber('INV-0042', { prefix: 'FY25/', padding: 6, nextNumber: 7 })).toBe('FY25/000007');
    expect(nextInvoiceNumber(null, { prefix: '', padding: 1, nextNumber: 12345 })).toBe('12345');
    expect(followingCandidate('FY25/000007')).toBe('FY25/000008');
    expect(nextInvoiceNumber(null, DEFAULT_NUMBERING)).toBe(nextInvoiceNumber(null));
  });

  it('a continuation beyond 64 characters restarts at the default first number', () => {
    const longest = `${'A'.repeat(INVOICE_NUMBER_MAX_LENGTH - 1)}9`;
    expect(followingCandidate(longest)).toBe('INV-0001');
    expect(followingCandidate('B'.repeat(INVOICE_NUMBER_MAX_LENGTH - 1))).toBe('INV-0001');
    expect(followingCandidate('B'.repeat(INVOICE_NUMBER_MAX_LENGTH - 2))).toBe(`${'B'.repeat(62)}-1`);
    expect(followingCandidate(`${'A'.repeat(INVOICE_NUMBER_MAX_LENGTH - 1)}8`)).toBe(`${'A'.repeat(63)}9`);
  });
});

describe(`properties of the series (seed ${FUZZ_SEED})`, () => {
  const piece = fc.oneof(
    fc.stringMatching(/^[A-Za-z/ -]{0,6}$/),
    fc.stringMatching(/^[0-9]{1,5}$/),
    fc.constantFrom('٣', 'é', '📄'),
  );
  const number = fc
    .array(piece, { minLength: 1, maxLength: 14 })
    .map((parts) => parts.join('').trim().slice(0, 64))
    .filter((value) => validateInvoiceNumber(value).ok);

  it('from any valid number, each next candidate is a valid number never seen before in the walk', () => {
    fc.assert(
      fc.property(number, (start) => {
        const seen = new Set([start]);
        let candidate = start;
        for (let step = 0; step < 30; step += 1) {
          candidate = followingCandidate(candidate);
          expect(validateInvoiceNumber(candidate)).toEqual({ ok: true, value: candidate });
          expect(seen.has(candidate)).toBe(false);
          seen.add(candidate);
        }
      }),
      { numRuns: 500, seed: FUZZ_SEED },
    );
  });
});

describe('3.5.1 validateInvoiceNumber', () => {
  const valid: [unknown, string][] = [
    ['INV-1', 'INV-1'],
    ['  INV-1 ', 'INV-1'],
    ['x'.repeat(64), 'x'.repeat(64)],
    [`  ${'é'.repeat(64)}  `, 'é'.repeat(64)],
    ['📄'.repeat(64), '📄'.repeat(64)],
  ];
  it.each(valid)('%j is %j', (raw, value) => {
    expect(validateInvoiceNumber(raw)).toEqual({ ok: true, value });
  });

  const invalid: [unknown, RegExp][] = [
    ['', /1 to 64 characters/],
    ['   ', /1 to 64 characters/],
    ['x'.repeat(65), /1 to 64 characters/],
    ['INV\u00001', /control characters/],
    ['INV\t1', /control characters/],
    ['INV\u00851', /control characters/],
    ['INV\u007F1', /control characters/],
    ['INV-\uD800', /unpaired surrogates/],
    [12, /must be a string/],
    [null, /must be a string/],
  ];
  it.each(invalid)('%j is refused', (raw, message) => {
    const result = validateInvoiceNumber(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(new RegExp(`^invoiceNumber .*${message.source}`));
  });
});
