import { isTimeZone } from './time-zones.js';
import { COUNTRY_CODES, CURRENCY_CODES, isCountryCode, isCurrencyCode, isLocale } from './countries.js';
import { EMAIL_MAX_LENGTH, isValidEmail } from './email.js';
import { normalisePhone, PHONE_MAX_LENGTH } from './phone.js';
import { TAX_FORMATS, TAX_PAYER_TYPE_COUNTRIES_TEXT, TAX_PAYER_TYPES, type TaxFormatName } from '../tax/countries.js';
import { byTest, kept, rejected, type FormatContext, type FormatResult, type FormatRule } from './format-rule.js';

/**
 * Named value formats a schema descriptor can point at. Each has the check the validator runs and the
 * closest JSON Schema rendering (pattern or enum), so the validator and the OpenAPI document cannot drift.
 */

export type FormatName =
  | 'email'
  | 'phone'
  | 'country'
  | 'currency'
  | 'locale'
  | 'timeZone'
  | 'sortCode'
  | 'taxPayerType'
  | TaxFormatName;

export type { FormatContext, FormatResult, FormatRule };
export { TAX_PAYER_TYPES };

function checkTaxPayerType(value: string, context: FormatContext): FormatResult {
  const vocabulary = TAX_PAYER_TYPES[context.businessCountry];
  if (!vocabulary) return rejected(`is accepted only for businesses in ${TAX_PAYER_TYPE_COUNTRIES_TEXT}`);
  return vocabulary.includes(value)
    ? kept(value)
    : rejected(`must be one of ${vocabulary.join(', ')} for a business in ${context.businessCountry}`);
}

export const FORMATS: Readonly<Record<FormatName, FormatRule>> = {
  email: {
    description: `An e-mail address (at most ${EMAIL_MAX_LENGTH} characters); compared case-insensitively.`,
    check: byTest(isValidEmail, 'must be a valid e-mail address'),
  },
  phone: {
    description:
      'Digits with an optional leading +; round brackets, spaces and hyphens are stripped and a leading + added. ' +
      `At most ${PHONE_MAX_LENGTH} characters after normalisation.`,
    jsonPattern: '^[0-9+() -]+$',
    check: (value) => {
      const result = normalisePhone(value);
      return result.ok ? kept(result.value) : rejected(result.reason);
    },
  },
  country: {
    description: 'ISO 3166-1 alpha-2 country code.',
    jsonEnum: COUNTRY_CODES,
    check: byTest(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code'),
  },
  currency: {
    description: 'ISO 4217 currency code.',
    jsonEnum: CURRENCY_CODES,
    check: byTest(isCurrencyCode, 'must be an ISO 4217 currency code'),
  },
  locale: {
    description: 'Locale in xx-XX form: two-letter language, ISO 3166-1 country.',
    jsonPattern: '^[a-z]{2}-[A-Z]{2}$',
    check: byTest(isLocale, 'must be a locale in xx-XX form (language-COUNTRY)'),
  },
  timeZone: {
    description: 'An IANA time zone name, like Asia/Kolkata.',
    check: byTest(isTimeZone, 'must be an IANA time zone name, like Asia/Kolkata'),
  },
  sortCode: {
    description: 'UK/Irish sort code NN-NN-NN or NNNNNN; accepted only when bankCountry is GB or IE.',
    jsonPattern: '^(?:[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9]{6})$',
    check: byTest((v) => /^(?:[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9]{6})$/.test(v), 'must be NN-NN-NN or NNNNNN (digits)'),
  },
  taxPayerType: {
    description: `Vocabulary of the business's country: ${Object.keys(TAX_PAYER_TYPES).join(' or ')} (see the tables); rejected for other businesses.`,
    jsonEnum: Object.values(TAX_PAYER_TYPES).flat(),
    check: checkTaxPayerType,
  },
  ...TAX_FORMATS,
};
