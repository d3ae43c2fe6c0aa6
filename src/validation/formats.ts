import { COUNTRY_CODES, CURRENCY_CODES, isCountryCode, isCurrencyCode, isLocale } from './countries.js';
import { EMAIL_MAX_LENGTH, isValidEmail } from './email.js';
import { normalisePhone } from './phone.js';
import {
  GSTIN_JSON_PATTERN, GST_STATE_CODES, isMalaysiaSst, isMalaysiaTin, isPan, isUaeTrn, parseGstin,
} from './tax-ids.js';

/**
 * Named value formats a schema descriptor can point at. Each has the check the validator runs and the
 * closest JSON Schema rendering (pattern or enum), so the validator and the OpenAPI document cannot drift.
 */

export type FormatName =
  | 'email' | 'phone' | 'country' | 'currency' | 'locale' | 'gstin' | 'gstState' | 'pan' | 'trn' | 'tin' | 'sst'
  | 'sortCode' | 'taxPayerType';

export interface FormatContext {
  businessCountry: string;
  enforceGstinChecksum: boolean;
}

export type FormatResult = { ok: true; value: string } | { ok: false; reason: string };

export interface FormatRule {
  description: string;
  jsonPattern?: string;
  jsonEnum?: readonly string[];
  check(value: string, context: FormatContext): FormatResult;
}

export const TAX_PAYER_TYPES: Readonly<Record<string, readonly string[]>> = {
  IN: ['B2C', 'REG', 'UNREG', 'EXP', 'SEZ', 'TDS', 'DEX', 'COM'],
  AE: ['VATR', 'VATNR', 'GCCVATR', 'GCCVATNR', 'NGCC', 'VATRDZ', 'VATRNDZ'],
};

const kept = (value: string): FormatResult => ({ ok: true, value });
const rejected = (reason: string): FormatResult => ({ ok: false, reason });
const byTest = (test: (value: string) => boolean, reason: string) => (value: string): FormatResult =>
  test(value) ? kept(value) : rejected(reason);

function checkTaxPayerType(value: string, context: FormatContext): FormatResult {
  const vocabulary = TAX_PAYER_TYPES[context.businessCountry];
  if (!vocabulary) return rejected('is accepted only for businesses in India (IN) or the UAE (AE)');
  return vocabulary.includes(value) ? kept(value) : rejected(`must be one of ${vocabulary.join(', ')} for a business in ${context.businessCountry}`);
}

export const FORMATS: Readonly<Record<FormatName, FormatRule>> = {
  email: {
    description: `An e-mail address (at most ${EMAIL_MAX_LENGTH} characters); compared case-insensitively.`,
    check: byTest(isValidEmail, 'must be a valid e-mail address'),
  },
  phone: {
    description: 'Digits with an optional leading +; round brackets, spaces and hyphens are stripped and a leading + added. At most 30 characters after normalisation.',
    jsonPattern: '^[0-9+() -]+$',
    check: (value) => {
      const result = normalisePhone(value);
      return result.ok ? kept(result.value) : rejected(result.reason);
    },
  },
  country: { description: 'ISO 3166-1 alpha-2 country code.', jsonEnum: COUNTRY_CODES, check: byTest(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code') },
  currency: { description: 'ISO 4217 currency code.', jsonEnum: CURRENCY_CODES, check: byTest(isCurrencyCode, 'must be an ISO 4217 currency code') },
  locale: {
    description: 'Locale in xx-XX form: two-letter language, ISO 3166-1 country.',
    jsonPattern: '^[a-z]{2}-[A-Z]{2}$',
    check: byTest(isLocale, 'must be a locale in xx-XX form (language-COUNTRY)'),
  },
  gstin: {
    description: '15-character Indian GSTIN in any form: regular, government, UIN, NRI, TDS, TCS, OIDAR.',
    jsonPattern: GSTIN_JSON_PATTERN,
    check: (value, context) => parseGstin(value, { enforceChecksum: context.enforceGstinChecksum })
      ? kept(value)
      : rejected(context.enforceGstinChecksum ? 'must be a valid 15-character GSTIN with a correct check character' : 'must be a valid 15-character GSTIN'),
  },
  gstState: { description: 'Indian GST state code (two digits).', jsonEnum: [...GST_STATE_CODES.keys()], check: byTest((v) => GST_STATE_CODES.has(v), 'must be an Indian GST state code (two digits, e.g. 27)') },
  pan: { description: 'Indian PAN: 10 alphanumeric characters.', jsonPattern: '^[A-Za-z0-9]{10}$', check: byTest(isPan, 'must be 10 alphanumeric characters') },
  trn: { description: 'UAE TRN: 15 digits beginning with 1.', jsonPattern: '^1[0-9]{14}$', check: byTest(isUaeTrn, 'must be a UAE TRN: 15 digits beginning with 1') },
  tin: { description: 'Malaysia TIN: 10 to 15 uppercase letters or digits.', jsonPattern: '^[A-Z0-9]{10,15}$', check: byTest(isMalaysiaTin, 'must be a Malaysian TIN: 10 to 15 uppercase letters or digits') },
  sst: {
    description: 'Malaysia SST registration: AAA-9999-99999999 or A99-9999-99999999.',
    jsonPattern: '^(?:[A-Z]{3}|[A-Z][0-9]{2})-[0-9]{4}-[0-9]{8}$',
    check: byTest(isMalaysiaSst, 'must match AAA-9999-99999999 or A99-9999-99999999'),
  },
  sortCode: {
    description: 'UK/Irish sort code NN-NN-NN or NNNNNN; accepted only when bankCountry is GB or IE.',
    jsonPattern: '^(?:[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9]{6})$',
    check: byTest((v) => /^(?:[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9]{6})$/.test(v), 'must be NN-NN-NN or NNNNNN (digits)'),
  },
  taxPayerType: {
    description: 'Vocabulary of the business\'s country: IN or AE (see the tables); rejected for other businesses.',
    jsonEnum: [...(TAX_PAYER_TYPES.IN ?? []), ...(TAX_PAYER_TYPES.AE ?? [])],
    check: checkTaxPayerType,
  },
};
