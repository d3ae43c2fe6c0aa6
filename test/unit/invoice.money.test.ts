import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimal,
  currencyOf,
  decimal,
  decimalOf,
  decimalToJson,
  decimalToText,
  exactMinor,
  MAX_SIGNIFICANT_DIGITS,
  minorToScale,
  moneyToJson,
  moneyToText,
  roundToMinor,
} from '../../src/invoices/invoice.money.js';
import { FUZZ_SEED } from '../helpers/fuzz-seed.js';

const RUNS = { numRuns: 2000, seed: FUZZ_SEED };
const INR = currencyOf('INR')!;
const JPY = currencyOf('JPY')!;
const KWD = currencyOf('KWD')!;

describe('3.1.1 decimalOf: a JSON number is the decimal its text denotes', () => {
  const cases: [string, string, number, number][] = [
    // JSON text, exact decimal, significant digits, decimal places
    ['0.1', '0.1', 1, 1],
    ['1e-7', '0.0000001', 1, 7],
    ['1E21', '1000000000000000000000', 1, 0],
    ['-0', '0', 1, 0],
    ['0', '0', 1, 0],
    ['12.10', '12.1', 3, 1],
    ['18.0', '18', 2, 0],
    ['1200.5', '1200.5', 5, 1],
    ['0.0012', '0.0012', 2, 4],
    ['1.005', '1.005', 4, 3],
    ['-86.75', '-86.75', 4, 2],
    ['123456789012345', '123456789012345', 15, 0],
    ['1234567890123456', '1234567890123456', 16, 0],
    ['0.123456789012345', '0.123456789012345', 15, 15],
    ['1.5e300', `15${'0'.repeat(299)}`, 2, 0],
    // 17 digits cannot survive binary64: the nearest double's shortest form has 17 digits, refused by a validator.
    ['12345678901234567', '12345678901234568', 17, 0],
  ];
  it.each(cases)('%s is %s (%i significant, %i decimals)', (text, exact, significantDigits, decimalPlaces) => {
    const parsed = decimalOf(JSON.parse(text));
    expect(
      parsed && {
        text: decimalToText(parsed.value),
        significantDigits: parsed.significantDigits,
        decimalPlaces: parsed.decimalPlaces,
      },
    ).toEqual({ text: exact, significantDigits, decimalPlaces });
  });

  it.each([NaN, Infinity, -Infinity, '1', null, undefined, 10n, {}])('%s is not a number', (value) => {
    expect(decimalOf(value)).toBeNull();
  });

  it('any decimal text of at most 15 significant digits reads back to itself through binary64', () => {
    const text = fc
      .tuple(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), fc.integer({ min: 0, max: 20 }))
      .map(([units, scale]) => decimalToText(decimal(units, scale)));
    fc.assert(
      fc.property(text, (sent) => {
        const parsed = decimalOf(JSON.parse(sent))!;
        expect(parsed.significantDigits).toBeLessThanOrEqual(MAX_SIGNIFICANT_DIGITS);
        expect(decimalToText(parsed.value)).toBe(sent);
      }),
      RUNS,
    );
  });

  it('every finite double reads as the decimal of its shortest text, which reads back as that double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const parsed = decimalOf(n)!;
        expect(Object.is(Number(decimalToText(parsed.value)), n === 0 ? 0 : n)).toBe(true);
        expect(parsed.significantDigits).toBeLessThanOrEqual(17);
      }),
      RUNS,
    );
  });

  it('equal values compare equal however they were written', () => {
    expect(compareDecimal(decimalOf(18)!.value, decimalOf(JSON.parse('18.000'))!.value)).toBe(0);
    expect(decimalOf(JSON.parse('18.000'))!.value).toEqual(decimalOf(18)!.value);
    expect(compareDecimal(decimalOf(0.1)!.value, decimalOf(0.09)!.value)).toBe(1);
    expect(decimalToJson(decimalOf(1e-7)!.value)).toBe(1e-7);
  });
});

