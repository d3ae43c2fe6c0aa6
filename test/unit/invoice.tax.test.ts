import { describe, expect, it } from 'vitest';
import { currencyOf, decimalOf, type Decimal, moneyToJson } from '../../src/invoices/invoice.money.js';
import {
  allowedRatesText,
  type BillType,
  type ChargeInput,
  computeInvoice,
  type InvoiceTaxInput,
  isAllowedRate,
  isInterStateSupply,
  regimeOf,
  type TaxRegime,
} from '../../src/invoices/invoice.tax.js';

const d = (n: number): Decimal => decimalOf(n)!.value;
const USD = currencyOf('USD')!;

type Row = [rate: number, quantity: number, taxRate: number];
type Charge = [type: ChargeInput['type'], amount: number, multiplier: 1 | -1];

function invoice(
  currency: string,
  regime: TaxRegime,
  rows: Row[],
  options: { interState?: boolean; billType?: BillType; charges?: Charge[] } = {},
): InvoiceTaxInput {
  return {
    currency: currencyOf(currency)!,
    regime,
    billType: options.billType ?? 'INVOICE',
    interState: options.interState ?? false,
    items: rows.map(([rate, quantity, taxRate]) => ({ rate: d(rate), quantity: d(quantity), taxRate: d(taxRate) })),
    charges: (options.charges ?? []).map(([type, amount, multiplier]) => ({ type, amount: d(amount), multiplier })),
  };
}

/** The computed amounts as the JSON numbers an answer carries, so the tables read as the spec's. */
function asJson(input: InvoiceTaxInput) {
  const result = computeInvoice(input);
  if (!result.ok) throw new Error(`${result.code} ${result.field}`);
  const money = (record: object) =>
    Object.fromEntries(
      Object.entries(record as Record<string, bigint>).map(([key, value]) => [key, moneyToJson(value, input.currency)]),
    );
  return { items: result.items.map(money), charges: result.charges.map(money), finalTotal: money(result.finalTotal) };
}

describe('9.1 / 9.2 the vendor example (INR 18% and 12%)', () => {
  const rows: Row[] = [
    [100, 2, 18],
    [200, 6, 12],
  ];

  it('9.1 intra-state: cgst = sgst = T/2 charged; finalTotal as the vendor shows', () => {
    const out = asJson(invoice('INR', 'INDIA', rows));
    expect(out.items).toEqual([
      { subTotal: 200, amount: 200, igst: 36, cgst: 18, sgst: 18, tax: 36, total: 236 },
      { subTotal: 1200, amount: 1200, igst: 144, cgst: 72, sgst: 72, tax: 144, total: 1344 },
    ]);
    expect(out.finalTotal).toEqual({
      subTotal: 1400,
      amount: 1400,
      igst: 180,
      cgst: 90,
      sgst: 90,
      tax: 180,
      discount: 0,
      charges: 0,
      total: 1580,
    });
  });

  it('9.2 inter-state: item members unchanged, totals amount + igst', () => {
    const out = asJson(invoice('INR', 'INDIA', rows, { interState: true }));
    expect(out.items.map((item) => [item.igst, item.cgst, item.sgst, item.total])).toEqual([
      [36, 18, 18, 236],
      [144, 72, 72, 1344],
    ]);
    expect(out.finalTotal.total).toBe(1580);
  });
});

describe('9.3 UAE (AED) with a percentage discount and a fixed charge', () => {
  it('charges apply after tax, in order, and change no tax member', () => {
    const out = asJson(
      invoice(
        'AED',
        'UAE',
        [
          [1250, 3, 5],
          [400, 1, 0],
        ],
        {
          charges: [
            ['PERCENTAGE', 2, -1],
            ['FIXED_AMOUNT', 25, 1],
          ],
        },
      ),
    );
    expect(out.items).toEqual([
      { subTotal: 3750, amount: 3750, igst: 0, cgst: 0, sgst: 0, tax: 187.5, total: 3937.5 },
      { subTotal: 400, amount: 400, igst: 0, cgst: 0, sgst: 0, tax: 0, total: 400 },
    ]);
    expect(out.charges).toEqual([{ appliedAmount: -86.75 }, { appliedAmount: 25 }]);
    expect(out.finalTotal).toEqual({
      subTotal: 4150,
      amount: 4150,
      igst: 0,
      cgst: 0,
      sgst: 0,
      tax: 187.5,
      discount: 86.75,
      charges: 25,
      total: 4275.75,
    });
  });
});

