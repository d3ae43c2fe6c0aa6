import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  presentInvoice,
  presentInvoiceText,
  presentPageText,
  type PresentContext,
} from '../../src/invoices/invoice.present.js';
import type { StoredInvoice } from '../../src/storage/invoices.records.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import { hostileString } from '../helpers/hostile-arbitraries.js';

/**
 * GET invoice's answer is composed around the stored content's text (presentInvoiceText); it must be
 * byte for byte what JSON.stringify made of presentInvoice's object, the answer before (and still the
 * answer of every other route that shows an invoice).
 */

/** The members presentInvoice writes from the row, in the answer's order: the content snapshot never holds them. */
const FROM_ROW = new Set([
  '_id',
  'invoiceNumber',
  'status',
  'client',
  'share',
  'discount',
  'attachments',
  'isExpenditure',
  'amountPaid',
  'amountDue',
  'createdAt',
  'updatedAt',
]);

/** A content snapshot as the create makes one (some of its members, with nested objects and lists). */
const REAL_CONTENT = {
  invoiceTitle: 'Tax Invoice',
  invoiceDate: '2026-11-29',
  dueDate: null,
  currency: 'INR',
  billedBy: { name: 'Seller', gstState: '29', gstin: '29AAPFU0939F1ZV', address: { city: 'Bengaluru' } },
  billedTo: { name: 'Asha "Traders" <&>', gstState: '29', country: 'IN' },
  items: [
    { name: 'one', rate: 100, quantity: 2, gstRate: 18, amount: 200, cgst: 18, sgst: 18, total: 236 },
    { name: 'two\u2028\ud800', rate: 200.5, quantity: 0.000001, gstRate: 12, amount: 0, total: 0 },
  ],
  finalTotal: { amount: 1400, cgst: 90, sgst: 90, total: 1580, totalInWords: 'One Thousand Five Hundred Eighty' },
  terms: [],
  notes: '',
};

/** Top-level member names: any, but never the row's, nor an array index (an object puts those first). */
const contentKey = fc
  .oneof(fc.string({ maxLength: 12 }), hostileString)
  .filter((key) => !FROM_ROW.has(key) && !/^(0|[1-9][0-9]*)$/.test(key));
const contentValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileString, fc.double());

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

const storedFields = fc.record({
  invoiceId: fc.oneof(hex(24), hostileString),
  invoiceNumber: hostileString,
  clientId: hostileString,
  status: fc.constantFrom('ISSUED', 'PARTIALLY_PAID', 'PAID', 'CANCELED'),
  currency: fc.constantFrom('INR', 'JPY', 'KWD', 'USD', 'AED'),
  // Money of up to 15 digits: what an answer can carry as an exact JSON number (moneyToJson).
  totalMinor: fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
  paidShare: fc.bigInt({ min: 0n, max: 100n }),
  invoiceDate: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  shareToken: fc.oneof(hex(32), hostileString),
  createdAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  updatedAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
});

const context = fc.record({
  publicUrl: fc.constantFrom('http://127.0.0.1:3000', 'https://crm.example.com/base'),
  // A business's urlKey (a lone surrogate never names one: encodeURIComponent would throw on it either way).
  urlKey: fc.oneof(fc.constantFrom('acme', 'a-b_c', 'café ü/?#'), fc.string({ maxLength: 20 })),
});

/** Both answers for one stored row: the content as stored (JSON.stringify's text), parsed for the object answer as storage parses it. */
function bothAnswers(fields: Omit<StoredInvoice, 'content'>, content: object, ctx: PresentContext) {
  const contentText = JSON.stringify(content);
  return {
    composed: presentInvoiceText({ ...fields, contentText }, ctx),
    stringified: JSON.stringify(presentInvoice({ ...fields, content: JSON.parse(contentText) }, ctx)),
  };
}

describe('2.1 GET invoice: the answer composed around the stored content is JSON.stringify(presentInvoice) byte for byte', () => {
  it(`random rows, contexts and contents (fast-check, seed ${FUZZ_SEED})`, () => {
    fc.assert(
      fc.property(
        storedFields,
        fc.oneof(
          fc.constant({}),
          fc.constant(REAL_CONTENT),
          fc.dictionary(contentKey, contentValue, { maxKeys: 8 }),
          fc.dictionary(contentKey, contentValue, { maxKeys: 3 }).map((extra) => ({ ...REAL_CONTENT, ...extra })),
        ),
        context,
        ({ paidShare, ...row }, content, ctx) => {
          const fields = { ...row, paidMinor: (row.totalMinor * paidShare) / 100n };
          const { composed, stringified } = bothAnswers(fields, content, ctx);
          expect(composed).toBe(stringified);
        },
      ),
      { seed: FUZZ_SEED, numRuns: 2000 },
    );
  });

  it('an empty content snapshot: the row members alone, no stray comma', () => {
    const fields = {
      invoiceId: 'i1',
      invoiceNumber: 'INV-1',
      clientId: 'c1',
      status: 'ISSUED',
      currency: 'INR',
      totalMinor: 118_00n,
      paidMinor: 18_00n,
      invoiceDate: 0,
      shareToken: 't',
      createdAt: 0,
      updatedAt: 0,
    };
    const { composed, stringified } = bothAnswers(fields, {}, { publicUrl: 'http://h', urlKey: 'acme' });
    expect(composed).toBe(stringified);
    // With no content the answer is the row's members alone, in the order FROM_ROW lists them.
    expect(Object.keys(JSON.parse(composed))).toEqual([...FROM_ROW]);
  });
});

describe('4.3 find: the page composed around its invoices is JSON.stringify of the page object byte for byte', () => {
  it(`random heads, invoices and cursors (fast-check, seed ${FUZZ_SEED})`, () => {
    const invoice = fc.tuple(storedFields, fc.dictionary(contentKey, contentValue, { maxKeys: 4 }), context);
    fc.assert(
      fc.property(
        fc.record({
          total: fc.option(fc.nat(), { nil: null }),
          limit: fc.nat({ max: 100 }),
          skip: fc.nat(),
        }),
        fc.array(invoice, { maxLength: 4 }),
        fc.option(fc.option(hostileString, { nil: null }), { nil: undefined }),
        (head, invoices, nextCursor) => {
          const answers = invoices.map(([{ paidShare, ...row }, content, ctx]) =>
            bothAnswers({ ...row, paidMinor: (row.totalMinor * paidShare) / 100n }, content, ctx),
          );
          const composed = presentPageText(
            head,
            answers.map((a) => a.composed),
            nextCursor,
          );
          const page = {
            ...head,
            data: answers.map((a) => JSON.parse(a.stringified)),
            ...(nextCursor !== undefined && { nextCursor }),
          };
          expect(composed).toBe(JSON.stringify(page));
        },
      ),
      { seed: FUZZ_SEED, numRuns: 500 },
    );
  });
});