describe('3.1.2 currencies and R', () => {
  it.each([
    ['INR', 2],
    ['AED', 2],
    ['SAR', 2],
    ['MYR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['OMR', 3],
  ])('%s has %i decimals', (code, minorUnit) => {
    expect(currencyOf(code)).toEqual({ code, minorUnit });
  });
  it.each(['XAU', 'XDR', 'XXX', 'XTS', 'CLF', 'UYW', 'ABC', 'inr', ''])('%s is not an invoice currency', (code) => {
    expect(currencyOf(code)).toBeNull();
  });

  const rounding: [number, typeof INR, bigint][] = [
    [1.005, INR, 101n],
    [0.027, INR, 3n],
    [0.0249999, INR, 2n],
    [0.025, INR, 3n],
    [-0.005, INR, -1n],
    [-0.0049, INR, 0n],
    [2.385, INR, 239n],
    [0.5, JPY, 1n],
    [1.4999, JPY, 1n],
    [-2.5, JPY, -3n],
    [1.2345, KWD, 1235n],
    [1e-7, INR, 0n],
    [1e21, INR, 10n ** 23n],
    [12, INR, 1200n],
  ];
  it.each(rounding)('R(%s %s) is %s minor units, half away from zero', (value, currency, minor) => {
    expect(roundToMinor(decimalOf(value)!.value, currency)).toBe(minor);
  });

  it('exactMinor takes an amount within the minor unit, and nothing finer', () => {
    expect(exactMinor(decimalOf(12.1)!.value, INR)).toBe(1210n);
    expect(exactMinor(decimalOf(12.105)!.value, INR)).toBeNull();
    expect(exactMinor(decimalOf(3)!.value, JPY)).toBe(3n);
    expect(exactMinor(decimalOf(0.5)!.value, JPY)).toBeNull();
  });
});

describe('money out: JSON numbers and text', () => {
  it('minorToScale rescales exactly (client balances keep ten-thousandths)', () => {
    expect(minorToScale(427575n, INR, 4)).toBe(42757500n);
    expect(minorToScale(236n, JPY, 4)).toBe(2360000n);
    expect(minorToScale(1235n, KWD, 4)).toBe(12350n);
    expect(() => minorToScale(1235n, KWD, 2)).toThrow(RangeError);
  });

  const cases: [bigint, typeof INR, string, string][] = [
    [23600n, INR, '236', '236.00'],
    [1210n, INR, '12.1', '12.10'],
    [5n, INR, '0.05', '0.05'],
    [0n, INR, '0', '0.00'],
    [-8675n, INR, '-86.75', '-86.75'],
    [115000n, INR, '1150', '1150.00'],
    [236n, JPY, '236', '236'],
    [1235n, KWD, '1.235', '1.235'],
    [100n, KWD, '0.1', '0.100'],
    [99999999999999n, INR, '999999999999.99', '999999999999.99'],
    [999999999999999n, KWD, '999999999999.999', '999999999999.999'],
    [1n, KWD, '0.001', '0.001'],
    [-99999999999999n, INR, '-999999999999.99', '-999999999999.99'],
    [999999999999n, JPY, '999999999999', '999999999999'],
    [1n, INR, '0.01', '0.01'],
    [10n, INR, '0.1', '0.10'],
  ];
  it.each(cases)('%s minor units of %o: JSON %s, text %s', (minor, currency, json, text) => {
    expect(JSON.stringify(moneyToJson(minor, currency))).toBe(json);
    expect(moneyToText(minor, currency)).toBe(text);
  });

  it('every value below 10^12 with at most 3 decimals has a JSON number whose text is exact', () => {
    const currency = fc.constantFrom(INR, JPY, KWD);
    const money = currency.chain((c) =>
      fc.tuple(
        fc.constant(c),
        fc.bigInt({ min: -(10n ** BigInt(12 + c.minorUnit)) + 1n, max: 10n ** BigInt(12 + c.minorUnit) - 1n }),
      ),
    );
    fc.assert(
      fc.property(money, ([c, minor]) => {
        const exact = decimalToText(decimal(minor, c.minorUnit));
        expect(JSON.stringify(moneyToJson(minor, c))).toBe(exact);
        expect(roundToMinor(decimalOf(JSON.parse(exact))!.value, c)).toBe(minor);
      }),
      RUNS,
    );
  });

  it('16 digits have no exact JSON number: a programming error, thrown', () => {
    expect(() => moneyToJson(10n ** 15n, INR)).toThrow(RangeError);
    expect(moneyToJson(10n ** 15n - 1n, INR)).toBe(9999999999999.99);
  });
});