describe('9.4 rounding (INR 18%): R once per member on the exact value', () => {
  const rows: Row[] = [
    [0.1, 3, 18],
    [1.005, 1, 18],
    [13.25, 1, 18],
  ];
  const cases = [
    { interState: false, totals: [0.36, 1.19, 15.63] },
    { interState: true, totals: [0.35, 1.19, 15.64] },
  ];
  it.each(cases)('interState $interState', ({ interState, totals }) => {
    const out = asJson(invoice('INR', 'INDIA', rows, { interState }));
    expect(out.items.map((item) => [item.subTotal, item.igst, item.cgst, item.sgst])).toEqual([
      [0.3, 0.05, 0.03, 0.03],
      [1.01, 0.18, 0.09, 0.09],
      [13.25, 2.39, 1.19, 1.19],
    ]);
    expect(out.items.map((item) => item.total)).toEqual(totals);
    expect(out.finalTotal).toMatchObject({
      subTotal: 14.56,
      amount: 14.56,
      igst: 2.62,
      cgst: 1.31,
      sgst: 1.31,
      total: 17.18,
    });
  });
  it('floating point gets B and C wrong, the reason for exact decimals', () => {
    expect(Math.round(1.005 * 100) / 100).toBe(1);
    expect(Math.round(13.25 * 0.18 * 100) / 100).toBe(2.38);
  });
});

describe('bill of supply, other currencies, limits', () => {
  it('a BOS carries no tax whatever rate reaches computation', () => {
    const out = asJson(invoice('INR', 'INDIA', [[100, 2, 18]], { billType: 'BOS' }));
    expect(out.items[0]).toEqual({ subTotal: 200, amount: 200, igst: 0, cgst: 0, sgst: 0, tax: 0, total: 200 });
  });

  it('JPY rounds to whole yen, KWD to fils', () => {
    expect(asJson(invoice('JPY', 'OTHER', [[333, 1, 7.5]])).items[0]).toMatchObject({ tax: 25, total: 358 });
    expect(asJson(invoice('KWD', 'OTHER', [[1.2345, 1, 0]])).items[0]).toMatchObject({ subTotal: 1.235 });
  });

  it('an odd T splits so cgst + sgst exceeds igst by one minor unit (3.1.3)', () => {
    const out = asJson(invoice('INR', 'INDIA', [[0.5, 1, 5]]));
    expect(out.items[0]).toMatchObject({ igst: 0.03, cgst: 0.01, sgst: 0.01, total: 0.52 });
  });

  const tooLarge: [string, InvoiceTaxInput, string, string][] = [
    [
      'an item amount of 10^12',
      invoice('INR', 'INDIA', [
        [1, 1, 0],
        [999_999_999_999.995, 1, 0],
      ]),
      'AMOUNT_TOO_LARGE',
      'items[1]',
    ],
    [
      'the item whose total crosses 10^12',
      invoice('INR', 'OTHER', [
        [900_000_000_000, 1, 0],
        [100_000_000_000, 1, 0],
      ]),
      'AMOUNT_TOO_LARGE',
      'items[1]',
    ],
    [
      'tax pushing an item total over',
      invoice('USD', 'OTHER', [[900_000_000_000, 1, 12]]),
      'AMOUNT_TOO_LARGE',
      'items[0]',
    ],
    [
      'a charge pushing the running total over',
      invoice('USD', 'OTHER', [[999_999_999_999, 1, 0]], {
        charges: [
          ['FIXED_AMOUNT', 0, 1],
          ['FIXED_AMOUNT', 1, 1],
        ],
      }),
      'AMOUNT_TOO_LARGE',
      'additionalCharges[1]',
    ],
    [
      'a discount below zero',
      invoice('USD', 'OTHER', [[10, 1, 0]], {
        charges: [
          ['FIXED_AMOUNT', 5, -1],
          ['FIXED_AMOUNT', 5.01, -1],
        ],
      }),
      'TOTAL_BELOW_ZERO',
      'additionalCharges[1]',
    ],
    [
      'discounts summing to 10^12',
      invoice('USD', 'OTHER', [[600_000_000_000, 1, 0]], {
        charges: [
          ['FIXED_AMOUNT', 600_000_000_000, -1],
          ['FIXED_AMOUNT', 600_000_000_000, 1],
          ['FIXED_AMOUNT', 600_000_000_000, -1],
        ],
      }),
      'AMOUNT_TOO_LARGE',
      'additionalCharges[2]',
    ],
  ];
  it.each(tooLarge)('3.1.4 / 3.4: %s', (_name, input, code, field) => {
    expect(computeInvoice(input)).toEqual({ ok: false, code, field });
  });

  it('a 100% discount brings the total to exactly 0, which is allowed', () => {
    const out = asJson(invoice('USD', 'OTHER', [[10, 1, 0]], { charges: [['PERCENTAGE', 100, -1]] }));
    expect(out.finalTotal).toMatchObject({ discount: 10, total: 0 });
  });

  it('just below the limit is accepted', () => {
    const result = computeInvoice(invoice('USD', 'OTHER', [[999_999_999_999.99, 1, 0]]));
    expect(result.ok && moneyToJson(result.finalTotal.total, USD)).toBe(999_999_999_999.99);
  });
});

