import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyOf, decimalOf, moneyToJson } from '../../src/invoices/invoice.money.js';
import { computeInvoice, type InvoiceTaxInput, type TaxRegime } from '../../src/invoices/invoice.tax.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';

/**
 * Random invoices against a reference written here from the spec alone (2.3, 2.4, 3.1, 3.4), in BigInt
 * fractions: every number is generated as exact digits (units, scale), sent to the implementation as
 * the JSON number of that text, and computed here without the implementation's helpers.
 */

const RUNS = { numRuns: 3000, seed: FUZZ_SEED };

// A number as generated: units / 10^scale, both known exactly.
interface Exact {
  units: bigint;
  scale: number;
}
const text = ({ units, scale }: Exact): string => {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  return `${units < 0n ? '-' : ''}${digits.slice(0, point)}${scale > 0 ? `.${digits.slice(point)}` : ''}`;
};
/** The shortest decimal text of units / 10^scale: trailing zeros of the fraction and a bare point dropped. */
const jsonText = (units: bigint, scale: number): string => {
  const full = text({ units, scale });
  return scale === 0 ? full : full.replace(/0+$/, '').replace(/\.$/, '');
};
const ten = (n: number) => 10n ** BigInt(n);

/** n / d rounded half away from zero: the quotient, plus one away from zero when the remainder is half or more. */
function roundHalfAway(n: bigint, d: bigint): bigint {
  if (d < 0n) [n, d] = [-n, -d];
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) < d) return q;
  return n < 0n ? q - 1n : q + 1n;
}

// The rate sets of 3.2.1 and 3.3, as the spec prints them.
const RATE_SETS: Record<Exclude<TaxRegime, 'OTHER'>, string[]> = {
  INDIA: ['0', '0.1', '0.25', '1', '1.5', '3', '5', '6', '7.5', '12', '18', '28', '40'],
  UAE: ['0', '5'],
  SAUDI: ['0', '15'],
  MALAYSIA: ['0', '5', '6', '8', '10'],
};
const CURRENCIES: Record<TaxRegime, string[]> = {
  INDIA: ['INR'],
  UAE: ['AED'],
  SAUDI: ['SAR'],
  MALAYSIA: ['MYR'],
  OTHER: ['USD', 'JPY', 'KWD', 'EUR'],
};
const MINOR: Record<string, number> = { INR: 2, AED: 2, SAR: 2, MYR: 2, USD: 2, EUR: 2, JPY: 0, KWD: 3 };

const exactFromText = (value: string): Exact => {
  const [whole = '', fraction = ''] = value.split('.');
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
};

/** Non-negative numbers of ≤ 15 significant digits, ≤ maxScale decimals, below 10^maxDigitsBeforePoint; mostly modest. */
const exact = (maxScale: number, wholeDigits: number, minUnits = 0n) =>
  fc.integer({ min: 0, max: maxScale }).chain((scale) => {
    const cap = ten(Math.min(15, wholeDigits + scale)) - 1n;
    const modest = ten(Math.min(15, 4 + scale)) - 1n;
    return fc
      .oneof(
        { weight: 60, arbitrary: fc.bigInt({ min: minUnits, max: modest < cap ? modest : cap }) },
        { weight: 1, arbitrary: fc.bigInt({ min: minUnits, max: cap }) },
      )
      .map((units) => ({ units, scale }));
  });

const regime = fc.constantFrom<TaxRegime>('INDIA', 'UAE', 'SAUDI', 'MALAYSIA', 'OTHER');
const taxRate = (r: TaxRegime) =>
  r === 'OTHER'
    ? fc.integer({ min: 0, max: 1_000_000 }).map((units) => ({ units: BigInt(units), scale: 4 }))
    : fc.constantFrom(...RATE_SETS[r]).map(exactFromText);
const item = (r: TaxRegime) => fc.record({ rate: exact(6, 12), quantity: exact(6, 9, 1n), taxRate: taxRate(r) });
const charge = (minor: number) =>
  fc
    .oneof(
      fc.record({
        type: fc.constant('PERCENTAGE' as const),
        amount: fc.integer({ min: 0, max: 1_000_000 }).map((u) => ({ units: BigInt(u), scale: 4 })),
      }),
      fc.record({ type: fc.constant('FIXED_AMOUNT' as const), amount: exact(minor, 7) }),
    )
    .chain((c) => fc.constantFrom<1 | -1>(1, -1).map((multiplier) => ({ ...c, multiplier })));

const invoice = regime.chain((r) =>
  fc.constantFrom(...CURRENCIES[r]).chain((currency) =>
    fc.record({
      regime: fc.constant(r),
      currency: fc.constant(currency),
      billType: fc.constantFrom<'INVOICE' | 'BOS'>('INVOICE', 'INVOICE', 'BOS'),
      interState: fc.boolean(),
      items: fc.array(item(r), { minLength: 1, maxLength: 6 }),
      charges: fc.array(charge(MINOR[currency]!), { maxLength: 4 }),
    }),
  ),
);
type Generated = typeof invoice extends fc.Arbitrary<infer T> ? T : never;

