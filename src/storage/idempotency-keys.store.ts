import { sql, type Kysely } from 'kysely';
import { canName } from './keys.js';
import type { Database } from './schema.js';

/**
 * The request holding an Idempotency-Key: data only. The routes layer makes it (src/http/idempotency-key.ts);
 * a feature's store write carries it in an IdempotentAnswer, so that the answer is kept in the
 * transaction that writes the document.
 */
export interface IdempotencyClaim {
  urlKey: string;
  /** Who sent the key (`app:<appId>`, `operator:<operatorId>`): keys of different callers never meet. */
  caller: string;
  key: string;
  /** Random, per claim: every later write of the row is conditional on it. */
  token: string;
}

/**
 * A success to keep under a claim: its status, and its body as the object the route answers (kept as
 * the JSON text the route sends: JSON.stringify, as Fastify writes an answer without a schema).
 */
export interface IdempotentAnswer {
  claim: IdempotencyClaim;
  status: number;
  body: unknown;
}

/**
 * What a service hands the store write that creates its document (null when the request sent no key).
 * `body` is the very object the route will answer, so a replay sends the text the first answer sent.
 */
export function idempotentAnswer(claim: IdempotencyClaim | null | undefined, status: number, body: unknown) {
  return claim ? ({ claim, status, body } satisfies IdempotentAnswer) : null;
}

/**
 * The body with the members a store assigns inside its transaction (an invoice number): each replaces
 * the member of that name where it stands, so the service, answering `withAssigned(body, assigned)`
 * from what the store returned, sends the very text the store kept.
 */
export function withAssigned(body: unknown, assigned: Record<string, unknown> = {}): unknown {
  return Object.keys(assigned).length === 0 ? body : { ...(body as Record<string, unknown>), ...assigned };
}

/** What a request finds under its key. */
export type ClaimOutcome =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; status: number; body: string }
  | { outcome: 'conflict' }
  | { outcome: 'in-progress' }
  | { outcome: 'no-business' };

/** The times a claim is judged by (epoch ms). */
export interface ClaimClock {
  now: number;
  /** A running claim is forgotten once this lapses (its request died unanswered). */
  leaseMs: number;
  /** A key is kept this long from its first use; an older row counts as absent. */
  retentionMs: number;
}

/**
 * Thrown inside a feature's write transaction when its claim is no longer its own (the lease lapsed and
 * another request took the key over): the transaction rolls back, so that key creates no second document.
 */
export class IdempotencyClaimLost extends Error {
  constructor() {
    super('the Idempotency-Key claim was taken over by another request');
  }
}

type Db = Kysely<Database>;

const businessOf = (db: Db, urlKey: string) =>
  db.selectFrom('businesses').select('businesses.id').where('businesses.url_key', '=', urlKey);

/** The row of a claim's key: its business (by urlKey), caller and key. */
const rowOf = (claim: IdempotencyClaim) => sql<boolean>`${sql.ref('business_pk')} =
  (select id from businesses where url_key = ${claim.urlKey})
  and ${sql.ref('caller')} = ${claim.caller} and ${sql.ref('key')} = ${claim.key}`;