describe('regimes and rates (3.2.1, 3.3)', () => {
  it.each([
    ['IN', 'INDIA'],
    ['AE', 'UAE'],
    ['SA', 'SAUDI'],
    ['MY', 'MALAYSIA'],
    ['US', 'OTHER'],
    ['DE', 'OTHER'],
  ])('%s is %s', (country, regime) => {
    expect(regimeOf(country)).toBe(regime);
  });

  const cases: [TaxRegime, number[], number[]][] = [
    ['INDIA', [0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40], [2, 0.2, 15, 100, -18]],
    ['UAE', [0, 5], [15, 0.5]],
    ['SAUDI', [0, 15], [5]],
    ['MALAYSIA', [0, 5, 6, 8, 10], [18]],
    ['OTHER', [0, 0.0001, 7.25, 19.6, 100], [100.0001, 0.00001, -1]],
  ];
  it.each(cases)('%s accepts %j, refuses %j', (regime, accepted, refused) => {
    for (const rate of accepted) expect(isAllowedRate(regime, d(rate))).toBe(true);
    for (const rate of refused) expect(isAllowedRate(regime, d(rate))).toBe(false);
  });

  it('rates compare by value (18 = 18.0, read by JSON.parse)', () => {
    expect(isAllowedRate('INDIA', d(JSON.parse('18.00') as number))).toBe(true);
  });

  it('the rule texts name the sets', () => {
    expect(allowedRatesText('UAE')).toBe('0, 5');
    expect(allowedRatesText('OTHER')).toBe('0 to 100 with at most 4 decimals');
  });
});

describe('3.2.3 India: IGST or CGST + SGST', () => {
  const cases: [string, string, string | null, string | null, boolean][] = [
    ['same state, regular buyer', 'IN', '29', 'REG', false],
    ['same state, unregistered consumer', 'IN', '29', null, false],
    ['another state', 'IN', '27', 'REG', true],
    ['same state, an SEZ unit', 'IN', '29', 'SEZ', true],
    ['an export', 'US', null, 'EXP', true],
    ['a foreign buyer whatever state it names', 'AE', '29', null, true],
  ];
  it.each(cases)('%s', (_name, buyerCountry, buyerGstState, buyerTaxPayerType, interState) => {
    expect(isInterStateSupply({ sellerGstState: '29', buyerCountry, buyerGstState, buyerTaxPayerType })).toBe(
      interState,
    );
  });
});
