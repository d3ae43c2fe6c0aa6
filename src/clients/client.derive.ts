import { defaultLocaleForCountry, isCountryCode } from '../validation/countries.js';
import { isIndividualMalaysiaTin, panHolderType, parseGstin, type GstinForm } from '../validation/tax-ids.js';
import type { ClientType, ClientValue } from './client.types.js';

/**
 * Derivation of omitted client fields (service-interface 2.4 and 4.4; tables and reasons in
 * docs/derivation.md). A value that is sent is always kept, and nothing is cross-checked against it.
 * Shipping addresses are never derived into.
 */

/** The validated client before derivation: the derivable fields may still be unset. */
export type UnderivedClient = Omit<ClientValue, 'clientType'> & { clientType: ClientType | null };

export function deriveClient(client: UnderivedClient, businessCountry: string): ClientValue {
  const country = client.country ?? (isCountryCode(businessCountry) ? businessCountry : null);
  const gstin = client.gstin === null ? null : parseGstin(client.gstin);
  const gstState = client.gstState ?? gstin?.stateCode ?? null;
  const panNumber = client.panNumber ?? gstin?.pan ?? null;
  const locale = client.locale ?? (country === null ? null : defaultLocaleForCountry(country));
  const clientType = client.clientType ?? deriveClientType({ ...client, panNumber });
  const taxPayerType = client.taxPayerType ?? deriveTaxPayerType(businessCountry, {
    country, clientType, gstinForm: gstin?.form ?? null, trnNumber: client.trnNumber, vatNumber: client.vatNumber,
  });
  return { ...client, country, gstState, panNumber, locale, clientType, taxPayerType };
}

export interface TaxIdEvidence {
  panNumber: string | null;
  tinNumber: string | null;
  gstin: string | null;
  trnNumber: string | null;
  sstNumber: string | null;
  vatNumber: string | null;
}

/**
 * clientType from tax ids. The PAN's holder-type letter is the one identifier that says whether the
 * holder is a person; a Malaysian TIN's prefix is the other. Any other registration (GSTIN without a
 * PAN, TRN, SST, VAT number) is held by a business. No tax id at all: INDIVIDUAL, the party GST and
 * VAT treat an unidentified buyer as (B2C), and the safer default for consumer invoicing.
 */
export function deriveClientType(ids: TaxIdEvidence): ClientType {
  if (ids.panNumber !== null) return panHolderType(ids.panNumber) === 'P' ? 'INDIVIDUAL' : 'COMPANY';
  if (ids.tinNumber !== null) return isIndividualMalaysiaTin(ids.tinNumber) ? 'INDIVIDUAL' : 'COMPANY';
  const registered = [ids.gstin, ids.trnNumber, ids.sstNumber, ids.vatNumber].some((id) => id !== null);
  return registered ? 'COMPANY' : 'INDIVIDUAL';
}

export interface TaxPayerEvidence {
  /** The client's effective country (its own, else the business's). */
  country: string | null;
  clientType: ClientType;
  gstinForm: GstinForm | null;
  trnNumber: string | null;
  vatNumber: string | null;
}

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

/** The other GCC states; a client in one of them is GCC for a UAE business's VAT. */
export const GCC_COUNTRIES_OUTSIDE_UAE: ReadonlySet<string> = new Set(['SA', 'BH', 'KW', 'OM', 'QA']);

export function deriveTaxPayerType(businessCountry: string, evidence: TaxPayerEvidence): string | null {
  if (businessCountry === 'IN') return deriveForIndia(evidence);
  if (businessCountry === 'AE') return deriveForUae(evidence);
  return null;
}

/** A GSTIN (India's own registration) decides first; then a foreign country means export. */
function deriveForIndia(evidence: TaxPayerEvidence): string {
  if (evidence.gstinForm !== null) return IN_TAX_PAYER_TYPE_BY_GSTIN_FORM[evidence.gstinForm];
  if (evidence.country !== null && evidence.country !== 'IN') return 'EXP';
  return evidence.clientType === 'COMPANY' ? 'UNREG' : 'B2C';
}

/** A UAE TRN (the UAE's own registration) decides first; then the country: UAE, other GCC, outside. */
function deriveForUae(evidence: TaxPayerEvidence): string {
  if (evidence.trnNumber !== null) return 'VATR';
  if (evidence.country === null || evidence.country === 'AE') return 'VATNR';
  if (GCC_COUNTRIES_OUTSIDE_UAE.has(evidence.country)) return evidence.vatNumber !== null ? 'GCCVATR' : 'GCCVATNR';
  return 'NGCC';
}
