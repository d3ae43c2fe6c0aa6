import type { CustomFieldDefinition, CustomFieldValue } from '../storage/records.js';
import type { PartyKind, TaxIds } from '../tax/tax-country.js';

/**
 * The client as stored: validated, normalised (trimmed clientId/name, normalised phone) and derived
 * (country, locale, panNumber, gstState, clientType, taxPayerType). Every accepted field of
 * the field table (src/clients/client.schema.ts; docs/extending.md "Adding a client field") is present: unset optional scalars are null, booleans carry their defaults,
 * lists are arrays. Plain JSON, so either store can keep it as a document and compare it later.
 */

export type ClientType = PartyKind;

/** Origins of clients made outside this interface (operator "dashboard-created" clients). */
export const OPERATOR_SOURCES = [
  'INVOICE',
  'CLIENT_DASHBOARD',
  'CLIENT_UPLOAD',
  'DASHBOARD',
  'INVOICE_BULK_UPLOAD',
  'LEADFORM',
  'PORTFOLIO',
  'ZOHO',
  'MARIKA',
  'LEADAPI',
] as const;
export type OperatorSource = (typeof OPERATOR_SOURCES)[number];
export type ClientSource = 'API' | OperatorSource;

export interface AdditionalIdValue {
  label: string;
  value: string;
  showInInvoice: boolean;
  /** True on the first flagged entry only (2.5). */
  useForEInvoice: boolean;
}

export interface CustomHeaderValue {
  label: string;
  value: string | null;
}

export interface ShippingDetailValue {
  name: string | null;
  street: string | null;
  building: string | null;
  city: string | null;
  district: string | null;
  state: string | null;
  pincode: string | null;
  country: string | null;
  gstin: string | null;
  gstState: string | null;
  sstNumber: string | null;
  tinNumber: string | null;
  taxId: string | null;
  taxPayerType: string | null;
  additionalIds: AdditionalIdValue[];
  customHeaders: CustomHeaderValue[];
}

export interface BankAccountValue {
  bankAccountName: string | null;
  bankAccountHolderName: string | null;
  bankAccountNumber: string | null;
  ifscCode: string | null;
  iban: string | null;
  sortCode: string | null;
  swift: string | null;
  bankAccountType: 'SAVINGS' | 'CURRENT' | null;
  bankCountry: string | null;
  bankCurrency: string | null;
  isPrimary: boolean;
}

/** The tax ids (gstin, gstState, panNumber, trnNumber, tinNumber, sstNumber, vatNumber) are TaxIds (src/tax/). */
export interface ClientValue extends TaxIds {
  /** Null only for operator-created clients, which have no caller reference. */
  clientId: string | null;
  name: string;
  alias: string | null;
  clientType: ClientType;
  isClient: boolean;
  isVendor: boolean;
  email: string | null;
  phone: string | null;
  phoneShowInInvoice: boolean;
  emailShowInInvoice: boolean;
  dueInDays: number | null;
  /** Null only when neither the client nor the business has a country. */
  locale: string | null;
  street: string | null;
  building: string | null;
  city: string | null;
  district: string | null;
  state: string | null;
  pincode: string | null;
  country: string | null;
  /** Null for businesses outside IN and AE, where the field is not accepted. */
  taxPayerType: string | null;
  vatLabel: string;
  additionalIds: AdditionalIdValue[];
  shippingDetails: ShippingDetailValue[];
  bankAccounts: BankAccountValue[];
  /** Values keyed by custom field id, never by display name, so a rename keeps them attached. */
  customFields: Record<string, CustomFieldValue>;
  /** Present only in operator mode (a dashboard-created client); API clients get `API` from the store call. */
  source?: OperatorSource;
}

/** What the client rules need to know about the business the client belongs to. */
export interface ValidationContext {
  businessCountry: string;
  customFieldsEnabled: boolean;
  customFields: CustomFieldDefinition[];
  enforceGstinChecksum: boolean;
}

export type ValidationMode = 'api' | 'operator';
