import { sql, type CompiledQuery, type Kysely } from 'kysely';
import {
  PostgresClientBatches,
  insertedClient,
  storedClientOf,
  type ClientRow,
  type InsertClientResult,
} from './client-batches.js';
import type { WriteRunner } from './group-commit.js';
import { bindSlots, requireSlots } from './compiled.js';
import { canName } from './keys.js';
import type { SharedReadTransaction } from './shared-reads.js';
import type { Database } from './schema.js';
import { writeOutbox, type OutboxRow } from './webhooks.store.js';
import type { AuditEntry, ClientStatus, StoredClient, VersionedDocument } from './records.js';
import { withAuditLine, writeAudit } from './audit-lines.js';

type DocumentTable = 'pipeline_configs' | 'custom_field_sets';

const URL_KEY_SLOT = '\u0000url_key';
const CLIENT_ID_SLOT = '\u0000client_id';
const SOURCE_SLOT = '\u0000source';
const DATA_SLOT = '\u0000data';
const NOW_SLOT = '\u0000now';

type DocumentColumn = 'config' | 'fields';

/** How client reads reach the database (see the constructor's fields): PostgreSQL batches, SQLite shares transactions. */
export type ClientReads = 'batched-statement' | SharedReadTransaction;

export type { InsertClientResult } from './client-batches.js';

/**
 * Everything that belongs to one business. Every method takes the business first; another tenant's row
 * is simply not found, and so is a key no row can carry (see canName). The audit log is operator-wide and takes
 * no business.
 */
export class BusinessDataStore {
  /** The hottest read and the create, compiled once (see bindSlots). */
  private readonly findClientQuery: CompiledQuery<ClientRow>;
  private readonly insertClientQuery: CompiledQuery<{ client_id: string | null }>;

  /**
   * PostgreSQL only: client reads and creates that arrive together share a statement. On SQLite
   * creates already share a commit (GroupCommit), and reads share a transaction (sharedReads).
   */
  private readonly batches: PostgresClientBatches | undefined;

