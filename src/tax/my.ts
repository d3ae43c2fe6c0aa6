import { byTest, type FormatRule } from '../validation/format-rule.js';
import { ANY_VALUE, codesOf, type TaxCountry } from './tax-country.js';

/** Malaysia (MY): TIN and SST formats, the BRN, NRIC and passport additional ids, clientType from a TIN. */

/** Malaysian Tax Identification Number: 10 to 15 uppercase letters or digits. */
export function isMalaysiaTin(value: string): boolean {
  return /^[A-Z0-9]{10,15}$/.test(value);
}

/** Malaysian SST registration: AAA-9999-99999999 or A99-9999-99999999. */
export function isMalaysiaSst(value: string): boolean {
  return /^(?:[A-Z]{3}|[A-Z][0-9]{2})-[0-9]{4}-[0-9]{8}$/.test(value);
}

/** Malaysian TIN prefixes issued to individuals (IG since 2023; SG and OG before). */
export function isIndividualMalaysiaTin(tin: string): boolean {
  return /^(?:IG|SG|OG)/.test(tin);
}

const formats = {
  tin: {
    description: 'Malaysia TIN: 10 to 15 uppercase letters or digits.',
    jsonPattern: '^[A-Z0-9]{10,15}$',
    check: byTest(isMalaysiaTin, 'must be a Malaysian TIN: 10 to 15 uppercase letters or digits'),
  },
  sst: {
    description: 'Malaysia SST registration: AAA-9999-99999999 or A99-9999-99999999.',
    jsonPattern: '^(?:[A-Z]{3}|[A-Z][0-9]{2})-[0-9]{4}-[0-9]{8}$',
    check: byTest(isMalaysiaSst, 'must match AAA-9999-99999999 or A99-9999-99999999'),
  },
} satisfies Record<string, FormatRule>;

export const MALAYSIA = {
  code: 'MY',
  name: 'Malaysia',
  formats,
  additionalIds: codesOf('MY', [
    { code: 'BRN', identifier: 'Business Registration Number', scope: 'both', ...ANY_VALUE },
    { code: 'NRIC', identifier: 'National Registration Identity Card', scope: 'both', ...ANY_VALUE },
    { code: 'PASSPORT', identifier: 'Passport Number', scope: 'both', ...ANY_VALUE },
  ]),
  // A TIN's prefix tells an individual from a business (the other Malaysian id that says so is none).
  clientTypeFromIds: (ids) =>
    ids.tinNumber === null ? null : isIndividualMalaysiaTin(ids.tinNumber) ? 'INDIVIDUAL' : 'COMPANY',
  registrations: ['sstNumber'],
} satisfies TaxCountry;

/** Malaysian SST rates (percent) an invoice item may carry (invoices-interface 3.3). */
export const MALAYSIA_SST_RATES: readonly number[] = [0, 5, 6, 8, 10];
