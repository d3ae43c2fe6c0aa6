import type { Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import type { Database } from './schema.js';

/** Lead lists: filters, sorts, free-text search and sync pages, per business. */
export class LeadListsStore {
  constructor(readonly db: Kysely<Database>, readonly kind: StoreKind) {}
}