  /** SQLite only: client reads that arrive together share one read transaction (with lead reads too). */
  private readonly sharedReads: SharedReadTransaction | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly writes: WriteRunner,
    reads: ClientReads,
  ) {
    this.batches =
      reads === 'batched-statement'
        ? new PostgresClientBatches(db, (c) =>
            this.writes.run((trx) =>
              this.insertClientIn(trx, c.urlKey, c.clientId, c.source, c.data, c.now, c.events ?? []),
            ),
          )
        : undefined;
    this.sharedReads = reads === 'batched-statement' ? undefined : reads;
    // The business as a subquery, not a join: PostgreSQL keeps a prepared statement's generic plan,
    // and on young tables the join's plan searched the (business, clientId) index by clientId alone.
    this.findClientQuery = this.db
      .selectFrom('clients')
      .leftJoin('client_balances', 'client_balances.client_pk', 'clients.id')
      .select([
        'clients.client_id',
        'clients.status',
        'clients.source',
        'clients.data',
        'clients.created_at',
        'clients.updated_at',
        'client_balances.member',
        'client_balances.amount_e4',
      ])
      .where('clients.business_pk', '=', (eb) =>
        eb.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', URL_KEY_SLOT),
      )
      .where('clients.client_id', '=', CLIENT_ID_SLOT)
      .compile();
    requireSlots(this.findClientQuery, [URL_KEY_SLOT, CLIENT_ID_SLOT]);
    this.insertClientQuery = this.db
      .insertInto('clients')
      .columns(['business_pk', 'client_id', 'status', 'source', 'data', 'created_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('businesses')
          .select([
            'id as business_pk',
            eb.val(CLIENT_ID_SLOT).as('client_id'),
            eb.val('active').as('status'),
            eb.val(SOURCE_SLOT).as('source'),
            eb.val(DATA_SLOT).as('data'),
            eb.val(NOW_SLOT as unknown as number).as('created_at'),
            eb.val(NOW_SLOT as unknown as number).as('updated_at'),
          ])
          .where('url_key', '=', URL_KEY_SLOT),
      )
      .onConflict((oc) => oc.columns(['business_pk', 'client_id']).doNothing())
      .returning(['client_id'])
      .compile();
    requireSlots(this.insertClientQuery, [URL_KEY_SLOT, CLIENT_ID_SLOT, SOURCE_SLOT, DATA_SLOT, NOW_SLOT]);
  }

  getPipelineConfig<T>(urlKey: string): Promise<VersionedDocument<T> | undefined> {
    return this.getDocument<T>('pipeline_configs', 'config', urlKey);
  }

  /** `audit`: the operator's line, written in the same transaction. */
  putPipelineConfig(urlKey: string, document: unknown, now: number, audit: AuditEntry | null = null): Promise<number> {
    return this.putDocument('pipeline_configs', 'config', urlKey, document, now, audit);
  }

  getCustomFields<T>(urlKey: string): Promise<VersionedDocument<T> | undefined> {
    return this.getDocument<T>('custom_field_sets', 'fields', urlKey);
  }

  /** `audit`: the operator's line, written in the same transaction. */
  putCustomFields(urlKey: string, document: unknown, now: number, audit: AuditEntry | null = null): Promise<number> {
    return this.putDocument('custom_field_sets', 'fields', urlKey, document, now, audit);
  }

  private async getDocument<T>(
    table: DocumentTable,
    column: DocumentColumn,
    urlKey: string,
  ): Promise<VersionedDocument<T> | undefined> {
    if (!canName(urlKey)) return undefined;
    const row = await this.db
      .selectFrom(table)
      .innerJoin('businesses', 'businesses.id', `${table}.business_pk`)
      .select([sql<string>`${sql.ref(`${table}.${column}`)}`.as('doc'), `${table}.version`])
      .where('businesses.url_key', '=', urlKey)
      .executeTakeFirst();
    return row && { document: JSON.parse(row.doc) as T, version: Number(row.version) };
  }

  /** Replaces the whole document in one statement (with an audit line: both in one transaction); answers the new version. */
  private async putDocument(
    table: DocumentTable,
    column: DocumentColumn,
    urlKey: string,
    document: unknown,
    now: number,
    audit: AuditEntry | null,
  ): Promise<number> {
    return withAuditLine(this.db, audit, (db) => putDocumentIn(db, table, column, urlKey, document, now));
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING: of many concurrent creates of one clientId, exactly one inserts.
   * A retry reads first: a conflicting INSERT is not free (SQLite's AUTOINCREMENT rewrites its sequence
   * and fsyncs the commit; PostgreSQL burns a sequence value), and retries are the common repeat.
   * On PostgreSQL that read is part of the batched create's statement: one round trip, not two. On
   * SQLite it joins the shared read transaction, as GET client's reads do. Read alone it had been
   * thought cheaper for a create (2-4 µs, in-process); under load it was the dearer by far: A/B with
   * bench/experiments/compare.ts (5 rounds of 3 s, medians) POST identical retry 120.5 -> 78.2 µs of CPU per
   * request (8,385 -> 13,027 req/s), POST new client 84.9 -> 83.6 µs.
   */
  async insertClient(
    urlKey: string,
    clientId: string | null,
    source: string,
    data: unknown,
    now: number,
    events: OutboxRow[] = [],
  ): Promise<InsertClientResult> {
    if (this.batches && clientId !== null && canName(urlKey, clientId))
      return this.batches.create({ urlKey, clientId, source, data, now, events });
    const earlier = clientId === null ? undefined : await this.findClient(urlKey, clientId);
    if (earlier) return { outcome: 'exists', client: earlier };
    return this.writes.run((db) => this.insertClientIn(db, urlKey, clientId, source, data, now, events));
  }

  /** An operator's client (no clientId), with the operator's audit line in the same transaction when it is inserted. */
  insertDashboardClient(
    urlKey: string,
    source: string,
    data: unknown,
    now: number,
    events: OutboxRow[],
    audit: AuditEntry,
  ): Promise<InsertClientResult> {
    return this.writes.run((db) =>
      withAuditLine(
        db,
        audit,
        (trx) => this.insertClientIn(trx, urlKey, null, source, data, now, events),
        (result) => result.outcome === 'inserted',
      ),
    );
  }

  /** `events` (webhook outbox rows) are written only if the client is, in the same transaction. */
  private insertClientIn(
    db: Kysely<Database>,
    urlKey: string,
    clientId: string | null,
    source: string,
    data: unknown,
    now: number,
    events: OutboxRow[],
  ): Promise<InsertClientResult> {
    if (events.length > 0 && !db.isTransaction)
      return db.transaction().execute((trx) => this.insertClientIn(trx, urlKey, clientId, source, data, now, events));
    return this.insertClientAlone(db, urlKey, clientId, source, data, now, events);
  }

  private async insertClientAlone(
    db: Kysely<Database>,
    urlKey: string,
    clientId: string | null,
    source: string,
    data: unknown,
    now: number,
    events: OutboxRow[],
  ): Promise<InsertClientResult> {
    const { rows: inserted } = await db.executeQuery(
      bindSlots(this.insertClientQuery, {
        [URL_KEY_SLOT]: urlKey,
        [CLIENT_ID_SLOT]: clientId,
        [SOURCE_SLOT]: source,
        [DATA_SLOT]: JSON.stringify(data),
        [NOW_SLOT]: now,
      }),
    );
    if (inserted.length > 0) {
      await writeOutbox(db, events);
      return { outcome: 'inserted', client: insertedClient(clientId, source, data, now) };
    }
    if (clientId === null) return { outcome: 'no-business' };
    const existing = await this.findClientIn(db, urlKey, clientId);
    return existing ? { outcome: 'exists', client: existing } : { outcome: 'no-business' };
  }

  /** One query: the client row and its balance members. Any status: callers decide what is visible. */
  findClient(urlKey: string, clientId: string): Promise<StoredClient | undefined> {
    if (!canName(urlKey, clientId)) return Promise.resolve(undefined);
    if (this.batches) return this.batches.read(urlKey, clientId);
    return this.sharedReads!.run((db) => this.findClientIn(db, urlKey, clientId));
  }

  private async findClientIn(
    db: Kysely<Database>,
    urlKey: string,
    clientId: string,
  ): Promise<StoredClient | undefined> {
    const { rows } = await db.executeQuery(
      bindSlots(this.findClientQuery, { [URL_KEY_SLOT]: urlKey, [CLIENT_ID_SLOT]: clientId }),
    );
    return storedClientOf(rows);
  }

  /** With `events` (webhook outbox rows): written in the same transaction, and only if the status changed. */
  async setClientStatus(
    urlKey: string,
    clientId: string,
    status: ClientStatus,
    now: number,
    events: OutboxRow[] = [],
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    if (!canName(urlKey, clientId)) return false;
    if (events.length === 0 && !audit) return this.setClientStatusIn(this.db, urlKey, clientId, status, now);
    const write = async (trx: Kysely<Database>) => {
      const changed = await this.setClientStatusIn(trx, urlKey, clientId, status, now);
      if (changed) await writeOutbox(trx, events);
      return changed;
    };
    return this.db.transaction().execute((trx) => withAuditLine(trx, audit, write, (changed) => changed));
  }

  private async setClientStatusIn(
    db: Kysely<Database>,
    urlKey: string,
    clientId: string,
    status: ClientStatus,
    now: number,
  ): Promise<boolean> {
    const result = await db
      .updateTable('clients')
      .set({ status, updated_at: now })
      .where('client_id', '=', clientId)
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * How many clients of the business that are not deleted hold a value under a custom field id.
   * LIKE narrows the rows in either dialect (ids are letters, digits and "_", so at worst it over-matches);
   * the JSON check settles it. Run only when an operator changes a field's type, never per request.
   */
  async countClientsWithCustomField(urlKey: string, fieldId: string): Promise<number> {
    if (!canName(urlKey, fieldId)) return 0;
    const rows = await this.db
      .selectFrom('clients')
      .innerJoin('businesses', 'businesses.id', 'clients.business_pk')
      .select(['clients.data'])
      .where('businesses.url_key', '=', urlKey)
      .where('clients.status', '!=', 'deleted')
      .where('clients.data', 'like', `%"${fieldId}"%`)
      .execute();
    return rows.filter((row) => {
      const values = (JSON.parse(row.data) as { customFields?: Record<string, unknown> }).customFields;
      return values !== undefined && values !== null && Object.hasOwn(values, fieldId);
    }).length;
  }

  /**
   * Adds ten-thousandths to one balance member atomically (no read-modify-write), so concurrent documents
   * never lose an amount.
   */
  /** `audit`: an operator's line, written in the same transaction when the client exists. */
  async addToBalance(
    urlKey: string,
    clientId: string,
    member: string,
    amountE4: bigint,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    if (!canName(urlKey, clientId)) return false;
    return withAuditLine(
      this.db,
      audit,
      (db) => addToBalanceIn(db, urlKey, clientId, member, amountE4),
      (added) => added,
    );
  }

  async *streamClients(urlKey: string, pageSize = 500): AsyncGenerator<StoredClient> {
    let after = '';
    for (;;) {
      const rows = await this.db
        .selectFrom('clients')
        .innerJoin('businesses', 'businesses.id', 'clients.business_pk')
        .select(['clients.client_id'])
        .where('businesses.url_key', '=', urlKey)
        .where('clients.client_id', 'is not', null)
        .where('clients.client_id', '>', after)
        .orderBy('clients.client_id')
        .limit(pageSize)
        .execute();
      for (const row of rows) {
        const client = await this.findClient(urlKey, row.client_id!);
        if (client) yield client;
      }
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.client_id!;
    }
  }

  /** A line alone, for an operator action that found nothing to change (there is no change to share a transaction with). */
  async recordAudit(entry: AuditEntry): Promise<void> {
    await writeAudit(this.db, entry);
  }

  /** Newest first, by page; row ids stay inside the store. */
  async listAudit(limit: number, offset: number): Promise<AuditEntry[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select(['at', 'operator_email', 'action', 'business_url_key', 'detail'])
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      at: Number(r.at),
      operatorEmail: r.operator_email,
      action: r.action,
      businessUrlKey: r.business_url_key,
      detail: JSON.parse(r.detail) as unknown,
    }));
  }
}

