import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Lead writes and single-lead reads (create, edit, get, activities, remove): every method takes the business first. */
export class LeadsStore {
  constructor(readonly db: Kysely<Database>) {}
}
