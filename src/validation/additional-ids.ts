/**
 * The additional-id codes of service-interface 2.5: which country offers each code, which party may
 * carry it, and its format. `label` on the wire is the code, never the display name.
 */

export type AdditionalIdScope = 'client' | 'seller' | 'both';

export interface AdditionalIdCode {
  country: string;
  code: string;
  identifier: string;
  scope: AdditionalIdScope;
  /** Null means "any non-empty value". */
  pattern: RegExp | null;
  formatDescription: string;
}

const ANY = { pattern: null, formatDescription: 'any non-empty value' } as const;

export const ADDITIONAL_ID_CODES: readonly AdditionalIdCode[] = [
  { country: 'IN', code: 'UDY', identifier: 'Udyam Registration Number', scope: 'both', pattern: /^UDYAM-[A-Z]{2}-[0-9]{2}-[0-9]{7}$/, formatDescription: 'UDYAM-XX-00-0000000' },
  { country: 'IN', code: 'IEC', identifier: 'Importer Exporter Code', scope: 'seller', pattern: /^[A-Z0-9]{10}$/, formatDescription: '10 uppercase letters or digits' },
  { country: 'IN', code: 'LUT', identifier: 'Letter of Undertaking', scope: 'seller', pattern: /^[A-Z]{2}[0-9]{12}[A-Z0-9]$/, formatDescription: 'two letters, twelve digits, one letter or digit' },
  { country: 'SA', code: 'NAT', identifier: 'National ID', scope: 'client', ...ANY },
  { country: 'SA', code: 'TIN', identifier: 'Tax Identification Number', scope: 'client', ...ANY },
  { country: 'SA', code: 'IQA', identifier: 'Iqama Number', scope: 'client', ...ANY },
  { country: 'SA', code: 'PAS', identifier: 'Passport ID', scope: 'client', ...ANY },
  { country: 'SA', code: 'GCC', identifier: 'GCC ID', scope: 'client', ...ANY },
  { country: 'SA', code: 'CRN', identifier: 'Commercial Registration Number', scope: 'both', ...ANY },
  { country: 'SA', code: 'MOM', identifier: 'Momra License', scope: 'both', ...ANY },
  { country: 'SA', code: 'MLS', identifier: 'MLSD License', scope: 'both', ...ANY },
  { country: 'SA', code: 'SAG', identifier: 'Sagia License', scope: 'both', ...ANY },
  { country: 'SA', code: 'OTH', identifier: 'Other ID', scope: 'both', ...ANY },
  { country: 'SA', code: 'HQ', identifier: 'Group VAT Number', scope: 'seller', ...ANY },
  { country: 'MY', code: 'BRN', identifier: 'Business Registration Number', scope: 'both', ...ANY },
  { country: 'MY', code: 'NRIC', identifier: 'National Registration Identity Card', scope: 'both', ...ANY },
  { country: 'MY', code: 'PASSPORT', identifier: 'Passport Number', scope: 'both', ...ANY },
];

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
