import { CompiledQuery, type Kysely } from 'kysely';
import { Batcher, type Outcome } from './batcher.js';
import type { ClientStatus, StoredClient } from './records.js';
import type { Database } from './schema.js';
import type { OutboxRow } from './webhooks.store.js';

/**
 * Balance members are kept as whole ten-thousandths (`amount_e4`). Reading one back divides once: IEEE
 * division is correctly rounded, so the number is the double nearest the exact decimal, as JSON.parse of
 * its text would give.
 */
export const BALANCE_DECIMALS = 4;

/** One row of a client read: the client, and one of its balance members (or none). */
export interface ClientRow {
  client_id: string | null;
  status: string;
  source: string;
  data: string;
  created_at: number;
  updated_at: number;
  member: string | null;
  amount_e4: number | null;
}

export type InsertClientResult =
  | { outcome: 'inserted'; client: StoredClient }
  | { outcome: 'exists'; client: StoredClient }
  | { outcome: 'no-business' };

/** The rows of one client (one per balance member) as the record callers see. */
export function storedClientOf(rows: ClientRow[]): StoredClient | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const balance: Record<string, number> = {};
  for (const row of rows) if (row.member !== null) balance[row.member] = Number(row.amount_e4) / 10 ** BALANCE_DECIMALS;
  return {
    clientId: first.client_id,
    status: first.status as ClientStatus,
    source: first.source,
    data: JSON.parse(first.data) as unknown,
    balance,
    createdAt: Number(first.created_at),
    updatedAt: Number(first.updated_at),
  };
}

/** The record of a client just inserted: what a read of its row would give. */
export function insertedClient(clientId: string | null, source: string, data: unknown, now: number): StoredClient {
  return { clientId, status: 'active', source, data, balance: {}, createdAt: now, updatedAt: now };
}

/**
 * PostgreSQL's point read, for many keys at once. The keys travel as arrays, so the statement text
 * (and its prepared plan) is the same for any batch size; `ordinal` says which read a row answers.
 * Tenancy holds as in the single read: a client is found only through its own business.
 *
 * Each key must be two index lookups however the tables grow. A prepared statement keeps the plan it
 * made when the tables were small, and a plain join let that plan hash the whole `clients` table on
 * every batch (found with auto_explain: reads slowed as creates went on). LIMIT and OFFSET keep the
 * lateral subqueries from being flattened into joins, so the planner cannot choose a scan.
 */
export const BATCHED_CLIENT_READ = `select k.ordinal::int4 as ordinal,
    c.client_id, c.status, c.source, c.data, c.created_at, c.updated_at, cb.member, cb.amount_e4
  from unnest($1::text[], $2::text[]) with ordinality as k(url_key, client_id, ordinal)
  cross join lateral (
    select c.id, c.client_id, c.status, c.source, c.data, c.created_at, c.updated_at from clients c
    where c.business_pk = (select b.id from businesses b where b.url_key = k.url_key) and c.client_id = k.client_id
    limit 1
  ) c
  left join lateral (select cb.member, cb.amount_e4 from client_balances cb where cb.client_pk = c.id offset 0) cb on true`;

/**
 * A text[] of JSON documents (client data, event payloads), sent as one JSON array of strings: the
 * driver turns a JS array into an array literal by escaping every element with two regular-expression
 * replaces in JavaScript, where JSON.stringify escapes in native code. The driver's escaping took
 * 4.2 µs of a plain create's main thread and 10.5 µs of a create with one webhook event (its ~1 KB
 * payload; cpu profile under bench/experiments/threads.ts). A/B against the text[] build (bench/experiments/compare.ts, 5
 * rounds of 3 s, medians, server CPU per create): plain 68.1 against 71.8 µs (11,888 against 11,357
 * req/s); with one event 87.0 against 99.5 µs, PostgreSQL's side 69.7 against 63.4 (7,778 against
 * 7,336 req/s). Every string stored has passed isStorableString (no NUL, no lone surrogate), so each
 * document is text PostgreSQL's JSON parser takes back unchanged.
 */
const jsonTexts = (parameter: string) =>
  `array(select j.value from json_array_elements_text(${parameter}::json) with ordinality as j(value, n) order by j.n)`;

/** The parameter `jsonTexts` reads: the documents as one JSON array of strings. */
const jsonTextsOf = (documents: string[]) => JSON.stringify(documents);

