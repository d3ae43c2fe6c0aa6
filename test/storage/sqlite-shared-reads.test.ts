import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AccountsStore } from '../../src/storage/accounts.store.js';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { openSqlite } from '../../src/storage/db.js';
import { GroupCommit } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import type { Database } from '../../src/storage/schema.js';
import { tempDataDir } from '../helpers/stores.js';

const business = (urlKey: string) => ({ urlKey, name: urlKey, country: 'IN', currency: 'INR', customFieldsEnabled: false, timeZone: null, createdAt: 1, updatedAt: 1 });

let db: Kysely<Database>;
let data: BusinessDataStore;
beforeAll(async () => {
  db = openSqlite(tempDataDir()).db;
  await migrateToLatest(db as never, 'sqlite');
  data = new BusinessDataStore(db, new GroupCommit(db), 'shared-transaction');
  for (const urlKey of ['shop-a', 'shop-b']) await new AccountsStore(db).createBusiness(business(urlKey));
  for (let i = 0; i < 30; i++) await data.insertClient('shop-a', `a-${i}`, 'API', { name: `A ${i}` }, 1000 + i);
  await data.insertClient('shop-b', 'b-0', 'API', { name: 'B 0' }, 2000);
  await data.addToBalance('shop-a', 'a-1', 'invoice', 12.5);
});
afterAll(async () => db?.destroy());

/** The transactions begun while `run` runs, counted at the embedded store's one connection. */
async function transactionsBegun(run: () => Promise<unknown>): Promise<number> {
  const spy = await db.getExecutor().provideConnection(async (connection) => vi.spyOn(connection, 'executeQuery'));
  try {
    await run();
    return spy.mock.calls.filter(([query]) => (query as CompiledQuery).sql === 'begin').length;
  } finally {
    spy.mockRestore();
  }
}

it('client reads that arrive together share one read transaction, and each gets its own answer', async () => {
  const asked: [string, string][] = [
    ['shop-a', 'a-0'], ['shop-a', 'a-1'], ['shop-b', 'a-2'], ['shop-a', 'b-0'], ['shop-b', 'b-0'],
    ['shop-a', 'missing'], ['no-such-shop', 'a-3'], ['shop-a', 'a-1'], ['shop-a', 'a-29'],
  ];
  let found: Awaited<ReturnType<BusinessDataStore['findClient']>>[] = [];
  const begun = await transactionsBegun(async () => {
    found = await Promise.all(asked.map(([urlKey, clientId]) => data.findClient(urlKey, clientId)));
  });
  expect(begun).toBe(1);
  expect(found.map((c) => c?.clientId ?? null)).toEqual(['a-0', 'a-1', null, null, 'b-0', null, null, 'a-1', 'a-29']);
  expect(found[1]!.balance).toEqual({ invoice: 12.5 });
  expect(found[0]).toEqual({ clientId: 'a-0', status: 'active', source: 'API', data: { name: 'A 0' }, balance: {}, createdAt: 1000, updatedAt: 1000 });
});

it('reads and creates of the same keys, all at once, neither wait on each other for ever nor miss a committed create', async () => {
  const keys = Array.from({ length: 60 }, (_, i) => `mixed-${i}`);
  const creates = keys.map((clientId) => data.insertClient('shop-a', clientId, 'API', { name: clientId }, 3000));
  const reads = keys.map((clientId) => data.findClient('shop-a', clientId));
  const [created, read] = await Promise.all([Promise.all(creates), Promise.all(reads)]);
  expect(created.every((c) => c.outcome === 'inserted')).toBe(true);
  // A read asked together with a create sees it or not, but never a part of it.
  for (const [i, client] of read.entries()) if (client) expect(client.data).toEqual({ name: keys[i] });
  const after = await Promise.all(keys.map((clientId) => data.findClient('shop-a', clientId)));
  expect(after.map((c) => c?.clientId)).toEqual(keys);
});
