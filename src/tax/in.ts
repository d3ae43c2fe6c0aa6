import { byTest, kept, rejected, type FormatRule } from '../validation/format-rule.js';
import { codesOf, type TaxCountry, type TaxIds, type TaxPayerEvidence } from './tax-country.js';

/**
 * India (IN): GSTIN (every form), GST state codes and PAN; the Udyam, IEC and LUT additional ids; the
 * GST taxPayerType vocabulary; gstState and panNumber filled from a GSTIN, clientType from a PAN's
 * holder type, taxPayerType by GSTIN form. Checks are exact and case-sensitive: identifiers are stored
 * as sent, so a lowercase GSTIN is rejected rather than silently upper-cased.
 */

/** Indian GST state codes (GSTN master list), including the legacy codes that old GSTINs still carry. */
export const GST_STATE_CODES: ReadonlyMap<string, string> = new Map([
  ['01', 'Jammu and Kashmir'],
  ['02', 'Himachal Pradesh'],
  ['03', 'Punjab'],
  ['04', 'Chandigarh'],
  ['05', 'Uttarakhand'],
  ['06', 'Haryana'],
  ['07', 'Delhi'],
  ['08', 'Rajasthan'],
  ['09', 'Uttar Pradesh'],
  ['10', 'Bihar'],
  ['11', 'Sikkim'],
  ['12', 'Arunachal Pradesh'],
  ['13', 'Nagaland'],
  ['14', 'Manipur'],
  ['15', 'Mizoram'],
  ['16', 'Tripura'],
  ['17', 'Meghalaya'],
  ['18', 'Assam'],
  ['19', 'West Bengal'],
  ['20', 'Jharkhand'],
  ['21', 'Odisha'],
  ['22', 'Chhattisgarh'],
  ['23', 'Madhya Pradesh'],
  ['24', 'Gujarat'],
  ['25', 'Daman and Diu (before the 2020 merger)'],
  ['26', 'Dadra and Nagar Haveli and Daman and Diu'],
  ['27', 'Maharashtra'],
  ['28', 'Andhra Pradesh (before division)'],
  ['29', 'Karnataka'],
  ['30', 'Goa'],
  ['31', 'Lakshadweep'],
  ['32', 'Kerala'],
  ['33', 'Tamil Nadu'],
  ['34', 'Puducherry'],
  ['35', 'Andaman and Nicobar Islands'],
  ['36', 'Telangana'],
  ['37', 'Andhra Pradesh'],
  ['38', 'Ladakh'],
  ['97', 'Other Territory'],
  ['99', 'Centre Jurisdiction'],
]);

/**
 * Union territories without a legislature (Chandigarh, Daman and Diu, Dadra and Nagar Haveli and Daman
 * and Diu, Lakshadweep, Andaman and Nicobar Islands, Ladakh): the state half of GST there is UTGST
 * (invoices-interface 3.2.4), so a document labels the `sgst` member UTGST for these places of supply.
 */
export const UTGST_STATE_CODES: ReadonlySet<string> = new Set(['04', '25', '26', '31', '35', '38']);

export function isGstStateCode(value: string): boolean {
  return GST_STATE_CODES.has(value);
}

export type GstinForm = 'REGULAR' | 'GOVERNMENT' | 'UIN' | 'NRI' | 'TDS' | 'TCS' | 'OIDAR';

export interface GstinInfo {
  form: GstinForm;
  stateCode: string;
  /** The holder's PAN when the form embeds one; null for TAN-based, UIN, NRI and OIDAR forms. */
  pan: string | null;
}

interface GstinFormRule {
  form: GstinForm;
  pattern: RegExp;
  /** Whether characters 3 to 12 are the holder's PAN (TDS: only when they are a PAN rather than a TAN). */
  carriesPan: boolean;
}

/**
 * One 15-character pattern per GSTIN form (GSTN's published formats). The 13th character is the
 * entity number, the 14th tells the form (Z default, D deductor, C collector), the 15th the check.
 */
export const GSTIN_FORMS: readonly GstinFormRule[] = [
  { form: 'REGULAR', pattern: /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, carriesPan: true },
  { form: 'TCS', pattern: /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]C[0-9A-Z]$/, carriesPan: true },
  { form: 'TDS', pattern: /^[0-9]{2}[A-Z]{4}[A-Z0-9][0-9]{4}[A-Z][1-9A-Z]D[0-9A-Z]$/, carriesPan: true },
  { form: 'GOVERNMENT', pattern: /^[0-9]{2}[A-Z]{4}[0-9]{5}[A-Z][1-9A-Z]Z[0-9A-Z]$/, carriesPan: false },
  { form: 'UIN', pattern: /^[0-9]{4}[A-Z]{3}[0-9]{5}[UO]N[0-9A-Z]$/, carriesPan: false },
  { form: 'NRI', pattern: /^[0-9]{4}[A-Z]{3}[0-9]{5}NR[0-9A-Z]$/, carriesPan: false },
  { form: 'OIDAR', pattern: /^99[0-9]{2}[A-Z]{3}[0-9]{5}OS[0-9A-Z]$/, carriesPan: false },
];

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The standard GSTIN mod-36 check character of the first 14 characters (alternating weights 1 and 2). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i += 1) {
    const product = BASE36.indexOf(first14.charAt(i)) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36.charAt((36 - (sum % 36)) % 36);
}

export interface GstinOptions {
  enforceChecksum: boolean;
}

