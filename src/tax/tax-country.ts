import type { FormatRule } from '../validation/format-rule.js';

/**
 * What the service knows about one tax country, behind one interface: the formats of its tax ids,
 * its additional-id codes (docs/extending.md "Adding a tax country"), the taxPayerType vocabulary of its businesses
 * (2.4) and its part in derivation (docs/derivation.md). One module per country (in.ts, ae.ts, ...),
 * listed once in countries.ts; everything else reads them through countries.ts.
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

export type PartyKind = 'INDIVIDUAL' | 'COMPANY';

/** The client's tax ids (2.4) as derivation reads them; null when unset. */
export interface TaxIds {
  gstin: string | null;
  gstState: string | null;
  panNumber: string | null;
  trnNumber: string | null;
  tinNumber: string | null;
  sstNumber: string | null;
  vatNumber: string | null;
}

export interface TaxPayerEvidence {
  /** The client's effective country (its own, else the business's). */
  country: string | null;
  clientType: PartyKind;
  ids: TaxIds;
}

export interface TaxCountry {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** As a message names it: "India", "the UAE". */
  name: string;
  /** Formats of this country's tax id fields, by format name (client.schema.ts points fields at them). */
  formats: Readonly<Record<string, FormatRule>>;
  additionalIds: readonly AdditionalIdCode[];
  /** The taxPayerType vocabulary of a business in this country; absent: taxPayerType is refused there. */
  taxPayerTypes?: readonly string[];
  /** Omitted ids this country's ids fill (India: gstState and panNumber from gstin). A sent value is kept. */
  fillIds?(ids: TaxIds): Partial<TaxIds>;
  /** clientType read from this country's ids, or null when they say nothing (checked in countries.ts order). */
  clientTypeFromIds?(ids: TaxIds): PartyKind | null;
  /** Ids held only by businesses: any of them makes an otherwise undecided client a COMPANY. */
  registrations?: readonly (keyof TaxIds)[];
  /** taxPayerType of a client of a business in this country, when omitted. */
  deriveTaxPayerType?(evidence: TaxPayerEvidence): string;
}

/** Each country module lists its codes without repeating its own code on every row. */
export const codesOf = (country: string, codes: Omit<AdditionalIdCode, 'country'>[]): AdditionalIdCode[] =>
  codes.map((code) => ({ country, ...code }));

export const ANY_VALUE = { pattern: null, formatDescription: 'any non-empty value' } as const;
