/** What the store hands out: plain records with public identifiers only. */
export interface BusinessRecord {
  urlKey: string;
  name: string;
  country: string;
  currency: string;
  customFieldsEnabled: boolean;
  /** IANA name set by an operator; null: the default of the country (docs/decisions.md "Lead configuration (operator side)"). */
  timeZone: string | null;
  createdAt: number;
  updatedAt: number;
  /** Set while archived: apps get 403 on it, the operator list hides it unless asked. Always read from the store; optional for new records. */
  archivedAt?: number | null;
}

export interface AppRecord {
  appId: string;
  name: string;
  secretHash: string;
  secretVersion: number;
  publicKeyPem: string;
  keyVersion: number;
  /** Every business the app is attached to, archived ones included. */
  attachedUrlKeys: string[];
  /** Those of `attachedUrlKeys` whose business is archived: the guard refuses them. */
  archivedUrlKeys: string[];
  createdAt: number;
  /** Set while archived: none of the app's tokens or credentials work. */
  archivedAt: number | null;
}

/** An app as the operator list shows it: with when it last used its credentials (not cached, not fresh in the registry). */
export interface ListedApp extends AppRecord {
  lastUsedAt: number | null;
}

export interface OperatorRecord {
  publicId: string;
  email: string;
  passwordHash: string;
  /** Sessions carry it; a password change bumps it. */
  sessionVersion: number;
  createdAt: number;
}

export type ClientStatus = 'active' | 'archived' | 'deleted';

export interface StoredClient {
  clientId: string | null;
  status: ClientStatus;
  source: string;
  data: unknown;
  balance: Record<string, number>;
  createdAt: number;
  updatedAt: number;
}

export interface VersionedDocument<T> {
  document: T;
  version: number;
}

export interface AuditEntry {
  at: number;
  operatorEmail: string;
  action: string;
  businessUrlKey: string | null;
  detail: unknown;
}

/** TEXT and SELECT store strings, NUMBER a finite number, DATE a YYYY-MM-DD string, BOOLEAN a boolean. */
export type CustomFieldValue = string | number | boolean;

export type CustomFieldType = 'TEXT' | 'NUMBER' | 'DATE' | 'BOOLEAN' | 'SELECT';

export interface CustomFieldDefinition {
  id: string;
  name: string;
  type: CustomFieldType;
  options: string[] | null;
  isArchived: boolean;
}
