import { clientTypeFromTaxIds, deriveTaxPayerType as taxPayerTypeByCountry, fillTaxIds } from '../tax/countries.js';
import type { TaxIds, TaxPayerEvidence } from '../tax/tax-country.js';
import { defaultLocaleForCountry, isCountryCode } from '../validation/countries.js';
import type { ClientType, ClientValue } from './client.types.js';

/**
 * Derivation of omitted client fields (tables and reasons in docs/derivation.md). A value that is sent
 * is always kept, and nothing is cross-checked against it.
 * Shipping addresses are never derived into. What each tax country contributes lives in its own
 * module (src/tax/<country>.ts): ids filled from other ids, clientType evidence, taxPayerType.
 */

/** The validated client before derivation: the derivable fields may still be unset. */
export type UnderivedClient = Omit<ClientValue, 'clientType'> & { clientType: ClientType | null };

export function deriveClient(client: UnderivedClient, businessCountry: string): ClientValue {
  const country = client.country ?? (isCountryCode(businessCountry) ? businessCountry : null);
  const ids = fillTaxIds(taxIdsOf(client));
  const locale = client.locale ?? (country === null ? null : defaultLocaleForCountry(country));
  const clientType = client.clientType ?? deriveClientType(ids);
  const taxPayerType = client.taxPayerType ?? deriveTaxPayerType(businessCountry, { country, clientType, ids });
  return { ...client, country, gstState: ids.gstState, panNumber: ids.panNumber, locale, clientType, taxPayerType };
}

function taxIdsOf(client: UnderivedClient): TaxIds {
  const { gstin, gstState, panNumber, trnNumber, tinNumber, sstNumber, vatNumber } = client;
  return { gstin, gstState, panNumber, trnNumber, tinNumber, sstNumber, vatNumber };
}

/** The ids clientType is read from (gstState plays no part). */
export type TaxIdEvidence = Omit<TaxIds, 'gstState'>;

/** clientType from tax ids: see clientTypeFromTaxIds (src/tax/countries.ts) and docs/derivation.md. */
export function deriveClientType(ids: TaxIdEvidence): ClientType {
  return clientTypeFromTaxIds({ gstState: null, ...ids });
}

export type { TaxPayerEvidence };

/** taxPayerType by the business's country (its tax module); null where it has no vocabulary. */
export function deriveTaxPayerType(businessCountry: string, evidence: TaxPayerEvidence): string | null {
  return taxPayerTypeByCountry(businessCountry, evidence);
}
