/** What the store hands out: plain records with public identifiers only. */
export interface BusinessRecord {
  urlKey: string;
  name: string;
  country: string;
  currency: string;
  customFieldsEnabled: boolean;
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
  /** The answer's ready parts, or null for a row without them (see StoredAnswerParts). */
  parts: StoredAnswerParts | null;
  balance: Record<string, number>;
  createdAt: number;
  updatedAt: number;
}

/** A client to create: what its create stores. */
export interface NewClient {
  /** Null for a client made in the dashboard (never read or matched by the API). */
  clientId: string | null;
  source: string;
  data: unknown;
  parts: StoredAnswerParts | null;
}

/**
 * A client as a read of its answer finds it: `data` is read only when `parts` are missing, since
 * parsing it is most of the cost of presenting a client again (docs/performance.md).
 */
export type StoredClientAnswer = Omit<StoredClient, 'data'> & ({ parts: StoredAnswerParts; data?: undefined } | { parts: null; data: unknown });

/**
 * The parts of a client's answer written once, at create, so that a read need not present the client
 * again. A client's fields never change (a create is never an edit, service-interface 4.4, and there
 * is no PATCH or PUT, 4.6); its balance, status and custom field names do, and are presented per read.
 */
export interface StoredAnswerParts {
  /** The JSON text of the members a client keeps for life (clientId through bankAccounts), without its closing brace. */
  head: string;
  /** Custom field values by field id, or null for none. */
  customValues: Record<string, unknown> | null;
}

/**
 * The format of StoredAnswerParts.head. Rows written in another format (or before heads were kept)
 * are presented from their data, so a change to the members in a head must bump this number
 * (test/unit/client.answer.test.ts pins the members of this format).
 */
export const CLIENT_ANSWER_FORMAT = 1;

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
