import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AccountsStore } from '../../src/storage/accounts.store.js';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { openSqlite } from '../../src/storage/db.js';
import { GroupCommit } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import type { Database } from '../../src/storage/schema.js';
import { SharedReadTransaction } from '../../src/storage/shared-reads.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createLead, seedLeadTenant } from '../helpers/leads.js';
import { tempDataDir } from '../helpers/stores.js';

const business = (urlKey: string) => ({
  urlKey,
  name: urlKey,
  country: 'IN',
  currency: 'INR',
  customFieldsEnabled: false,
  timeZone: null,
  createdAt: 1,
  updatedAt: 1,
});

let db: Kysely<Database>;
let data: BusinessDataStore;
beforeAll(async () => {
  db = openSqlite(tempDataDir()).db;
  await migrateToLatest(db as never, 'sqlite');
  data = new BusinessDataStore(db, new GroupCommit(db), new SharedReadTransaction(db));
  for (const urlKey of ['shop-a', 'shop-b']) await new AccountsStore(db).createBusiness(business(urlKey));
  for (let i = 0; i < 30; i++) await data.insertClient('shop-a', `a-${i}`, 'API', { name: `A ${i}` }, 1000 + i);
  await data.insertClient('shop-b', 'b-0', 'API', { name: 'B 0' }, 2000);
  await data.addToBalance('shop-a', 'a-1', 'invoice', 125_000n);
});
afterAll(async () => db?.destroy());

/** The statements run while `run` runs, by their first word, as the embedded store's one connection saw them. */
async function statementsRun(run: () => Promise<unknown>, on: Kysely<Database> = db): Promise<string[]> {
  const spy = await on.getExecutor().provideConnection(async (connection) => vi.spyOn(connection, 'executeQuery'));
  try {
    await run();
    return spy.mock.calls.map(([query]) => (query as CompiledQuery).sql.trim().split(/\s/)[0]!.toLowerCase());
  } finally {
    spy.mockRestore();
  }
}

/** One read transaction holding `reads` selects, and nothing else. */
const oneReadTransaction = (reads: number) => ['begin', ...Array<string>(reads).fill('select'), 'commit'];

it('client reads that arrive together share one read transaction, and each gets its own answer', async () => {
  const asked: [string, string][] = [
    ['shop-a', 'a-0'],
    ['shop-a', 'a-1'],
    ['shop-b', 'a-2'],
    ['shop-a', 'b-0'],
    ['shop-b', 'b-0'],
    ['shop-a', 'missing'],
    ['no-such-shop', 'a-3'],
    ['shop-a', 'a-1'],
    ['shop-a', 'a-29'],
  ];
  let found: Awaited<ReturnType<BusinessDataStore['findClient']>>[] = [];
  const statements = await statementsRun(async () => {
    found = await Promise.all(asked.map(([urlKey, clientId]) => data.findClient(urlKey, clientId)));
  });
  expect(statements).toEqual(oneReadTransaction(asked.length));
  expect(found.map((c) => c?.clientId ?? null)).toEqual(['a-0', 'a-1', null, null, 'b-0', null, null, 'a-1', 'a-29']);
  expect(found[1]!.balance).toEqual({ invoice: 12.5 });
  expect(found[0]).toEqual({
    clientId: 'a-0',
    status: 'active',
    source: 'API',
    data: { name: 'A 0' },
    balance: {},
    createdAt: 1000,
    updatedAt: 1000,
  });
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

it("lead reads, a lead create's read-first and client reads of one turn share one read transaction, through the store the server opens", async () => {
  const t: TestApp = await createTestApp('sqlite');
  try {
    const tenant = await seedLeadTenant(t);
    const other = await seedLeadTenant(t);
    const [first, second] = [await createLead(t, tenant), await createLead(t, tenant)];
    const foreign = await createLead(t, other);
    let answers: unknown[] = [];
    const statements = await statementsRun(async () => {
      answers = await Promise.all([
        t.store.leads.findLead(tenant.urlKey, first.leadId),
        t.store.leads.findLead(tenant.urlKey, second.leadId),
        t.store.leads.findLead(tenant.urlKey, foreign.leadId),
        t.store.leads.findLead(tenant.urlKey, 'ld_missing'),
        t.store.leads.findByExternalId(tenant.urlKey, second.externalId),
        t.store.leads.findByExternalId(other.urlKey, second.externalId),
        t.store.data.findClient(tenant.urlKey, first.customer.clientId),
      ]);
    }, t.store.leads.db);
    expect(statements).toEqual(oneReadTransaction(7));
    const [a, b, c, d, e, f, g] = answers as any[];
    expect([a?.leadId, b?.leadId, c, d]).toEqual([first.leadId, second.leadId, undefined, undefined]);
    expect(a.externalId).toBe(first.externalId);
    expect(e.lead.leadId).toBe(second.leadId);
    expect(e.createRequest).toMatchObject({ pipelineId: e.lead.pipelineId, stageId: e.lead.stageId });
    expect(f).toBeUndefined();
    expect(g.clientId).toBe(first.customer.clientId);
  } finally {
    await t.close();
  }
});
