import { CompiledQuery, type Kysely } from 'kysely';
import type { ClientStatus, StoredClient } from './records.js';
import type { Database } from './schema.js';

/** One row of a client read: the client, and one of its balance members (or none). */
export interface ClientRow {
  client_id: string | null; status: string; source: string; data: string; created_at: number; updated_at: number;
  member: string | null; amount_e4: number | null;
}

/** The rows of one client (one per balance member) as the record callers see. */
export function storedClientOf(rows: ClientRow[]): StoredClient | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const balance: Record<string, number> = {};
  for (const row of rows) if (row.member !== null) balance[row.member] = Number(row.amount_e4) / 10_000;
  return {
    clientId: first.client_id, status: first.status as ClientStatus, source: first.source, data: JSON.parse(first.data) as unknown,
    balance, createdAt: Number(first.created_at), updatedAt: Number(first.updated_at),
  };
}

/**
 * PostgreSQL's form of the point read, for many keys at once. The keys travel as two arrays, so the
 * statement text (and its prepared plan) is the same for any batch size; `ordinal` says which read a
 * row answers. Tenancy holds as in the single read: a client is found only through its own business.
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

interface Pending {
  urlKey: string;
  clientId: string;
  resolve: (client: StoredClient | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * PostgreSQL: point reads that arrive together share one query. A point read there is mostly
 * round-trip work (the driver's message handling, a socket write and read on each side), not index
 * work, so fifty reads in one statement cost little more than one.
 *
 * Reads wait for the end of the current turn of the event loop and, while `maxInFlight` batches are
 * out, for one of them to come back. The query starts after every read in it was asked for, so each
 * read sees every write committed before it was asked for, as a query of its own would.
 */
export class BatchedClientReads {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Kysely<Database>, private readonly maxInFlight = 4, private readonly maxBatch = 200) {}

  /** Keys reach it already checked (see canName): one unstorable key would fail the whole batch. */
  read(urlKey: string, clientId: string): Promise<StoredClient | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ urlKey, clientId, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // After the poll phase: every request that arrived in this turn has asked by then.
    setImmediate(() => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight) void this.run(this.queue.splice(0, this.maxBatch));
    });
  }

  private async run(batch: Pending[]): Promise<void> {
    this.inFlight++;
    try {
      const { rows } = await this.db.executeQuery<ClientRow & { ordinal: number }>(
        CompiledQuery.raw(BATCHED_CLIENT_READ, [batch.map((p) => p.urlKey), batch.map((p) => p.clientId)]));
      const byRead: ClientRow[][] = batch.map(() => []);
      for (const row of rows) byRead[row.ordinal - 1]!.push(row);
      batch.forEach((pending, i) => {
        try {
          pending.resolve(storedClientOf(byRead[i]!));
        } catch (error) {
          pending.reject(error);
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}
