import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries/index.js';
import currencyCodes from 'currency-codes';
import { LANGUAGE_BY_COUNTRY } from './locales.js';

// The package's main entry registers all of its ~80 languages (11 MB resident); we read English names only.
countries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json') as countries.LocaleData);

/**
 * Countries (ISO 3166-1 alpha-2, from i18n-iso-countries), currencies (ISO 4217, from currency-codes)
 * and the per-country defaults the service derives: a document locale and a business currency.
 * Codes are exact uppercase: stored values are never case-folded.
 */

export const COUNTRY_CODES: readonly string[] = Object.keys(countries.getAlpha2Codes()).sort();
const COUNTRY_SET = new Set(COUNTRY_CODES);

/** Every accepted code with its English name, by name: what the dashboard's country select offers. */
export const COUNTRY_CHOICES: readonly { code: string; name: string }[] = COUNTRY_CODES.map((code) => ({
  code,
  name: countries.getName(code, 'en') ?? code,
})).sort((a, b) => a.name.localeCompare(b.name, 'en'));

export function isCountryCode(code: string): boolean {
  return COUNTRY_SET.has(code);
}

export const CURRENCY_CODES: readonly string[] = currencyCodes
  .codes()
  .filter((code) => /^[A-Z]{3}$/.test(code))
  .sort();
const CURRENCY_SET = new Set(CURRENCY_CODES);

export function isCurrencyCode(code: string): boolean {
  return CURRENCY_SET.has(code);
}

/**
 * currency-codes lists countries by ISO English name, which does not always match i18n-iso-countries'
 * names, and some countries carry fund or secondary codes beside their everyday currency. These
 * countries are settled by hand: the currency an invoice there is normally issued in.
 */
const CURRENCY_OVERRIDES: Record<string, string> = {
  BO: 'BOB',
  BT: 'BTN',
  CC: 'AUD',
  CD: 'CDF',
  CG: 'XAF',
  CH: 'CHF',
  CL: 'CLP',
  CO: 'COP',
  CU: 'CUP',
  CV: 'CVE',
  FK: 'FKP',
  FM: 'USD',
  GB: 'GBP',
  GS: 'GBP',
  HT: 'HTG',
  IR: 'IRR',
  KP: 'KPW',
  KR: 'KRW',
  LA: 'LAK',
  LS: 'LSL',
  MD: 'MDL',
  MX: 'MXN',
  NA: 'NAD',
  PA: 'PAB',
  PS: 'ILS',
  RE: 'EUR',
  SH: 'SHP',
  SV: 'USD',
  TR: 'TRY',
  TW: 'TWD',
  TZ: 'TZS',
  US: 'USD',
  UY: 'UYU',
  VA: 'EUR',
  VE: 'VES',
  VG: 'USD',
  VI: 'USD',
  VN: 'VND',
  XK: 'EUR',
};

const FALLBACK_CURRENCY = 'USD';

function buildCurrencyByCountry(): Map<string, string> {
  const byCountry = new Map<string, string>(Object.entries(CURRENCY_OVERRIDES));
  for (const record of currencyCodes.data) {
    for (const name of record.countries) {
      const alpha2 = countries.getAlpha2Code(name.replace(/ \(The\)$/, ''), 'en');
      if (alpha2 && !byCountry.has(alpha2)) byCountry.set(alpha2, record.code);
    }
  }
  return byCountry;
}

const CURRENCY_BY_COUNTRY = buildCurrencyByCountry();

/** The currency a business in this country invoices in by default; USD where a territory has none (AQ). */
export function defaultCurrencyForCountry(country: string): string {
  return CURRENCY_BY_COUNTRY.get(country) ?? FALLBACK_CURRENCY;
}

/** Default document locale for a country, in xx-XX form, from the fixed table in locales.ts. */
export function defaultLocaleForCountry(country: string): string | null {
  if (!isCountryCode(country)) return null;
  return `${LANGUAGE_BY_COUNTRY.get(country) ?? 'en'}-${country}`;
}

/**
 * The locale a business's figures are written in (BCP 47): its country's document locale, en-US for a
 * country with none. The one rule behind the Business answer's `locale`, the invoice totals and reports, and
 * an invoice's last-resort default (docs/decisions.md "Figures in the business's locale").
 */
export function businessLocale(country: string): string {
  return defaultLocaleForCountry(country) ?? 'en-US';
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A locale in xx-XX form: a two-letter language known to ICU and an ISO 3166-1 country. */
export function isLocale(value: string): boolean {
  const match = /^([a-z]{2})-([A-Z]{2})$/.exec(value);
  if (!match) return false;
  const [, language = '', region = ''] = match;
  return isCountryCode(region) && LANGUAGE_NAMES.of(language) !== undefined;
}