/** Parses a GSTIN of any form; null when it matches no form, has an unknown state code, or (when enforced) a wrong check character. */
export function parseGstin(value: string, options: GstinOptions = { enforceChecksum: false }): GstinInfo | null {
  const rule = GSTIN_FORMS.find((candidate) => candidate.pattern.test(value));
  if (!rule) return null;
  const stateCode = value.slice(0, 2);
  if (!isGstStateCode(stateCode)) return null;
  if (options.enforceChecksum && gstinCheckCharacter(value.slice(0, 14)) !== value.charAt(14)) return null;
  const embedded = value.slice(2, 12);
  const pan = rule.carriesPan && hasIssuedPanShape(embedded) ? embedded : null;
  return { form: rule.form, stateCode, pan };
}

/** A sent panNumber: "10 alphanumeric characters" (docs/derivation.md "`gstState` and `panNumber` from `gstin`"), nothing more. */
export function isPan(value: string): boolean {
  return /^[A-Za-z0-9]{10}$/.test(value);
}

/** The shape PANs are issued in (five letters, four digits, one letter): what a GSTIN must embed to fill panNumber. */
export function hasIssuedPanShape(value: string): boolean {
  return /^[A-Z]{5}[0-9]{4}[A-Z]$/.test(value);
}

/** The 4th character of a PAN: P person, C company, H HUF, F firm, A AOP, T trust, B BOI, L local authority, J artificial juridical person, G government, E LLP. */
export function panHolderType(pan: string): string {
  return pan.charAt(3);
}

/** JSON Schema pattern covering every GSTIN form (state codes and check character are checked in code). */
export const GSTIN_JSON_PATTERN = `^(?:${GSTIN_FORMS.map((rule) => rule.pattern.source.slice(1, -1)).join('|')})$`;

/** taxPayerType an Indian business's GST return would file a client under, by GSTIN form. */
export const IN_TAX_PAYER_TYPE_BY_GSTIN_FORM: Readonly<Record<GstinForm, string>> = {
  REGULAR: 'REG',
  TCS: 'REG',
  GOVERNMENT: 'REG',
  UIN: 'REG',
  NRI: 'REG',
  TDS: 'TDS',
  OIDAR: 'EXP',
};

/** A GSTIN (India's own registration) decides first; then a foreign country means export. */
function deriveTaxPayerType(evidence: TaxPayerEvidence): string {
  const gstin = evidence.ids.gstin === null ? null : parseGstin(evidence.ids.gstin);
  if (gstin) return IN_TAX_PAYER_TYPE_BY_GSTIN_FORM[gstin.form];
  if (evidence.country !== null && evidence.country !== 'IN') return 'EXP';
  return evidence.clientType === 'COMPANY' ? 'UNREG' : 'B2C';
}

function fillIds(ids: TaxIds): Partial<TaxIds> {
  const gstin = ids.gstin === null ? null : parseGstin(ids.gstin);
  return { gstState: ids.gstState ?? gstin?.stateCode ?? null, panNumber: ids.panNumber ?? gstin?.pan ?? null };
}

const formats = {
  gstin: {
    description: '15-character Indian GSTIN in any form: regular, government, UIN, NRI, TDS, TCS, OIDAR.',
    jsonPattern: GSTIN_JSON_PATTERN,
    check: (value, context) =>
      parseGstin(value, { enforceChecksum: context.enforceGstinChecksum })
        ? kept(value)
        : rejected(
            context.enforceGstinChecksum
              ? 'must be a valid 15-character GSTIN with a correct check character'
              : 'must be a valid 15-character GSTIN',
          ),
  },
  gstState: {
    description: 'Indian GST state code (two digits).',
    jsonEnum: [...GST_STATE_CODES.keys()],
    check: byTest(isGstStateCode, 'must be an Indian GST state code (two digits, e.g. 27)'),
  },
  pan: {
    description: 'Indian PAN: 10 alphanumeric characters.',
    jsonPattern: '^[A-Za-z0-9]{10}$',
    check: byTest(isPan, 'must be 10 alphanumeric characters'),
  },
} satisfies Record<string, FormatRule>;

export const INDIA = {
  code: 'IN',
  name: 'India',
  formats,
  additionalIds: codesOf('IN', [
    {
      code: 'UDY',
      identifier: 'Udyam Registration Number',
      scope: 'both',
      pattern: /^UDYAM-[A-Z]{2}-[0-9]{2}-[0-9]{7}$/,
      formatDescription: 'UDYAM-XX-00-0000000',
    },
    {
      code: 'IEC',
      identifier: 'Importer Exporter Code',
      scope: 'seller',
      pattern: /^[A-Z0-9]{10}$/,
      formatDescription: '10 uppercase letters or digits',
    },
    {
      code: 'LUT',
      identifier: 'Letter of Undertaking',
      scope: 'seller',
      pattern: /^[A-Z]{2}[0-9]{12}[A-Z0-9]$/,
      formatDescription: 'two letters, twelve digits, one letter or digit',
    },
  ]),
  taxPayerTypes: ['B2C', 'REG', 'UNREG', 'EXP', 'SEZ', 'TDS', 'DEX', 'COM'],
  fillIds,
  // The PAN's holder-type letter is the one Indian identifier that says whether the holder is a person.
  clientTypeFromIds: (ids) =>
    ids.panNumber === null ? null : panHolderType(ids.panNumber) === 'P' ? 'INDIVIDUAL' : 'COMPANY',
  registrations: ['gstin'],
  deriveTaxPayerType,
} satisfies TaxCountry;

/** GST rates (percent) an invoice item may carry (invoices-interface 3.2.1), compared by value. */
export const GST_RATES: readonly number[] = [0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40];