/** The document write itself, on the connection or transaction given. */
async function putDocumentIn(
  db: Kysely<Database>,
  table: DocumentTable,
  column: DocumentColumn,
  urlKey: string,
  document: unknown,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto(table)
    .columns(['business_pk', column, 'version', 'updated_at'] as never)
    .expression((eb) =>
      eb
        .selectFrom('businesses')
        .select([
          'id as business_pk',
          eb.val(JSON.stringify(document)).as(column),
          eb.val(1).as('version'),
          eb.val(now).as('updated_at'),
        ])
        .where('url_key', '=', urlKey),
    )
    .onConflict((oc) =>
      oc.column('business_pk').doUpdateSet({
        [column]: (eb: { ref: (r: string) => unknown }) => eb.ref(`excluded.${column}`),
        version: sql`${sql.ref(`${table}.version`)} + 1`,
        updated_at: now,
      } as never),
    )
    .returning('version')
    .executeTakeFirst();
  if (!row) throw new Error('business vanished while writing its configuration');
  return Number(row.version);
}

/** One balance member added to, on the connection or transaction given; false when no such client. */
async function addToBalanceIn(
  db: Kysely<Database>,
  urlKey: string,
  clientId: string,
  member: string,
  amountE4: bigint,
): Promise<boolean> {
  const result = await db
    .insertInto('client_balances')
    .columns(['client_pk', 'member', 'amount_e4'])
    .expression((eb) =>
      eb
        .selectFrom('clients')
        .innerJoin('businesses', 'businesses.id', 'clients.business_pk')
        .select(['clients.id as client_pk', eb.val(member).as('member'), eb.val(amountE4).as('amount_e4')])
        .where('businesses.url_key', '=', urlKey)
        .where('clients.client_id', '=', clientId),
    )
    .onConflict((oc) =>
      oc.columns(['client_pk', 'member']).doUpdateSet({
        amount_e4: sql`${sql.ref('client_balances.amount_e4')} + ${sql.ref('excluded.amount_e4')}`,
      }),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
