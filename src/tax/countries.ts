import type { AdditionalIdCode, PartyKind, TaxCountry, TaxIds, TaxPayerEvidence } from './tax-country.js';
import { UAE } from './ae.js';
import { INDIA } from './in.js';
import { MALAYSIA } from './my.js';
import { SAUDI_ARABIA } from './sa.js';

/**
 * The tax countries, listed once. Order matters where countries' rules meet: additional-id codes are
 * listed in this order, and the first country whose ids decide a clientType wins (a PAN before a TIN).
 */
export const TAX_COUNTRIES: readonly TaxCountry[] = [INDIA, SAUDI_ARABIA, MALAYSIA, UAE];

/** Every tax id format by name, for field descriptors (client.schema.ts) and the reader (formats.ts). */
export const TAX_FORMATS = { ...INDIA.formats, ...UAE.formats, ...MALAYSIA.formats, ...SAUDI_ARABIA.formats };
export type TaxFormatName = keyof typeof TAX_FORMATS;

const BY_CODE = new Map(TAX_COUNTRIES.map((country) => [country.code, country]));

export function taxCountry(code: string | null): TaxCountry | undefined {
  return code === null ? undefined : BY_CODE.get(code);
}

export const ADDITIONAL_ID_CODES: readonly AdditionalIdCode[] = TAX_COUNTRIES.flatMap(
  (country) => country.additionalIds,
);

/** "India (IN) or the UAE (AE)": the countries whose businesses take a taxPayerType. */
export const TAX_PAYER_TYPE_COUNTRIES_TEXT = TAX_COUNTRIES.filter((country) => country.taxPayerTypes)
  .map((country) => `${country.name} (${country.code})`)
  .join(' or ');

/** taxPayerType vocabularies by business country: only countries that have one. */
export const TAX_PAYER_TYPES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  TAX_COUNTRIES.flatMap((country) => (country.taxPayerTypes ? [[country.code, country.taxPayerTypes]] : [])),
);

const FILLERS = TAX_COUNTRIES.filter((country) => country.fillIds);
const DECIDERS = TAX_COUNTRIES.filter((country) => country.clientTypeFromIds);
const REGISTRATIONS: readonly (keyof TaxIds)[] = [
  ...TAX_COUNTRIES.flatMap((country) => country.registrations ?? []),
  'vatNumber',
];

/** Omitted ids every country fills from the client's other ids; a sent value is always kept. */
export function fillTaxIds(ids: TaxIds): TaxIds {
  const filled = { ...ids };
  for (const country of FILLERS) Object.assign(filled, country.fillIds!(filled));
  return filled;
}

/**
 * clientType from tax ids: the first country whose ids say (a PAN's holder type, a Malaysian TIN's
 * prefix); then any registration held only by businesses (a GSTIN, TRN, SST number, or a VAT number
 * anywhere) makes a COMPANY. No tax id at all: INDIVIDUAL, the unidentified buyer of consumer invoicing.
 */
export function clientTypeFromTaxIds(ids: TaxIds): PartyKind {
  for (const country of DECIDERS) {
    const decided = country.clientTypeFromIds!(ids);
    if (decided !== null) return decided;
  }
  return REGISTRATIONS.some((key) => ids[key] !== null) ? 'COMPANY' : 'INDIVIDUAL';
}

/** taxPayerType by the business's country; null where that country has no vocabulary. */
export function deriveTaxPayerType(businessCountry: string, evidence: TaxPayerEvidence): string | null {
  return taxCountry(businessCountry)?.deriveTaxPayerType?.(evidence) ?? null;
}
