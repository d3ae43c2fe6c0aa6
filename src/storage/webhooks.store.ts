import { sql, type Kysely } from 'kysely';
import type { StoreKind } from './db.js';
import { bindSlots, compiledPerDialect } from './compiled.js';
import { withAuditLine, writeAudit } from './audit-lines.js';
import type { AuditEntry } from './records.js';
import { canName } from './keys.js';
import type { Database } from './schema.js';
import type {
  EndpointRecord,
  EndpointPatch,
  Subscriptions,
  OutboxRow,
  ClaimedDelivery,
  AttemptRecord,
  AttemptResult,
  FinishOutcome,
  FinishedDelivery,
} from './webhooks.records.js';

export type {
  EndpointRecord,
  EndpointPatch,
  Subscriptions,
  OutboxRow,
  ClaimedDelivery,
  AttemptRecord,
  AttemptResult,
  FinishOutcome,
  FinishedDelivery,
} from './webhooks.records.js';

const ENDPOINT_SLOT = '\u0000endpoint_pk';
const MESSAGE_SLOT = '\u0000message_id';
const TYPE_SLOT = '\u0000event_type';
const RESOURCE_SLOT = '\u0000resource_key';
const PAYLOAD_SLOT = '\u0000payload';
const AT_SLOT = '\u0000created_at';

const outboxRowValues = (r: Record<keyof OutboxRow, unknown>) => ({
  endpoint_pk: r.endpointPk as number,
  message_id: r.messageId as string,
  event_type: r.eventType as string,
  resource_key: r.resourceKey as string,
  payload: r.payload as string,
  state: 'pending',
  attempts: 0,
  next_attempt_at: r.createdAt as number,
  created_at: r.createdAt as number,
});

/**
 * One outbox row, the common case (one subscribed endpoint), compiled once (see bindSlots): built
 * through Kysely per event, the insert was most of what an event added to a client create.
 */
const insertOneOutboxRow = compiledPerDialect(
  (db: Kysely<Database>) =>
    db
      .insertInto('webhook_outbox')
      .values(
        outboxRowValues({
          endpointPk: ENDPOINT_SLOT,
          messageId: MESSAGE_SLOT,
          eventType: TYPE_SLOT,
          resourceKey: RESOURCE_SLOT,
          payload: PAYLOAD_SLOT,
          createdAt: AT_SLOT,
        }),
      )
      .compile(),
  [ENDPOINT_SLOT, MESSAGE_SLOT, TYPE_SLOT, RESOURCE_SLOT, PAYLOAD_SLOT, AT_SLOT],
);

/** Writes outbox rows with `db`: a transaction of the caller's, so that the event commits with its change. */
export async function writeOutbox(db: Kysely<Database>, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length === 1) {
    const r = rows[0]!;
    await db.executeQuery(
      bindSlots(insertOneOutboxRow(db), {
        [ENDPOINT_SLOT]: r.endpointPk,
        [MESSAGE_SLOT]: r.messageId,
        [TYPE_SLOT]: r.eventType,
        [RESOURCE_SLOT]: r.resourceKey,
        [PAYLOAD_SLOT]: r.payload,
        [AT_SLOT]: r.createdAt,
      }),
    );
    return;
  }
  await db.insertInto('webhook_outbox').values(rows.map(outboxRowValues)).execute();
}

type EndpointRow = Database['webhook_endpoints'];

/** The advisory lock key that makes claims take turns on PostgreSQL (any constant no other lock uses). */
const CLAIM_LOCK = 0x63726d6b_0024;

