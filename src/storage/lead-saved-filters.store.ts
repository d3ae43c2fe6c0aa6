import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { canName } from './keys.js';
import type { Database } from './schema.js';

/** One operator's saved lead filter: a name and the lead list's query string. */
export interface SavedFilterRow {
  id: string;
  name: string;
  query: string;
  updatedAt: number;
}

/** Saved lead filters, per business and operator (migration 027-lead-saved-filters). */
export class LeadSavedFiltersStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The operator's filters by name; undefined for an unknown business. */
  async list(urlKey: string, operatorId: string): Promise<SavedFilterRow[] | undefined> {
    if (!canName(urlKey)) return undefined;
    const business = await this.db
      .selectFrom('businesses')
      .select('id')
      .where('url_key', '=', urlKey)
      .executeTakeFirst();
    if (!business) return undefined;
    const rows = await this.db
      .selectFrom('lead_saved_filters')
      .select(['public_id', 'name', 'query', 'updated_at'])
      .where('business_pk', '=', business.id)
      .where('operator_id', '=', operatorId)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      id: row.public_id,
      name: row.name,
      query: row.query,
      updatedAt: Number(row.updated_at),
    }));
  }

  /**
   * Saves under `name` in one statement: a taken name keeps its id and takes the new query. Undefined
   * when the business does not exist.
   */
  async save(
    urlKey: string,
    operatorId: string,
    filter: { name: string; query: string },
    now: number,
  ): Promise<SavedFilterRow | undefined> {
    if (!canName(urlKey)) return undefined;
    const row = await this.db
      .insertInto('lead_saved_filters')
      .columns(['public_id', 'business_pk', 'operator_id', 'name', 'query', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('businesses')
          .select([
            eb.val(randomBytes(12).toString('base64url')).as('public_id'),
            'id as business_pk',
            eb.val(operatorId).as('operator_id'),
            eb.val(filter.name).as('name'),
            eb.val(filter.query).as('query'),
            eb.val(now).as('updated_at'),
          ])
          .where('url_key', '=', urlKey),
      )
      .onConflict((oc) =>
        oc.columns(['business_pk', 'operator_id', 'name']).doUpdateSet({
          query: (eb) => eb.ref('excluded.query'),
          updated_at: now,
        }),
      )
      .returning(['public_id', 'name', 'query', 'updated_at'])
      .executeTakeFirst();
    return row && { id: row.public_id, name: row.name, query: row.query, updatedAt: Number(row.updated_at) };
  }

  /** True when the operator's filter existed in this business and is gone now. */
  async remove(urlKey: string, operatorId: string, id: string): Promise<boolean> {
    if (!canName(urlKey)) return false;
    const result = await this.db
      .deleteFrom('lead_saved_filters')
      .where('public_id', '=', id)
      .where('operator_id', '=', operatorId)
      .where('business_pk', 'in', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
