import { describe, expect, it } from 'vitest';
import { amountInWords, wholeNumberInWords } from '../../src/documents/amount-words.js';

const inr = (minorUnits: bigint) => amountInWords({ minorUnits, currency: 'INR', minorDigits: 2, locale: 'en-IN' });

describe('4.7 amounts in words', () => {
  it.each([
    [0n, 'Zero'],
    [1n, 'One'],
    [19n, 'Nineteen'],
    [20n, 'Twenty'],
    [21n, 'Twenty-One'],
    [99n, 'Ninety-Nine'],
    [100n, 'One Hundred'],
    [101n, 'One Hundred One'],
    [1_000n, 'One Thousand'],
    [1_00_000n, 'One Lakh'],
    [10_00_000n, 'Ten Lakh'],
    [1_00_00_000n, 'One Crore'],
    [99_99_99_999n, 'Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine'],
    [1_00_00_00_000n, 'One Hundred Crore'],
    [
      99_999_99_99_999n,
      'Ninety-Nine Thousand Nine Hundred Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine',
    ],
  ])('Indian grouping: %s is %s', (value, words) => {
    expect(wholeNumberInWords(value, true)).toBe(words);
  });

  it.each([
    [1_000n, 'One Thousand'],
    [100_000n, 'One Hundred Thousand'],
    [1_000_000n, 'One Million'],
    [999_999_999n, 'Nine Hundred Ninety-Nine Million Nine Hundred Ninety-Nine Thousand Nine Hundred Ninety-Nine'],
    [1_000_000_000n, 'One Billion'],
    [
      999_999_999_999n,
      'Nine Hundred Ninety-Nine Billion Nine Hundred Ninety-Nine Million Nine Hundred Ninety-Nine Thousand Nine Hundred Ninety-Nine',
    ],
  ])('Western grouping: %s is %s', (value, words) => {
    expect(wholeNumberInWords(value, false)).toBe(words);
  });

  it('the two examples of 4.7', () => {
    expect(inr(158_000n)).toBe('Rupees One Thousand Five Hundred Eighty Only');
    expect(inr(12_34_56_789_05n)).toBe(
      'Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine and Five Paise Only',
    );
  });

  it('INR zero, paise alone, and paise in words', () => {
    expect(inr(0n)).toBe('Rupees Zero Only');
    expect(inr(1n)).toBe('Rupees Zero and One Paise Only');
    expect(inr(99n)).toBe('Rupees Zero and Ninety-Nine Paise Only');
    expect(inr(10_021n)).toBe('Rupees One Hundred and Twenty-One Paise Only');
  });

  it('other currencies: the code and the minor part as a fraction of 10^d', () => {
    const words = (minorUnits: bigint, currency: string, minorDigits: number, locale: string) =>
      amountInWords({ minorUnits, currency, minorDigits, locale });
    expect(words(427_575n, 'AED', 2, 'en-AE')).toBe('AED Four Thousand Two Hundred Seventy-Five and 75/100 Only');
    expect(words(100_000_000n, 'USD', 2, 'en-US')).toBe('USD One Million Only');
    expect(words(1_234_005n, 'KWD', 3, 'ar-KW')).toBe('KWD One Thousand Two Hundred Thirty-Four and 5/1000 Only');
    expect(words(1_500n, 'JPY', 0, 'ja-JP')).toBe('JPY One Thousand Five Hundred Only');
  });

  it('a non-IN locale groups INR in millions; an IN locale groups another currency in lakhs', () => {
    expect(amountInWords({ minorUnits: 123_456_789_00n, currency: 'INR', minorDigits: 2, locale: 'en-US' })).toBe(
      'Rupees One Hundred Twenty-Three Million Four Hundred Fifty-Six Thousand Seven Hundred Eighty-Nine Only',
    );
    expect(amountInWords({ minorUnits: 1_00_000_00n, currency: 'USD', minorDigits: 2, locale: 'hi-IN' })).toBe(
      'USD One Lakh Only',
    );
  });

  it('refuses a negative amount', () => {
    expect(() => wholeNumberInWords(-1n, true)).toThrow(RangeError);
  });
});
