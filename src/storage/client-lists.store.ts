import { sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import type { ClientStatus } from './records.js';
import type { Database } from './schema.js';

/** One client as the operator's list shows it: the record's own fields, no balance. */
export interface ClientSummary {
  clientId: string | null;
  status: ClientStatus;
  source: string;
  data: unknown;
  createdAt: number;
  updatedAt: number;
}

export interface ClientListRequest {
  /** Lower-cased text each listed client's name or clientId contains. */
  contains: string | null;
  limit: number;
  skip: number;
}

/**
 * The operator's list of a business's clients, newest first, searched by name or clientId. The
 * business is a subquery, so another tenant's rows are never read. The search is a substring scan
 * (no index): a dashboard looks up one business's clients, not a bulk export.
 */
export class ClientListsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
  ) {}

  async list(urlKey: string, request: ClientListRequest): Promise<{ items: ClientSummary[]; total: number }> {
    const name =
      this.kind === 'postgres'
        ? sql<string>`(clients.data::jsonb ->> 'name')`
        : sql<string>`json_extract(clients.data, '$.name')`;
    let query = this.db
      .selectFrom('clients')
      .where('clients.business_pk', '=', (eb) =>
        eb.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', urlKey),
      );
    if (request.contains) {
      // LIKE with its wildcards escaped: the operator's text is matched literally.
      const pattern = `%${request.contains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(${name})`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(clients.client_id)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    const [rows, count] = await Promise.all([
      query
        .select([
          'clients.client_id',
          'clients.status',
          'clients.source',
          'clients.data',
          'clients.created_at',
          'clients.updated_at',
        ])
        .orderBy('clients.created_at', 'desc')
        .orderBy('clients.id', 'desc')
        .limit(request.limit)
        .offset(request.skip)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
    ]);
    return {
      items: rows.map((row) => ({
        clientId: row.client_id,
        status: row.status as ClientStatus,
        source: row.source,
        data: JSON.parse(row.data) as unknown,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      })),
      total: Number(count?.total ?? 0),
    };
  }
}