/** The spec, computed in minor units over BigInt fractions. */
function reference(inv: Generated) {
  const m = MINOR[inv.currency]!;
  const limit = ten(12 + m);
  const items = [];
  const sums = { subTotal: 0n, igst: 0n, cgst: 0n, sgst: 0n, tax: 0n, total: 0n };
  for (const [i, it] of inv.items.entries()) {
    const amount = roundHalfAway(it.rate.units * it.quantity.units * ten(m), ten(it.rate.scale + it.quantity.scale));
    const rate = inv.billType === 'BOS' ? { units: 0n, scale: 0 } : it.taxRate;
    const exactTax = [amount * rate.units, 100n * ten(rate.scale)] as const; // T in minor units, as a fraction
    const india = inv.regime === 'INDIA';
    const igst = india ? roundHalfAway(exactTax[0], exactTax[1]) : 0n;
    const half = india ? roundHalfAway(exactTax[0], 2n * exactTax[1]) : 0n;
    const tax = india ? (inv.interState ? igst : 2n * half) : roundHalfAway(exactTax[0], exactTax[1]);
    const line = { subTotal: amount, amount, igst, cgst: half, sgst: half, tax, total: amount + tax };
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += line[key];
    if (Object.values(line).some((v) => v >= limit) || Object.values(sums).some((v) => v >= limit)) {
      return { ok: false as const, code: 'AMOUNT_TOO_LARGE', field: `items[${i}]` };
    }
    items.push(line);
  }
  let running = sums.total;
  let discount = 0n;
  let added = 0n;
  const charges = [];
  for (const [i, c] of inv.charges.entries()) {
    const base =
      c.type === 'PERCENTAGE'
        ? roundHalfAway(running * c.amount.units, 100n * ten(c.amount.scale))
        : (c.amount.units * ten(m)) / ten(c.amount.scale);
    running += BigInt(c.multiplier) * base;
    if (c.multiplier < 0) discount += base;
    else added += base;
    const field = `additionalCharges[${i}]`;
    if (base >= limit || running >= limit || discount >= limit || added >= limit)
      return { ok: false as const, code: 'AMOUNT_TOO_LARGE', field };
    if (running < 0n) return { ok: false as const, code: 'TOTAL_BELOW_ZERO', field };
    charges.push({ appliedAmount: BigInt(c.multiplier) * base });
  }
  const finalTotal = { ...sums, amount: sums.subTotal, discount, charges: added, total: running };
  return { ok: true as const, items, charges, finalTotal };
}

/** What the implementation is given: JSON numbers of the generated texts, read as the validator reads them. */
function implementationInput(inv: Generated): InvoiceTaxInput {
  const read = (value: Exact) => decimalOf(JSON.parse(text(value)))!.value;
  return {
    currency: currencyOf(inv.currency)!,
    regime: inv.regime,
    billType: inv.billType,
    interState: inv.interState,
    items: inv.items.map((it) => ({ rate: read(it.rate), quantity: read(it.quantity), taxRate: read(it.taxRate) })),
    charges: inv.charges.map((c) => ({ type: c.type, amount: read(c.amount), multiplier: c.multiplier })),
  };
}

describe(`random invoices against an independent BigInt reference (seed ${FUZZ_SEED})`, () => {
  it('every item member, applied charge and total, to the minor unit; the same error on the same entry', () => {
    const outcomes = { ok: 0, AMOUNT_TOO_LARGE: 0, TOTAL_BELOW_ZERO: 0 };
    fc.assert(
      fc.property(invoice, (inv) => {
        const expected = reference(inv);
        const actual = computeInvoice(implementationInput(inv));
        expect(actual).toEqual(expected);
        outcomes[actual.ok ? 'ok' : actual.code] += 1;
        if (actual.ok) {
          // Every value leaves as a JSON number whose text is the exact amount.
          for (const value of Object.values(actual.finalTotal)) {
            expect(JSON.stringify(moneyToJson(value, currencyOf(inv.currency)!))).toBe(
              jsonText(value, MINOR[inv.currency]!),
            );
          }
        }
      }),
      RUNS,
    );
    // The generator reaches each outcome, so the property covers the error paths too.
    expect(outcomes.ok).toBeGreaterThan(RUNS.numRuns / 2);
    expect(outcomes.AMOUNT_TOO_LARGE).toBeGreaterThan(0);
    expect(outcomes.TOTAL_BELOW_ZERO).toBeGreaterThan(0);
  });

  it('the reference itself reproduces 9.4 (so it is a reference of the spec, not of the implementation)', () => {
    const inv: Generated = {
      regime: 'INDIA',
      currency: 'INR',
      billType: 'INVOICE',
      interState: false,
      charges: [],
      items: [
        ['0.1', '3'],
        ['1.005', '1'],
        ['13.25', '1'],
      ].map(([rate, quantity]) => ({
        rate: exactFromText(rate!),
        quantity: exactFromText(quantity!),
        taxRate: exactFromText('18'),
      })),
    };
    const out = reference(inv);
    expect(out.ok && out.items.map((line) => [line.subTotal, line.igst, line.cgst, line.total])).toEqual([
      [30n, 5n, 3n, 36n],
      [101n, 18n, 9n, 119n],
      [1325n, 239n, 119n, 1563n],
    ]);
    expect(out.ok && out.finalTotal.total).toBe(1718n);
  });
});
