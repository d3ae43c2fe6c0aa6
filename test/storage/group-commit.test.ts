// @module-tag smoke
import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqlite } from '../../src/storage/db.js';
import { GroupCommit } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import type { Database as Schema } from '../../src/storage/schema.js';
import { createTestApp } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';
import { tempDataDir } from '../helpers/stores.js';

let db: Kysely<Schema>;
beforeEach(async () => {
  db = openSqlite(tempDataDir()).db;
  await migrateToLatest(db as never, 'sqlite');
});
afterEach(async () => db.destroy());

const insertOperator = (trx: Kysely<Schema>, email: string | null) =>
  trx
    .insertInto('operators')
    .values({ public_id: `op-${email}`, email: email as string, password_hash: 'x', created_at: Date.now() })
    .execute();

it('writes that arrive together share one transaction (one fsync), and each is answered', async () => {
  const writes = new GroupCommit(db);
  const transactions = new Set<unknown>();
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      writes.run(async (trx) => {
        transactions.add(trx);
        await insertOperator(trx, `op${i}@x.test`);
        return i;
      }),
    ),
  );
  expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i));
  expect(transactions.size).toBe(1);
  expect(await db.selectFrom('operators').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).toEqual({
    n: 50,
  });
});

it('a write that fails in a shared commit fails alone: the others are stored', async () => {
  const writes = new GroupCommit(db);
  const outcomes = await Promise.allSettled(
    ['a@x.test', null, 'b@x.test'].map((email) => writes.run((trx) => insertOperator(trx, email))),
  );
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  const stored = await db.selectFrom('operators').select('email').orderBy('email').execute();
  expect(stored.map((r) => r.email)).toEqual(['a@x.test', 'b@x.test']);
});

it('concurrent client creates on the embedded store: one row per clientId, committed before the answer', async () => {
  const testApp = await createTestApp('sqlite');
  try {
    const t = await seedTenant(testApp.app);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        testApp.store.data.insertClient(t.urlKey, `batch-${i % 80}`, 'API', { name: `Client ${i % 80}` }, Date.now()),
      ),
    );
    expect(results.filter((r) => r.outcome === 'inserted')).toHaveLength(80);
    expect(results.filter((r) => r.outcome === 'exists')).toHaveLength(20);
    // Another connection already sees every answered row: the answers came after the commit.
    const reader = new (sqliteDriver())(testApp.store.sqlitePath!, { readonly: true });
    try {
      const count = reader
        .prepare('select count(*) from clients c join businesses b on b.id = c.business_pk where b.url_key = ?')
        .pluck()
        .get(t.urlKey);
      expect(count).toBe(80);
    } finally {
      reader.close();
    }
  } finally {
    await testApp.close();
  }
});