/** Writes the answer into the claim's row, only while that request still holds it and has kept none: whether it did. */
async function keepIn(db: Db, claim: IdempotencyClaim, status: number, body: string): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ status, body })
    .where(rowOf(claim))
    .where('token', '=', claim.token)
    .where('status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Keeps a success in the caller's transaction: a feature's store calls this inside the transaction that
 * writes the document (as it writes webhook rows), so the document and the answer commit together.
 * `assigned`: members of the answer only the store knows, decided in this transaction (see withAssigned).
 * Throws IdempotencyClaimLost (rolling the transaction back) when the claim is no longer held.
 */
export async function keepIdempotentAnswer(
  trx: Db,
  answer: IdempotentAnswer | null | undefined,
  assigned?: Record<string, unknown>,
): Promise<void> {
  if (!answer) return;
  const kept = await keepIn(trx, answer.claim, answer.status, JSON.stringify(withAssigned(answer.body, assigned)));
  if (!kept) throw new IdempotencyClaimLost();
}

/** Claims, answers kept, releases and pruning of Idempotency-Keys. Every method takes the business first. */
export class IdempotencyKeysStore {
  constructor(private readonly db: Db) {}

  /**
   * Claims the key for this request, atomically across processes: the insert of a new row, or the
   * conditional take-over of an expired one (its lease lapsed, or its 24 hours passed), wins for exactly
   * one request; every other finds the row and is told what it holds.
   */
  async claim(claim: IdempotencyClaim, fingerprint: string, clock: ClaimClock): Promise<ClaimOutcome> {
    if (!canName(claim.urlKey)) return { outcome: 'no-business' };
    // A row deleted between our insert and our read (released, pruned) is tried again: a few rounds at most.
    for (let round = 0; round < 5; round++) {
      const inserted = await this.db
        .insertInto('idempotency_keys')
        .columns(['business_pk', 'caller', 'key', 'fingerprint', 'token', 'lease_until', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('businesses')
            .select([
              'id as business_pk',
              eb.val(claim.caller).as('caller'),
              eb.val(claim.key).as('key'),
              eb.val(fingerprint).as('fingerprint'),
              eb.val(claim.token).as('token'),
              eb.val(clock.now + clock.leaseMs).as('lease_until'),
              eb.val(clock.now).as('created_at'),
            ])
            .where('url_key', '=', claim.urlKey),
        )
        .onConflict((oc) => oc.columns(['business_pk', 'caller', 'key']).doNothing())
        .returning('token')
        .executeTakeFirst();
      if (inserted) return { outcome: 'claimed' };
      const found = await this.find(claim);
      if (found === 'no-business') return { outcome: 'no-business' };
      if (!found) continue;
      const leaseLapsed = found.status === null && found.lease_until <= clock.now;
      const expired = found.created_at <= clock.now - clock.retentionMs || leaseLapsed;
      if (expired) {
        if (await this.takeOver(claim, fingerprint, found.token, clock)) return { outcome: 'claimed' };
        continue;
      }
      if (found.fingerprint !== fingerprint) return { outcome: 'conflict' };
      if (found.status === null || found.body === null) return { outcome: 'in-progress' };
      return { outcome: 'replay', status: found.status, body: found.body };
    }
    return { outcome: 'in-progress' };
  }

  private async find(claim: IdempotencyClaim) {
    const business = await businessOf(this.db, claim.urlKey).executeTakeFirst();
    if (!business) return 'no-business' as const;
    const row = await this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'token', 'lease_until', 'status', 'body', 'created_at'])
      .where('business_pk', '=', Number(business.id))
      .where('caller', '=', claim.caller)
      .where('key', '=', claim.key)
      .executeTakeFirst();
    if (!row) return undefined;
    const status = row.status === null ? null : Number(row.status);
    return { ...row, lease_until: Number(row.lease_until), created_at: Number(row.created_at), status };
  }

  /**
   * Replaces an expired row, only if it is still the one read (its token) and still expired: a first use
   * again. The expiry is checked again in the UPDATE because a keep of the holder's answer does not change
   * the token: PostgreSQL re-checks the WHERE against the row a concurrent write committed, and an answer
   * kept meanwhile (status set) must stop the take-over.
   */
  private async takeOver(claim: IdempotencyClaim, fingerprint: string, readToken: string, clock: ClaimClock) {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ fingerprint, token: claim.token, lease_until: clock.now + clock.leaseMs, status: null, body: null })
      .set({ created_at: clock.now })
      .where(rowOf(claim))
      .where('token', '=', readToken)
      .where((eb) =>
        eb.or([
          eb('created_at', '<=', clock.now - clock.retentionMs),
          eb.and([eb('status', 'is', null), eb('lease_until', '<=', clock.now)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Keeps a success outside any transaction (an answer that wrote no document); nothing if the claim is gone. */
  keep(claim: IdempotencyClaim, status: number, bodyText: string): Promise<boolean> {
    return keepIn(this.db, claim, status, bodyText);
  }

  /** Forgets a claim whose request did not succeed: the key is free again. Nothing if it answered or was taken over. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where(rowOf(claim))
      .where('token', '=', claim.token)
      .where('status', 'is', null)
      .execute();
  }

  /** Drops every key first used before `before` (all businesses): kept answers and dead claims alike. */
  async prune(before: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('created_at', '<=', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
