import { sql, type Kysely } from 'kysely';
import { writeAudit } from './audit-lines.js';
import type { LeadSettings, LeadSettingsKind } from './lead-settings.records.js';
import type { AuditEntry } from './records.js';
import { canName } from './keys.js';
import type { Database } from './schema.js';

/** A business's lead configuration: sources, tags, members, lead custom fields. */
export class LeadSettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every kind written, in one query (a kind never written is absent). Undefined for an unknown business. */
  async get(urlKey: string): Promise<Partial<LeadSettings> | undefined> {
    if (!canName(urlKey)) return undefined;
    const rows = await this.db
      .selectFrom('businesses')
      .leftJoin('lead_settings', 'lead_settings.business_pk', 'businesses.id')
      .select(['lead_settings.kind', 'lead_settings.doc'])
      .where('businesses.url_key', '=', urlKey)
      .execute();
    if (rows.length === 0) return undefined;
    const settings: Record<string, unknown> = {};
    for (const row of rows) {
      if (row.kind && row.doc) settings[row.kind] = JSON.parse(row.doc);
    }
    return settings as Partial<LeadSettings>;
  }

  /** Replaces one kind in one statement (with an operator's audit line: both in one transaction). False when the business does not exist. */
  async put<K extends LeadSettingsKind>(
    urlKey: string,
    kind: K,
    value: LeadSettings[K],
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    if (!audit) return putKind(this.db, urlKey, kind, value, now);
    return this.db.transaction().execute(async (trx) => {
      const stored = await putKind(trx, urlKey, kind, value, now);
      if (stored) await writeAudit(trx, audit);
      return stored;
    });
  }

  /** Which of these sources (keys), tags or members (ids) live leads of the business still carry. */
  async inUse(urlKey: string, kind: 'sources' | 'tags' | 'members', ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0 || !canName(urlKey)) return [];
    const business = this.db.selectFrom('businesses').select('id').where('url_key', '=', urlKey);
    if (kind === 'tags') {
      const rows = await this.db
        .selectFrom('lead_tags')
        .innerJoin('leads', 'leads.id', 'lead_tags.lead_pk')
        .select('lead_tags.tag_id as id')
        .distinct()
        .where('lead_tags.business_pk', '=', business)
        .where('lead_tags.tag_id', 'in', ids)
        .where('leads.removed', '=', 0)
        .execute();
      return rows.map((r) => r.id);
    }
    const column = kind === 'sources' ? 'lead_source_key' : 'assignee_id';
    const rows = await this.db
      .selectFrom('leads')
      .select(`${column} as id`)
      .distinct()
      .where('business_pk', '=', business)
      .where(column, 'in', ids)
      .where('removed', '=', 0)
      .execute();
    return rows.map((r) => r.id!);
  }
}

/** One kind's write, on the connection or transaction given. */
async function putKind<K extends LeadSettingsKind>(
  db: Kysely<Database>,
  urlKey: string,
  kind: K,
  value: LeadSettings[K],
  now: number,
): Promise<boolean> {
  const row = await db
    .insertInto('lead_settings')
    .columns(['business_pk', 'kind', 'doc', 'version', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('businesses')
        .select([
          'id as business_pk',
          eb.val(kind).as('kind'),
          eb.val(JSON.stringify(value)).as('doc'),
          eb.val(1).as('version'),
          eb.val(now).as('updated_at'),
        ])
        .where('url_key', '=', urlKey),
    )
    .onConflict((oc) =>
      oc.columns(['business_pk', 'kind']).doUpdateSet({
        doc: (eb) => eb.ref('excluded.doc'),
        version: sql`lead_settings.version + 1`,
        updated_at: now,
      }),
    )
    .returning('version')
    .executeTakeFirst();
  return row !== undefined;
}
