import { byTest, type FormatRule } from '../validation/format-rule.js';
import type { TaxCountry, TaxPayerEvidence } from './tax-country.js';

/** United Arab Emirates (AE): the TRN, the UAE VAT taxPayerType vocabulary and its derivation. */

/** UAE Tax Registration Number: 15 digits beginning with 1. */
export function isUaeTrn(value: string): boolean {
  return /^1[0-9]{14}$/.test(value);
}

/** The other GCC states; a client in one of them is GCC for a UAE business's VAT. */
export const GCC_COUNTRIES_OUTSIDE_UAE: ReadonlySet<string> = new Set(['SA', 'BH', 'KW', 'OM', 'QA']);

/** A UAE TRN (the UAE's own registration) decides first; then the country: UAE, other GCC, outside. */
function deriveTaxPayerType({ country, ids }: TaxPayerEvidence): string {
  if (ids.trnNumber !== null) return 'VATR';
  if (country === null || country === 'AE') return 'VATNR';
  if (GCC_COUNTRIES_OUTSIDE_UAE.has(country)) return ids.vatNumber !== null ? 'GCCVATR' : 'GCCVATNR';
  return 'NGCC';
}

const formats = {
  trn: {
    description: 'UAE TRN: 15 digits beginning with 1.',
    jsonPattern: '^1[0-9]{14}$',
    check: byTest(isUaeTrn, 'must be a UAE TRN: 15 digits beginning with 1'),
  },
} satisfies Record<string, FormatRule>;

export const UAE = {
  code: 'AE',
  name: 'the UAE',
  formats,
  additionalIds: [],
  taxPayerTypes: ['VATR', 'VATNR', 'GCCVATR', 'GCCVATNR', 'NGCC', 'VATRDZ', 'VATRNDZ'],
  registrations: ['trnNumber'],
  deriveTaxPayerType,
} satisfies TaxCountry;

/** UAE VAT rates (percent) an invoice item may carry (invoices-interface 3.3). */
export const UAE_VAT_RATES: readonly number[] = [0, 5];
