import { ADDITIONAL_ID_CODES } from '../tax/countries.js';
import type { AdditionalIdCode, AdditionalIdScope } from '../tax/tax-country.js';

/**
 * The additional-id codes (docs/extending.md "Adding a tax country"), as each tax country lists them (src/tax/): which
 * country offers each code, which party may carry it, and its format. `label` on the wire is the
 * code, never the display name.
 */

export { ADDITIONAL_ID_CODES, type AdditionalIdCode, type AdditionalIdScope };

export const ALL_ADDITIONAL_ID_LABELS: readonly string[] = [...new Set(ADDITIONAL_ID_CODES.map((entry) => entry.code))];

/** The code as offered in this country, or undefined when the country does not offer it. */
export function findAdditionalIdCode(country: string | null, code: string): AdditionalIdCode | undefined {
  if (country === null) return undefined;
  return ADDITIONAL_ID_CODES.find((entry) => entry.country === country && entry.code === code);
}

export function codesForCountry(country: string | null): string[] {
  return ADDITIONAL_ID_CODES.filter((entry) => entry.country === country).map((entry) => entry.code);
}

export interface PartyFlags {
  isClient: boolean;
  isVendor: boolean;
}

/** Client codes need isClient; seller codes need isVendor; "both" suits either party. */
export function scopeAllows(scope: AdditionalIdScope, party: PartyFlags): boolean {
  if (scope === 'client') return party.isClient;
  if (scope === 'seller') return party.isVendor;
  return party.isClient || party.isVendor;
}

/** Whether a value has the code's format; "any non-empty value" rejects only blank text. */
export function matchesAdditionalIdFormat(entry: AdditionalIdCode, value: string): boolean {
  if (entry.pattern) return entry.pattern.test(value);
  return value.trim().length > 0;
}
