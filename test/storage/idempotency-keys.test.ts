import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/storage/group-commit.js';
import {
  IdempotencyClaimLost,
  keepIdempotentAnswer,
  type ClaimClock,
  type IdempotencyClaim,
} from '../../src/storage/idempotency-keys.store.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { createDocumentsTable, countDocuments } from '../helpers/idempotency-route.js';
import { availableStores, configFor, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

const stores = await availableStores();
const LEASE = 60_000;

/**
 * The store's side of invoices-interface 4.2: claims decided by the database alone, and an answer kept in
 * a write's transaction, on the write paths features use (SQLite's group commit, PostgreSQL transactions).
 */
describe.each(stores)('idempotency keys in the store [%s]', (storeName) => {
  let store: Store;
  let own: PrivateDatabase | undefined;
  const urlKey = `idem-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    // Its own database: the clocks below run ahead of the other suites'.
    if (storeName === 'postgres') own = await privatePostgresDatabase('crmkit_idemstore');
    store = openStore(configFor(storeName, own && { databaseUrl: own.url }));
    await store.migrate();
    await createDocumentsTable(store);
    await sql`insert into businesses (url_key, name, country, currency, custom_fields_enabled, created_at, updated_at)
      values (${urlKey}, ${'Idempotency'}, ${'IN'}, ${'INR'}, ${0}, ${0}, ${0})`.execute(store.leads.db);
  });
  afterAll(async () => {
    await store?.close();
    await own?.drop();
  });

  const claimOf = (key: string): IdempotencyClaim => ({
    urlKey,
    caller: 'app:test',
    key,
    token: randomBytes(8).toString('hex'),
  });
  const at = (now: number): ClaimClock => ({ now, leaseMs: LEASE, retentionMs: 24 * 3_600_000 });

  /** A feature's write: a document and its kept answer, in one transaction. */
  const write = (claim: IdempotencyClaim, thingId: string) => async (trx: typeof store.leads.db) => {
    await sql`insert into idem_test_documents (document_id, url_key, thing_id, name)
      values (${randomBytes(12).toString('hex')}, ${urlKey}, ${thingId}, ${'doc'})`.execute(trx);
    await keepIdempotentAnswer(trx, { claim, status: 201, body: { thingId } });
  };

  it('of 20 concurrent claims of one key, one wins; the others find it running', async () => {
    const key = `k-${randomBytes(4).toString('hex')}`;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => store.idempotencyKeys.claim(claimOf(key), 'fp', at(1_000))),
    );
    expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'in-progress')).toHaveLength(19);
  });

  it('of 20 concurrent take-overs of a lapsed claim, one wins', async () => {
    const key = `k-${randomBytes(4).toString('hex')}`;
    expect((await store.idempotencyKeys.claim(claimOf(key), 'fp', at(1_000))).outcome).toBe('claimed');
    const later = at(1_000 + LEASE);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => store.idempotencyKeys.claim(claimOf(key), 'fp', later)),
    );
    expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
  });

  it('in one shared commit, a write whose claim was taken over fails alone, and writes nothing', async () => {
    const [kept, lost] = [`k-${randomBytes(4).toString('hex')}`, `k-${randomBytes(4).toString('hex')}`];
    const keptClaim = claimOf(kept);
    const lostClaim = claimOf(lost);
    expect((await store.idempotencyKeys.claim(keptClaim, 'fp', at(5_000))).outcome).toBe('claimed');
    expect((await store.idempotencyKeys.claim(lostClaim, 'fp', at(5_000))).outcome).toBe('claimed');
    expect((await store.idempotencyKeys.claim(claimOf(lost), 'fp', at(5_000 + LEASE))).outcome).toBe('claimed');
    const writes =
      storeName === 'sqlite'
        ? new GroupCommit(store.leads.db)
        : { run: (w: ReturnType<typeof write>) => store.leads.db.transaction().execute(w) };
    const thing = `thing-${randomBytes(4).toString('hex')}`;
    const [first, second] = await Promise.allSettled([
      writes.run(write(keptClaim, thing)),
      writes.run(write(lostClaim, thing)),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason).toBeInstanceOf(IdempotencyClaimLost);
    expect(await countDocuments(store, urlKey, thing)).toBe(1);
    const replay = await store.idempotencyKeys.claim(claimOf(kept), 'fp', at(6_000));
    expect(replay).toEqual({ outcome: 'replay', status: 201, body: JSON.stringify({ thingId: thing }) });
  });

  it.runIf(storeName === 'postgres')(
    'a take-over waits for a write keeping the answer, then replays it (two connections)',
    async () => {
      const key = `k-${randomBytes(4).toString('hex')}`;
      const holder = claimOf(key);
      expect((await store.idempotencyKeys.claim(holder, 'fp', at(10_000))).outcome).toBe('claimed');
      const thing = `thing-${randomBytes(4).toString('hex')}`;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writing = store.leads.db.transaction().execute(async (trx) => {
        await write(holder, thing)(trx);
        await held; // the row stays locked, uncommitted, while the take-over runs
      });
      await new Promise((r) => setTimeout(r, 200));
      const takeover = store.idempotencyKeys.claim(claimOf(key), 'fp', at(10_000 + LEASE));
      await new Promise((r) => setTimeout(r, 200));
      release();
      await writing;
      expect(await takeover).toEqual({ outcome: 'replay', status: 201, body: JSON.stringify({ thingId: thing }) });
      expect(await countDocuments(store, urlKey, thing)).toBe(1);
    },
  );

  it.runIf(storeName === 'postgres')(
    'a take-over that read the row before the answer was kept waits, then leaves the answer alone',
    async () => {
      const key = `k-${randomBytes(4).toString('hex')}`;
      const holder = claimOf(key);
      expect((await store.idempotencyKeys.claim(holder, 'fp', at(20_000))).outcome).toBe('claimed');
      const thing = `thing-${randomBytes(4).toString('hex')}`;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writing = store.leads.db.transaction().execute(async (trx) => {
        await write(holder, thing)(trx);
        await held;
      });
      await new Promise((r) => setTimeout(r, 200));
      // The take-over's conditional UPDATE as claim() runs it after reading the row (lease lapsed, token read).
      const takeOver = (store.idempotencyKeys as unknown as { takeOver: (...args: unknown[]) => Promise<boolean> })
        .takeOver;
      const overwriting = takeOver.call(store.idempotencyKeys, claimOf(key), 'fp', holder.token, at(20_000 + LEASE));
      await new Promise((r) => setTimeout(r, 200));
      release();
      await writing;
      expect(await overwriting).toBe(false);
      const replay = await store.idempotencyKeys.claim(claimOf(key), 'fp', at(20_000 + LEASE));
      expect(replay).toEqual({ outcome: 'replay', status: 201, body: JSON.stringify({ thingId: thing }) });
    },
  );
});