function recordOf(row: Omit<EndpointRow, 'id' | 'business_pk'>): EndpointRecord {
  return {
    id: row.public_id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as string[],
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until === null ? null : Number(row.previous_secret_until),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const ENDPOINT_COLUMNS = [
  'public_id',
  'url',
  'description',
  'event_types',
  'enabled',
  'disabled_reason',
  'secret',
  'previous_secret',
  'previous_secret_until',
  'created_at',
  'updated_at',
] as const;

/** Webhook endpoints, the outbox and the delivery log. Every endpoint is reached through its business. */
export class WebhooksStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: StoreKind,
  ) {}

  private businessPk(urlKey: string) {
    return this.db.selectFrom('businesses').select('id').where('url_key', '=', urlKey);
  }

  private endpointPk(urlKey: string, endpointId: string) {
    return this.db
      .selectFrom('webhook_endpoints')
      .select('webhook_endpoints.id')
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .where('public_id', '=', endpointId);
  }

  /** One query; an unknown business simply has no endpoints (its writes fail on their own). */
  async subscriptions(urlKey: string): Promise<Subscriptions> {
    if (!canName(urlKey)) return { endpoints: [] };
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'event_types'])
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .where('enabled', '=', 1)
      .execute();
    return {
      endpoints: rows.map((r) => ({ pk: Number(r.id), eventTypes: new Set(JSON.parse(r.event_types) as string[]) })),
    };
  }

  /** `audit` (for this and the other operator writes below): the operator's line, in the write's transaction. */
  async create(urlKey: string, record: EndpointRecord, audit: AuditEntry | null = null): Promise<boolean> {
    const business = canName(urlKey) ? await this.businessPk(urlKey).executeTakeFirst() : undefined;
    if (!business) return false;
    await withAuditLine(this.db, audit, (db) => this.insertEndpoint(db, business.id, record));
    return true;
  }

  private async insertEndpoint(db: Kysely<Database>, businessPk: number, record: EndpointRecord): Promise<void> {
    await db
      .insertInto('webhook_endpoints')
      .values({
        business_pk: businessPk,
        public_id: record.id,
        url: record.url,
        description: record.description,
        event_types: JSON.stringify(record.eventTypes),
        enabled: record.enabled ? 1 : 0,
        disabled_reason: record.disabledReason,
        secret: record.secret,
        previous_secret: null,
        previous_secret_until: null,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      })
      .execute();
  }

  async list(urlKey: string): Promise<EndpointRecord[]> {
    if (!canName(urlKey)) return [];
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .select([...ENDPOINT_COLUMNS])
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .orderBy('id')
      .execute();
    return rows.map(recordOf);
  }

  async find(urlKey: string, endpointId: string): Promise<EndpointRecord | undefined> {
    if (!canName(urlKey, endpointId)) return undefined;
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .select([...ENDPOINT_COLUMNS])
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .where('public_id', '=', endpointId)
      .executeTakeFirst();
    return row && recordOf(row);
  }

  /** A re-enabled endpoint loses its "disabled because failing" mark. */
  async update(
    urlKey: string,
    endpointId: string,
    patch: EndpointPatch,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<void> {
    await withAuditLine(this.db, audit, (db) =>
      db
        .updateTable('webhook_endpoints')
        .set({
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.eventTypes !== undefined && { event_types: JSON.stringify(patch.eventTypes) }),
          ...(patch.enabled !== undefined && { enabled: patch.enabled ? 1 : 0, disabled_reason: null }),
          updated_at: now,
        })
        .where('id', '=', this.endpointPk(urlKey, endpointId))
        .execute(),
    );
  }

  async rotate(
    urlKey: string,
    endpointId: string,
    secret: string,
    previousUntil: number,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<void> {
    await withAuditLine(this.db, audit, (db) =>
      db
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          previous_secret: eb.ref('secret'),
          previous_secret_until: previousUntil,
          secret,
          updated_at: now,
        }))
        .where('id', '=', this.endpointPk(urlKey, endpointId))
        .execute(),
    );
  }

  async remove(urlKey: string, endpointId: string, audit: AuditEntry | null = null): Promise<void> {
    await withAuditLine(this.db, audit, (db) =>
      db.deleteFrom('webhook_endpoints').where('id', '=', this.endpointPk(urlKey, endpointId)).execute(),
    );
  }

  /** Queues one event for one endpoint of the business (a test event, a resend). False when no such endpoint. */
  async enqueue(
    urlKey: string,
    endpointId: string,
    row: Omit<OutboxRow, 'endpointPk'>,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    if (!canName(urlKey, endpointId)) return false;
    const endpoint = await this.endpointPk(urlKey, endpointId).executeTakeFirst();
    if (!endpoint) return false;
    await withAuditLine(this.db, audit, (db) => writeOutbox(db, [{ ...row, endpointPk: Number(endpoint.id) }]));
    return true;
  }

  /** The event as first written for this endpoint, to send again: same id, same body. */
  async findEvent(
    urlKey: string,
    endpointId: string,
    messageId: string,
  ): Promise<Omit<OutboxRow, 'endpointPk'> | undefined> {
    if (!canName(urlKey, endpointId, messageId)) return undefined;
    const row = await this.db
      .selectFrom('webhook_outbox')
      .select(['message_id', 'event_type', 'resource_key', 'payload', 'created_at'])
      .where('endpoint_pk', '=', this.endpointPk(urlKey, endpointId))
      .where('message_id', '=', messageId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return (
      row && {
        messageId: row.message_id,
        eventType: row.event_type,
        resourceKey: row.resource_key,
        payload: row.payload,
        createdAt: Number(row.created_at),
      }
    );
  }

  /**
   * Sends an event again now (a resend from the delivery log), as the next attempt of its latest outbox
   * row, so the log numbers it after the event's last attempt and the retry schedule goes on from there.
   * Waiting to retry: due now. Delivered or given up: pending again, due now. In flight (claimed, its
   * attempt not logged yet) or never attempted: already on its way, left alone. Undefined when the
   * endpoint has no such event (pruned after 30 days, or never).
   */
  async resendNow(
    urlKey: string,
    endpointId: string,
    messageId: string,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<{ eventType: string } | undefined> {
    if (!canName(urlKey, endpointId, messageId)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      let latest = trx
        .selectFrom('webhook_outbox')
        .select(['id', 'endpoint_pk', 'event_type', 'state', 'attempts'])
        .where('endpoint_pk', '=', this.endpointPk(urlKey, endpointId))
        .where('message_id', '=', messageId)
        .orderBy('id', 'desc')
        .limit(1);
      if (this.kind === 'postgres') latest = latest.forUpdate();
      const row = await latest.executeTakeFirst();
      if (!row) return undefined;
      // The operator asked for it: the line is kept whether the event goes again now or is already on its way.
      if (audit) await writeAudit(trx, audit);
      const attempts = Number(row.attempts);
      if (row.state === 'pending') {
        if (attempts === 0) return { eventType: row.event_type };
        const logged = await trx
          .selectFrom('webhook_attempts')
          .select((eb) => eb.fn.max('attempt').as('last'))
          .where('endpoint_pk', '=', row.endpoint_pk)
          .where('message_id', '=', messageId)
          .executeTakeFirst();
        if (Number(logged?.last ?? 0) < attempts) return { eventType: row.event_type };
      }
      await trx
        .updateTable('webhook_outbox')
        .set({ state: 'pending', next_attempt_at: now })
        .where('id', '=', row.id)
        .execute();
      return { eventType: row.event_type };
    });
  }

  async listAttempts(urlKey: string, endpointId: string, limit: number, offset: number): Promise<AttemptRecord[]> {
    if (!canName(urlKey, endpointId)) return [];
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .select(['at', 'message_id', 'event_type', 'attempt', 'status_code', 'duration_ms', 'error'])
      .where('endpoint_pk', '=', this.endpointPk(urlKey, endpointId))
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      at: Number(r.at),
      eventId: r.message_id,
      eventType: r.event_type,
      attempt: Number(r.attempt),
      statusCode: r.status_code === null ? null : Number(r.status_code),
      durationMs: Number(r.duration_ms),
      error: r.error,
    }));
  }

  /** Drops delivered and given-up events and log entries older than `before`; pending events stay whatever their age. */
  async prune(before: number): Promise<void> {
    await this.db
      .deleteFrom('webhook_outbox')
      .where('state', '!=', 'pending')
      .where('created_at', '<', before)
      .execute();
    await this.db.deleteFrom('webhook_attempts').where('at', '<', before).execute();
  }

  /**
   * Claims due deliveries: each is the oldest pending event of its (endpoint, resource), of an enabled
   * endpoint. A claim moves `next_attempt_at` to `leaseUntil` and counts the attempt, so a claim lost
   * with its process comes due again after the lease (and is sent again under the same id).
   *
   * Attempted events (in flight or waiting to retry) come first, then new ones in id order
   * (migration 009-outbox-claims). Why that keeps each resource in order without indexing new events
   * by resource: the writes of one resource are serialised by its own row, so its events' ids rise in
   * the order they commit. A new event waits while an attempted event of its resource is pending (a
   * lookup in the small attempted index), and new events are taken as a prefix in id order, so an
   * earlier new event of the same resource is never skipped: it is in the same prefix, which keeps the
   * first event of each resource. Claims run one at a time (PostgreSQL: a transaction advisory lock;
   * SQLite: one process, one writer), so each claim sees the attempts the one before it counted; the
   * rows are still locked FOR UPDATE SKIP LOCKED against anything else holding them.
   */
  async claim(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    return this.db.transaction().execute(async (trx) => {
      if (this.kind === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      const retries = await this.dueQuery(trx, 'retry', limit)
        .where('o.next_attempt_at', '<=', now)
        .orderBy('o.next_attempt_at')
        .orderBy('o.id')
        .execute();
      const ids = retries.map((r) => Number(r.id));
      if (ids.length < limit) {
        // A prefix a few times the room: a burst of one resource's events takes one place, not all.
        const fresh = await this.dueQuery(trx, 'new', (limit - ids.length) * 4)
          .orderBy('o.id')
          .execute();
        const resources = new Set<string>();
        for (const row of fresh) {
          const key = `${row.endpoint_pk}:${row.resource_key}`;
          if (resources.has(key)) continue;
          resources.add(key);
          ids.push(Number(row.id));
          if (ids.length === limit) break;
        }
      }
      if (ids.length === 0) return [];
      await trx
        .updateTable('webhook_outbox')
        .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where(this.idIn('id', ids))
        .execute();
      const rows = await trx
        .selectFrom('webhook_outbox as o')
        .innerJoin('webhook_endpoints as ep', 'ep.id', 'o.endpoint_pk')
        .select([
          'o.id',
          'o.endpoint_pk',
          'o.message_id',
          'o.event_type',
          'o.payload',
          'o.attempts',
          'ep.url',
          'ep.secret',
          'ep.previous_secret',
          'ep.previous_secret_until',
        ])
        .where(this.idIn('o.id', ids))
        .orderBy('o.id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        endpointPk: Number(r.endpoint_pk),
        messageId: r.message_id,
        eventType: r.event_type,
        payload: r.payload,
        attempt: Number(r.attempts),
        url: r.url,
        secrets:
          r.previous_secret && Number(r.previous_secret_until) > now ? [r.secret, r.previous_secret] : [r.secret],
      }));
    });
  }

  /**
   * Pending events of enabled endpoints in one phase (new: never attempted; retry: attempted), none of
   * them behind an attempted event of its resource. The phase conditions are literals, so that both
   * stores' planners can use the partial indexes of 008 (a bound parameter proves nothing about them).
   */
  private dueQuery(trx: Kysely<Database>, phase: 'new' | 'retry', limit: number) {
    const attempted = (table: 'o' | 'p') =>
      sql<boolean>`${sql.ref(`${table}.state`)} = 'pending' and ${sql.ref(`${table}.attempts`)} > 0`;
    let due = trx
      .selectFrom('webhook_outbox as o')
      .innerJoin('webhook_endpoints as ep', 'ep.id', 'o.endpoint_pk')
      .select(['o.id', 'o.endpoint_pk', 'o.resource_key'])
      .where(phase === 'new' ? sql<boolean>`o.state = 'pending' and o.attempts = 0` : attempted('o'))
      .where('ep.enabled', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_outbox as p')
              .select(sql.lit(1).as('one'))
              .whereRef('p.endpoint_pk', '=', 'o.endpoint_pk')
              .whereRef('p.resource_key', '=', 'o.resource_key')
              .where(attempted('p'))
              .whereRef('p.id', '<', 'o.id'),
          ),
        ),
      )
      .limit(limit);
    if (this.kind === 'postgres') due = due.forUpdate('o').skipLocked();
    return due;
  }

  /**
   * Records an attempt and its consequence: delivered, due again at `retryAt`, or (retryAt null after
   * a failure) given up, which disables the endpoint. Answers the endpoint's business when it was disabled.
   */
  async finish(delivery: ClaimedDelivery, attempt: AttemptResult, outcome: FinishOutcome): Promise<string | undefined> {
    return (await this.finishAll([{ delivery, attempt, outcome }]))[0];
  }

  /**
   * Several attempts recorded in one transaction: on the embedded store a commit is an fsync on the
   * event loop, and one per delivery starved the requests being served beside them.
   */
  finishAll(items: FinishedDelivery[]): Promise<(string | undefined)[]> {
    return this.db.transaction().execute(async (trx) => {
      // The common case in two statements whatever the count: every attempt logged, every success marked.
      await this.logAttempts(trx, items);
      const delivered = items.filter((item) => item.outcome === 'delivered').map((item) => item.delivery.id);
      if (delivered.length > 0) {
        await trx
          .updateTable('webhook_outbox')
          .set({ state: 'delivered' })
          .where(this.idIn('id', delivered))
          .where('state', '=', 'pending')
          .execute();
      }
      const disabled: (string | undefined)[] = [];
      for (const item of items)
        disabled.push(
          item.outcome === 'delivered'
            ? undefined
            : await this.failIn(trx, item.delivery, item.attempt.at, item.outcome),
        );
      return disabled;
    });
  }

  /**
   * One statement text whatever the number of ids: a list spelled out in the SQL would make every
   * batch size a statement of its own (each prepared and kept per PostgreSQL connection).
   */
  private idIn(column: string, ids: number[]) {
    return this.kind === 'postgres'
      ? sql<boolean>`${sql.ref(column)} = any(${ids}::int8[])`
      : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
  }

  /** The attempts of a batch: one unnest INSERT on PostgreSQL; on SQLite (no round trips) one INSERT each. */
  private async logAttempts(trx: Kysely<Database>, items: FinishedDelivery[]): Promise<void> {
    const rows = items.map(({ delivery, attempt }) => ({
      endpoint_pk: delivery.endpointPk,
      message_id: delivery.messageId,
      event_type: delivery.eventType,
      attempt: delivery.attempt,
      at: attempt.at,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
    }));
    if (this.kind === 'sqlite') {
      for (const row of rows) await trx.insertInto('webhook_attempts').values(row).execute();
      return;
    }
    const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
    await sql`insert into webhook_attempts (endpoint_pk, message_id, event_type, attempt, at, status_code, duration_ms, error)
      select * from unnest(${column('endpoint_pk')}::int8[], ${column('message_id')}::text[], ${column('event_type')}::text[],
        ${column('attempt')}::int4[], ${column('at')}::int8[], ${column('status_code')}::int4[], ${column('duration_ms')}::int4[], ${column('error')}::text[])`.execute(
      trx,
    );
  }

  /**
   * A failed attempt: due again at `retryAt`, or given up (retryAt null), which disables the endpoint
   * unless the outcome says not to (a resent event that had already used its schedule).
   */
  private async failIn(
    trx: Kysely<Database>,
    delivery: ClaimedDelivery,
    at: number,
    outcome: Exclude<FinishOutcome, 'delivered'>,
  ): Promise<string | undefined> {
    const set = outcome.retryAt === null ? { state: 'failed' } : { next_attempt_at: outcome.retryAt };
    await trx
      .updateTable('webhook_outbox')
      .set(set)
      .where('id', '=', delivery.id)
      .where('state', '=', 'pending')
      .execute();
    if (outcome.retryAt !== null || outcome.disable === false) return undefined;
    await trx
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: 'failing', updated_at: at })
      .where('id', '=', delivery.endpointPk)
      .execute();
    const business = await trx
      .selectFrom('webhook_endpoints')
      .innerJoin('businesses', 'businesses.id', 'webhook_endpoints.business_pk')
      .select('businesses.url_key')
      .where('webhook_endpoints.id', '=', delivery.endpointPk)
      .executeTakeFirst();
    return business?.url_key;
  }
}
