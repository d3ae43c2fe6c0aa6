import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';
import { seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { publicUrlOf } from '../../src/config.js';
import { presentInvoice } from '../../src/invoices/invoice.present.js';

/**
 * Random INDIA invoices through HTTP, their totals checked to the paisa against a reference written here
 * with BigInt alone (independent of src/invoices): prices and quantities with up to 6 decimals, rates of
 * GST's set, intra- or inter-state, and a percentage discount on the running total.
 */

const GST_RATES_E2 = [0n, 10n, 25n, 100n, 150n, 300n, 500n, 600n, 750n, 1200n, 1800n, 2800n, 4000n]; // percent × 100
const roundDiv = (n: bigint, d: bigint) => (n * 2n + d) / (2n * d); // half away from zero, n ≥ 0

interface Line {
  priceE6: bigint;
  qtyE6: bigint;
  rateE2: bigint;
}

function referenceTotal(lines: Line[], interState: boolean, discountE2: bigint): bigint {
  let running = 0n;
  for (const { priceE6, qtyE6, rateE2 } of lines) {
    const amount = roundDiv(priceE6 * qtyE6, 10n ** 10n); // paise of R(price × qty)
    const igst = roundDiv(amount * rateE2, 10n ** 4n);
    const half = roundDiv(amount * rateE2, 2n * 10n ** 4n);
    running += amount + (interState ? igst : half + half);
  }
  return running - roundDiv(running * discountE2, 10n ** 4n);
}

const decimalText = (units: bigint, scale: number) => {
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
};
/** A JSON money number's paise, read from its text. */
const paiseOf = (value: number) => {
  const [whole, fraction = ''] = String(value).split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
};

const line = fc.record({
  priceE6: fc.bigInt({ min: 0n, max: 10n ** 10n }),
  qtyE6: fc.bigInt({ min: 1n, max: 10n ** 9n }),
  rateE2: fc.constantFrom(...GST_RATES_E2),
});

describeEachStore('2.3, 2.4, 3.4 random invoices total to the paisa (fast-check, BigInt reference)', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });

  it(`random items, rates, states and discounts (seed ${FUZZ_SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10000n }),
        async (lines, interState, discountE2) => {
          const body = {
            billedTo: { name: 'Property Buyer', country: 'IN', gstState: interState ? '27' : '29' },
            items: lines.map((l, i) => ({
              name: `i${i}`,
              rate: Number(decimalText(l.priceE6, 6)),
              quantity: Number(decimalText(l.qtyE6, 6)),
              gstRate: Number(decimalText(l.rateE2, 2)),
            })),
            additionalCharges: [
              { label: 'Discount', type: 'PERCENTAGE', amount: Number(decimalText(discountE2, 2)), multiplier: -1 },
            ],
          };
          const r = await call(ctx().app, 'POST', t.invoices, { token: t.token, body });
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          expect(paiseOf(r.body.finalTotal.total)).toBe(referenceTotal(lines, interState, discountE2));
        },
      ),
      { seed: FUZZ_SEED, numRuns: 25 },
    );
  }, 120_000);
});

describeEachStore(
  '2.1 GET invoice answers JSON.stringify(presentInvoice(stored)) byte for byte (fast-check)',
  (ctx) => {
    let t: InvoiceTenant;
    beforeAll(async () => {
      t = await seedInvoiceTenant(ctx());
    });

    // Its answer is composed around the content's stored text (presentInvoiceText); the object answer is
    // what every other route sends and what GET invoice sent before (test/unit/invoice.present.test.ts).
    it(`random invoices, paid or canceled, read back (seed ${FUZZ_SEED})`, async () => {
      const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(line, text), { minLength: 1, maxLength: 4 }),
          fc.boolean(),
          fc.option(text, { nil: undefined }),
          fc.constantFrom('none', 'paid', 'canceled'),
          async (lines, interState, subTitle, after) => {
            const body = {
              billedTo: { name: 'Property Buyer', country: 'IN', gstState: interState ? '27' : '29' },
              items: lines.map(([l, name], i) => ({
                name: `i${i} ${name}`,
                rate: Number(decimalText(l.priceE6, 6)),
                quantity: Number(decimalText(l.qtyE6, 6)),
                gstRate: Number(decimalText(l.rateE2, 2)),
              })),
              ...(subTitle !== undefined && { invoiceSubTitle: subTitle }),
            };
            const created = await call(ctx().app, 'POST', t.invoices, { token: t.token, body });
            expect(created.status, JSON.stringify(created.body)).toBe(201);
            const path = `${t.invoices}/${created.body._id}`;
            if (after === 'paid' && created.body.finalTotal.total > 0) {
              const amount = Math.min(created.body.finalTotal.total, 1);
              const paid = await call(ctx().app, 'POST', `${path}/payments`, { token: t.token, body: { amount } });
              expect(paid.status, JSON.stringify(paid.body)).toBe(201);
            }
            if (after === 'canceled') {
              const canceled = await call(ctx().app, 'PATCH', path, { token: t.token, body: { status: 'CANCELED' } });
              expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
            }
            const answer = await ctx().app.inject({
              method: 'GET',
              url: path,
              headers: { authorization: `Bearer ${t.token}` },
            });
            expect(answer.statusCode).toBe(200);
            expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
            const stored = await ctx().store.invoices.findInvoice(t.urlKey, created.body._id);
            const context = { publicUrl: publicUrlOf(ctx().config), urlKey: t.urlKey };
            expect(answer.body).toBe(JSON.stringify(presentInvoice(stored!, context)));
          },
        ),
        { seed: FUZZ_SEED, numRuns: 25 },
      );
    }, 120_000);
  },
);