/**
 * Many creates in one statement (one round trip, one commit): each key is first looked up, as the
 * batched read does, and only the keys not found are inserted, so a retry neither burns a sequence
 * value nor writes. A key of an unknown business inserts nothing; a key stored by someone else
 * after the statement's snapshot is left alone (ON CONFLICT DO NOTHING) and comes back neither found
 * nor inserted, for the caller to read again. Every row names its key by `ordinal`.
 */
const CREATE_CTES = `with k as (
    select * from unnest($1::text[], $2::text[], $3::text[], ${jsonTexts('$4')}, $5::int8[])
      with ordinality as k(url_key, client_id, source, data, created_at, ordinal)
  ),
  found as (
    select k.ordinal, c.id, c.client_id, c.status, c.source, c.data, c.created_at, c.updated_at
    from k cross join lateral (
      select c.id, c.client_id, c.status, c.source, c.data, c.created_at, c.updated_at from clients c
      where c.business_pk = (select b.id from businesses b where b.url_key = k.url_key) and c.client_id = k.client_id
      limit 1
    ) c
  ),
  inserted as (
    insert into clients (business_pk, client_id, status, source, data, created_at, updated_at)
    select b.id, k.client_id, 'active', k.source, k.data, k.created_at, k.created_at
    from k cross join lateral (select b.id from businesses b where b.url_key = k.url_key limit 1) b
    where not exists (select from found f where f.ordinal = k.ordinal)
    on conflict (business_pk, client_id) do nothing
    returning business_pk, client_id
  )`;

const CREATE_SELECT = `  select f.ordinal::int4 as ordinal, false as inserted,
      f.client_id, f.status, f.source, f.data, f.created_at, f.updated_at, cb.member, cb.amount_e4
    from found f left join lateral (select cb.member, cb.amount_e4 from client_balances cb where cb.client_pk = f.id offset 0) cb on true
  union all
  select k.ordinal::int4, true, i.client_id, null, null, null, null, null, null, null
    from inserted i join k on k.client_id = i.client_id and k.url_key = (select b.url_key from businesses b where b.id = i.business_pk)`;

export const BATCHED_CLIENT_CREATE = `${CREATE_CTES}
${CREATE_SELECT}`;

/**
 * The same statement, writing the webhook outbox rows of the creates that inserted (one per event and
 * endpoint, `ordinal` naming the create) in the same statement, hence the same transaction: an event
 * exists exactly when its client does. Used only by batches that carry events, so that a business with
 * no subscribed endpoint runs the plain statement.
 */
export const BATCHED_CLIENT_CREATE_WITH_EVENTS = `${CREATE_CTES},
  outbox as (
    insert into webhook_outbox (endpoint_pk, message_id, event_type, resource_key, payload, state, attempts, next_attempt_at, created_at)
    select e.endpoint_pk, e.message_id, e.event_type, e.resource_key, e.payload, 'pending', 0, e.created_at, e.created_at
    from unnest($6::int8[], $7::int8[], $8::text[], $9::text[], $10::text[], ${jsonTexts('$11')}, $12::int8[])
      as e(ordinal, endpoint_pk, message_id, event_type, resource_key, payload, created_at)
    join k on k.ordinal = e.ordinal
    where exists (select from inserted i where i.client_id = k.client_id
      and i.business_pk = (select b.id from businesses b where b.url_key = k.url_key))
  )
${CREATE_SELECT}`;

export interface ClientInsert {
  urlKey: string;
  clientId: string;
  source: string;
  data: unknown;
  now: number;
  /** Webhook outbox rows to write if, and only if, this create inserts. */
  events?: OutboxRow[];
}

const keyOf = (urlKey: string, clientId: string) => JSON.stringify([urlKey, clientId]);

/**
 * PostgreSQL: reads and creates of clients that arrive together share one statement. There a point
 * read or an insert is mostly round-trip work (the driver's message handling, a socket write and
 * read on each side, and for an insert a commit), not index work, so fifty in one statement cost
 * little more than one. Keys reach it already checked (see canName): one unstorable key would fail
 * a whole batch.
 */
export class PostgresClientBatches {
  private readonly reads: Batcher<[string, string], StoredClient | undefined>;
  private readonly creates: Batcher<ClientInsert, InsertClientResult>;

