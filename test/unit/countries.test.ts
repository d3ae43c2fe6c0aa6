import { describe, expect, it, vi } from 'vitest';
import {
  COUNTRY_CODES,
  defaultCurrencyForCountry,
  defaultLocaleForCountry,
  isCountryCode,
  isCurrencyCode,
  isLocale,
} from '../../src/validation/countries.js';

describe('ISO 3166-1 and ISO 4217 from the maintained packages', () => {
  it.each(['IN', 'AE', 'SA', 'MY', 'GB', 'IE', 'US'])('%s is a country', (code) =>
    expect(isCountryCode(code)).toBe(true),
  );
  it.each(['in', 'IND', 'ZZ', 'UK', '', 'I'])('%s is not', (code) => expect(isCountryCode(code)).toBe(false));
  it.each(['INR', 'AED', 'USD', 'EUR', 'MYR'])('%s is a currency', (code) => expect(isCurrencyCode(code)).toBe(true));
  it.each(['inr', 'RS', 'ABC', 'INRR', ''])('%s is not', (code) => expect(isCurrencyCode(code)).toBe(false));
});

describe('default document locale per country (docs/derivation.md)', () => {
  it.each([
    ['IN', 'en-IN'],
    ['AE', 'en-AE'],
    ['MY', 'en-MY'],
    ['SA', 'ar-SA'],
    ['GB', 'en-GB'],
    ['US', 'en-US'],
    ['DE', 'de-DE'],
    ['FR', 'fr-FR'],
    ['JP', 'ja-JP'],
    ['PH', 'en-PH'],
    ['QA', 'ar-QA'],
  ])('%s → %s', (country, locale) => expect(defaultLocaleForCountry(country)).toBe(locale));

  it('gives every country a valid xx-XX locale for that country', () => {
    for (const country of COUNTRY_CODES) {
      const locale = defaultLocaleForCountry(country);
      expect(locale).toMatch(new RegExp(`^[a-z]{2}-${country}$`));
      expect(isLocale(locale ?? '')).toBe(true);
    }
  });

  it('has no locale for a non-country', () => expect(defaultLocaleForCountry('ZZ')).toBeNull());

  it("issue 27: comes from a fixed table, not the runtime's ICU data (a Node upgrade cannot move a derived locale)", () => {
    const spy = vi.spyOn(Intl.Locale.prototype, 'maximize').mockImplementation(function (this: Intl.Locale) {
      return { language: 'eo', region: this.region } as Intl.Locale;
    });
    try {
      expect(['DE', 'FR', 'SA', 'JP'].map(defaultLocaleForCountry)).toEqual(['de-DE', 'fr-FR', 'ar-SA', 'ja-JP']);
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['en-IN', true],
    ['ar-AE', true],
    ['EN-IN', false],
    ['en_IN', false],
    ['en-ZZ', false],
    ['qq-IN', false],
    ['en', false],
    ['fil-PH', false],
  ])('isLocale(%s) → %s', (locale, ok) => expect(isLocale(locale)).toBe(ok));
});

describe('default currency per country', () => {
  it.each([
    ['IN', 'INR'],
    ['AE', 'AED'],
    ['SA', 'SAR'],
    ['MY', 'MYR'],
    ['US', 'USD'],
    ['GB', 'GBP'],
    ['DE', 'EUR'],
    ['CH', 'CHF'],
    ['MX', 'MXN'],
    ['BT', 'BTN'],
    ['CG', 'XAF'],
    ['CD', 'CDF'],
    ['KR', 'KRW'],
    ['VN', 'VND'],
  ])('%s → %s', (country, currency) => expect(defaultCurrencyForCountry(country)).toBe(currency));

  it('always answers a real ISO 4217 code', () => {
    for (const country of COUNTRY_CODES) expect(isCurrencyCode(defaultCurrencyForCountry(country))).toBe(true);
  });
});
