import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatDate,
  formatQuantity,
  formatRate,
  minorUnitDigits,
  minorUnitsToDecimal,
  toMinorUnits,
} from '../../src/documents/locale-format.js';

describe('4.7 locale formatting from CLDR (Intl)', () => {
  it('this Node carries full ICU (the formats below need CLDR data for en-IN and ar-SA)', () => {
    expect(Intl.NumberFormat.supportedLocalesOf(['en-IN', 'ar-SA', 'de-DE'])).toEqual(['en-IN', 'ar-SA', 'de-DE']);
  });

  it.each([
    ['en-IN', 123_456_780n, 2, '12,34,567.80'],
    ['en-US', 123_456_780n, 2, '1,234,567.80'],
    ['en-IN', 99_999_999_999_999n, 2, '9,99,99,99,99,999.99'],
    ['en-AE', 427_575n, 2, '4,275.75'],
    ['de-DE', 123_456_780n, 2, '1.234.567,80'],
    ['en-US', 5n, 2, '0.05'],
    ['en-US', 1_234_005n, 3, '1,234.005'],
    ['ja-JP', 1_500n, 0, '1,500'],
    ['ar-SA', 115_000n, 2, '١٬١٥٠٫٠٠'],
  ])('%s: %s minor units with %s digits is %s', (locale, minorUnits, digits, text) => {
    expect(formatAmount(minorUnits, digits, locale)).toBe(text);
  });

  it('medium dates in the business time zone', () => {
    expect(formatDate('2021-06-17T18:30:00.000Z', 'en-IN', 'Asia/Kolkata')).toBe('18 Jun 2021');
    expect(formatDate('2021-06-17T18:30:00.000Z', 'en-US', 'America/New_York')).toBe('Jun 17, 2021');
  });

  it('money numbers of an answer read as exact minor units, never through float arithmetic', () => {
    expect(toMinorUnits(236, 2)).toBe(23_600n);
    expect(toMinorUnits(12.1, 2)).toBe(1_210n);
    expect(toMinorUnits(0.05, 2)).toBe(5n);
    expect(toMinorUnits(17.18, 2)).toBe(1_718n);
    expect(toMinorUnits(999_999_999_999.99, 2)).toBe(99_999_999_999_999n);
    expect(toMinorUnits(-86.75, 2)).toBe(-8_675n);
    expect(() => toMinorUnits(0.001, 2)).toThrow(RangeError);
    expect(minorUnitsToDecimal(-8_675n, 2)).toBe('-86.75');
    expect(minorUnitsToDecimal(7n, 3)).toBe('0.007');
  });

  it('ISO 4217 minor units', () => {
    expect([minorUnitDigits('INR'), minorUnitDigits('JPY'), minorUnitDigits('KWD')]).toEqual([2, 0, 3]);
  });

  it('rates and quantities as the locale writes numbers, unpadded', () => {
    expect(formatRate(7.5, 'en-IN')).toBe('7.5');
    expect(formatRate(0.25, 'de-DE')).toBe('0,25');
    expect(formatQuantity(1234.5, 'en-IN')).toBe('1,234.5');
  });
});
