/** What the store hands out: plain records with public identifiers only. */
export interface BusinessRecord {
  urlKey: string;
  name: string;
  country: string;
  currency: string;
  customFieldsEnabled: boolean;
  /** IANA name set by an operator; null: the default of the country (leads-interface 7). */
  timeZone: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AppRecord {
  appId: string;
  name: string;
  secretHash: string;
  secretVersion: number;
  publicKeyPem: string;
  keyVersion: number;
  attachedUrlKeys: string[];
  createdAt: number;
}

export interface OperatorRecord {
  publicId: string;
  email: string;
  passwordHash: string;
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
