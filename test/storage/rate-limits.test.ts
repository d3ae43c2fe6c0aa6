// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { randomKey } from '../helpers/seed.js';
import { availableStores, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

const stores = await availableStores();
/** Times in 1970. Pruning deletes by time alone, so on PostgreSQL these run in a database of their own. */
const T0 = 1_000_000;
const WINDOW = 60_000;

describe.each(stores)('rate-limit buckets in the store [%s]', (storeName) => {
  let t: TestApp;
  let database: PrivateDatabase | undefined;
  beforeAll(async () => {
    if (storeName === 'postgres') database = await privatePostgresDatabase('crmkit_limits');
    t = await createTestApp(storeName, database ? { databaseUrl: database.url } : {});
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });
  const limits = () => t.store.rateLimits;

  it('hit counts in one fixed window and answers when it ends; peek reads without counting', async () => {
    const bucket = randomKey('bucket');
    expect(await limits().peek(bucket, WINDOW, T0)).toEqual({ count: 0, windowStart: T0, resetAt: T0 + WINDOW });
    expect(await limits().hit(bucket, WINDOW, T0)).toEqual({ count: 1, windowStart: T0, resetAt: T0 + WINDOW });
    expect(await limits().hit(bucket, WINDOW, T0 + 10_000)).toEqual({
      count: 2,
      windowStart: T0,
      resetAt: T0 + WINDOW,
    });
    expect((await limits().peek(bucket, WINDOW, T0 + 20_000)).count).toBe(2);
  });

  it('peekAll reads several buckets in one call, in the order asked, an unknown or ended one as empty', async () => {
    const [busy, ended, unknown] = [randomKey('bucket'), randomKey('bucket'), randomKey('bucket')];
    await limits().hit(busy, WINDOW, T0 + WINDOW);
    await limits().hit(busy, WINDOW, T0 + WINDOW);
    await limits().hit(ended, WINDOW, T0);
    const now = T0 + WINDOW + 1000;
    expect(await limits().peekAll([unknown, busy, ended], WINDOW, now)).toEqual([
      { count: 0, windowStart: now, resetAt: now + WINDOW },
      { count: 2, windowStart: T0 + WINDOW, resetAt: T0 + 2 * WINDOW },
      { count: 0, windowStart: now, resetAt: now + WINDOW },
    ]);
  });

  it('a window that has ended starts again at the next hit, and peeks as empty', async () => {
    const bucket = randomKey('bucket');
    await limits().hit(bucket, WINDOW, T0);
    await limits().hit(bucket, WINDOW, T0);
    expect((await limits().peek(bucket, WINDOW, T0 + WINDOW)).count).toBe(0);
    expect(await limits().hit(bucket, WINDOW, T0 + WINDOW)).toEqual({
      count: 1,
      windowStart: T0 + WINDOW,
      resetAt: T0 + 2 * WINDOW,
    });
  });

  it('release takes back one event of the same window, never below zero and never from a newer window', async () => {
    const bucket = randomKey('bucket');
    const first = await limits().hit(bucket, WINDOW, T0);
    await limits().hit(bucket, WINDOW, T0);
    await limits().release(bucket, first.windowStart);
    expect((await limits().peek(bucket, WINDOW, T0)).count).toBe(1);
    await limits().release(bucket, first.windowStart);
    await limits().release(bucket, first.windowStart);
    expect((await limits().peek(bucket, WINDOW, T0)).count).toBe(0);
    await limits().hit(bucket, WINDOW, T0 + WINDOW);
    await limits().release(bucket, first.windowStart);
    expect((await limits().peek(bucket, WINDOW, T0 + WINDOW)).count).toBe(1);
  });

  it('concurrent hits are all counted (one statement each, no lost update)', async () => {
    const bucket = randomKey('bucket');
    const counts = await Promise.all(Array.from({ length: 20 }, () => limits().hit(bucket, WINDOW, T0)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('prune deletes buckets whose window started before the cut-off, and only those', async () => {
    const old = randomKey('old');
    const recent = randomKey('recent');
    await limits().hit(old, WINDOW, T0);
    await limits().hit(recent, WINDOW, T0 + 5000);
    expect(await limits().prune(T0 + 1)).toBeGreaterThanOrEqual(1);
    expect((await limits().peek(old, WINDOW, T0)).count).toBe(0);
    expect((await limits().peek(recent, WINDOW, T0 + 5000)).count).toBe(1);
  });
});
