import countries from 'i18n-iso-countries';
import currencyCodes from 'currency-codes';

export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && currencyCodes.code(code) !== undefined;
}

const CURRENCY_BY_COUNTRY: Record<string, string> = { IN: 'INR', AE: 'AED', SA: 'SAR', MY: 'MYR', US: 'USD', GB: 'GBP' };

export function defaultCurrencyForCountry(country: string): string {
  return CURRENCY_BY_COUNTRY[country] ?? 'USD';
}
