import { ANY_VALUE, codesOf, type TaxCountry } from './tax-country.js';

/** Saudi Arabia (SA): the additional ids e-invoicing reads (2.5); no tax id field of its own, no vocabulary. */
export const SAUDI_ARABIA = {
  code: 'SA',
  name: 'Saudi Arabia',
  formats: {},
  additionalIds: codesOf('SA', [
    { code: 'NAT', identifier: 'National ID', scope: 'client', ...ANY_VALUE },
    { code: 'TIN', identifier: 'Tax Identification Number', scope: 'client', ...ANY_VALUE },
    { code: 'IQA', identifier: 'Iqama Number', scope: 'client', ...ANY_VALUE },
    { code: 'PAS', identifier: 'Passport ID', scope: 'client', ...ANY_VALUE },
    { code: 'GCC', identifier: 'GCC ID', scope: 'client', ...ANY_VALUE },
    { code: 'CRN', identifier: 'Commercial Registration Number', scope: 'both', ...ANY_VALUE },
    { code: 'MOM', identifier: 'Momra License', scope: 'both', ...ANY_VALUE },
    { code: 'MLS', identifier: 'MLSD License', scope: 'both', ...ANY_VALUE },
    { code: 'SAG', identifier: 'Sagia License', scope: 'both', ...ANY_VALUE },
    { code: 'OTH', identifier: 'Other ID', scope: 'both', ...ANY_VALUE },
    { code: 'HQ', identifier: 'Group VAT Number', scope: 'seller', ...ANY_VALUE },
  ]),
} satisfies TaxCountry;

/** Saudi VAT rates (percent) an invoice item may carry (invoices-interface 3.3). */
export const SAUDI_VAT_RATES: readonly number[] = [0, 15];