  /** `insertOne` is the create of a single client, for a batch whose statement failed. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly insertOne: (create: ClientInsert) => Promise<InsertClientResult>,
  ) {
    this.reads = new Batcher((keys) => this.readBatch(keys));
    this.creates = new Batcher((creates) => this.createBatch(creates));
  }

  read(urlKey: string, clientId: string): Promise<StoredClient | undefined> {
    return this.reads.add([urlKey, clientId]);
  }

  /** A create: the client stored now, or the one already stored under its key. */
  create(create: ClientInsert): Promise<InsertClientResult> {
    return this.creates.add(create);
  }

  private async readBatch(keys: [string, string][]): Promise<Outcome<StoredClient | undefined>[]> {
    const { rows } = await this.db.executeQuery<ClientRow & { ordinal: number }>(
      CompiledQuery.raw(BATCHED_CLIENT_READ, [keys.map(([urlKey]) => urlKey), keys.map(([, clientId]) => clientId)]),
    );
    const byRead: ClientRow[][] = keys.map(() => []);
    for (const row of rows) byRead[row.ordinal - 1]!.push(row);
    return byRead.map((found) => {
      try {
        return { value: storedClientOf(found) };
      } catch (error) {
        return { error };
      }
    });
  }

  private async createBatch(creates: ClientInsert[]): Promise<Outcome<InsertClientResult>[]> {
    try {
      return await this.createTogether(creates);
    } catch {
      // One at a time, so that whatever failed the statement fails only the creates it belongs to.
      return Promise.all(
        creates.map((create) =>
          this.insertOne(create).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          ),
        ),
      );
    }
  }

  private async createTogether(creates: ClientInsert[]): Promise<Outcome<InsertClientResult>[]> {
    // The first create of each key goes into the statement, in key order: two batches that share
    // keys then wait on each other's rows in the same order, and cannot deadlock.
    const leads = new Map<string, ClientInsert>();
    for (const create of creates) {
      const key = keyOf(create.urlKey, create.clientId);
      if (!leads.has(key)) leads.set(key, create);
    }
    const sent = [...leads.values()].sort((a, b) => compare(a.urlKey, b.urlKey) || compare(a.clientId, b.clientId));
    const parameters: unknown[] = [
      sent.map((c) => c.urlKey),
      sent.map((c) => c.clientId),
      sent.map((c) => c.source),
      jsonTextsOf(sent.map((c) => JSON.stringify(c.data))),
      sent.map((c) => c.now),
    ];
    const events = sent.flatMap((c, i) => (c.events ?? []).map((row) => ({ ordinal: i + 1, row })));
    if (events.length > 0) {
      parameters.push(
        events.map((e) => e.ordinal),
        events.map((e) => e.row.endpointPk),
        events.map((e) => e.row.messageId),
        events.map((e) => e.row.eventType),
        events.map((e) => e.row.resourceKey),
        jsonTextsOf(events.map((e) => e.row.payload)),
        events.map((e) => e.row.createdAt),
      );
    }
    const { rows } = await this.db.executeQuery<ClientRow & { ordinal: number; inserted: boolean }>(
      CompiledQuery.raw(events.length > 0 ? BATCHED_CLIENT_CREATE_WITH_EVENTS : BATCHED_CLIENT_CREATE, parameters),
    );
    const inserted = new Set<ClientInsert>();
    const found = new Map<string, ClientRow[]>();
    for (const row of rows) {
      const create = sent[row.ordinal - 1]!;
      if (row.inserted) inserted.add(create);
      else {
        const key = keyOf(create.urlKey, create.clientId);
        const rowsOfKey = found.get(key);
        if (rowsOfKey) rowsOfKey.push(row);
        else found.set(key, [row]);
      }
    }
    return Promise.all(
      creates.map(async (create): Promise<Outcome<InsertClientResult>> => {
        try {
          if (inserted.has(create))
            return {
              value: {
                outcome: 'inserted',
                client: insertedClient(create.clientId, create.source, create.data, create.now),
              },
            };
          // Repeats of a stored key share its rows: a batch of retries is the one statement.
          const stored = found.get(keyOf(create.urlKey, create.clientId));
          if (stored) return { value: { outcome: 'exists', client: storedClientOf(stored)! } };
          // A repeat of a key inserted by this batch, a row committed after the statement began, or no business.
          const existing = await this.read(create.urlKey, create.clientId);
          return { value: existing ? { outcome: 'exists', client: existing } : { outcome: 'no-business' } };
        } catch (error) {
          return { error };
        }
      }),
    );
  }
}

/** Byte order, as the database's "C" collation would sort; only consistency matters here. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
