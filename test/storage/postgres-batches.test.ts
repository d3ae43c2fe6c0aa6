// @module-tag pooled
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BusinessDataStore } from '../../src/storage/business-data.store.js';
import { BATCHED_CLIENT_CREATE, BATCHED_CLIENT_READ, PostgresClientBatches } from '../../src/storage/client-batches.js';
import { openPostgres } from '../../src/storage/db.js';
import { directWrites } from '../../src/storage/group-commit.js';
import type { Database } from '../../src/storage/schema.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { genericPlan } from '../helpers/plans.js';
import { availableStores, directUrlOf, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

const stores = await availableStores();

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

describe.runIf(stores.includes('postgres'))(
  'PostgreSQL: client reads and creates that arrive together share a statement',
  () => {
    let database: PrivateDatabase;
    let store: Store;
    /** A connection of the test's own, for what the store does not offer (EXPLAIN, a failing query). */
    let db: Kysely<Database>;

    beforeAll(async () => {
      // A database of its own: a fresh schema with no statistics, the state in which a prepared plan is
      // most tempted to scan.
      database = await privatePostgresDatabase('crmkit_batched_reads');
      store = openStore({
        databaseUrl: database.url,
        databaseDirectUrl: directUrlOf(database.url),
        dataDir: '',
        pgPoolSize: 5,
      });
      await store.migrate();
      db = openPostgres(database.sessionUrl, 1).db;
      for (const urlKey of ['shop-a', 'shop-b']) await store.accounts.createBusiness(business(urlKey));
      for (let i = 0; i < 30; i++)
        await store.data.insertClient('shop-a', `a-${i}`, 'API', { name: `A ${i}` }, 1000 + i);
      await store.data.insertClient('shop-b', 'b-0', 'API', { name: 'B 0' }, 2000);
      await store.data.addToBalance('shop-a', 'a-1', 'invoices', 125_000n);
      await store.data.addToBalance('shop-a', 'a-1', 'payments', 22_500n);
    });

    afterAll(async () => {
      await db?.destroy();
      await store?.close();
      await database?.drop();
    });

    it('each read gets its own answer: balances, other tenants, missing keys and repeats', async () => {
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
      const found = await Promise.all(asked.map(([urlKey, clientId]) => store.data.findClient(urlKey, clientId)));
      expect(found.map((c) => c?.clientId ?? null)).toEqual([
        'a-0',
        'a-1',
        null,
        null,
        'b-0',
        null,
        null,
        'a-1',
        'a-29',
      ]);
      expect(found[1]!.balance).toEqual({ invoices: 12.5, payments: 2.25 });
      expect(found[0]).toEqual({
        clientId: 'a-0',
        status: 'active',
        source: 'API',
        data: { name: 'A 0' },
        balance: {},
        createdAt: 1000,
        updatedAt: 1000,
      });
      expect(found[4]!.data).toEqual({ name: 'B 0' });
    });

    it('fifty concurrent reads are one query, not fifty', async () => {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const found = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.data.findClient('shop-a', `a-${i % 30}`)),
        );
        expect(found.every((c, i) => c?.clientId === `a-${i % 30}`)).toBe(true);
        const reads = query.mock.calls.filter(([text]) => JSON.stringify(text).includes('unnest'));
        expect(reads).toHaveLength(1);
      } finally {
        query.mockRestore();
      }
    });

    /** The test's connection, except that a query for which `fails` says so is rejected. */
    function failingWhere(fails: (query: CompiledQuery) => boolean): Kysely<Database> {
      return {
        executeQuery: (query: CompiledQuery) =>
          fails(query) ? Promise.reject(new Error('statement failed')) : db.executeQuery(query),
      } as unknown as Kysely<Database>;
    }

    it('the batched and the single read look each key up by index, even on tables with no statistics', async () => {
      const single = (
        new BusinessDataStore(db, directWrites(db), 'batched-statement') as unknown as {
          findClientQuery: CompiledQuery;
        }
      ).findClientQuery.sql;
      for (const plan of [
        await genericPlan(db, BATCHED_CLIENT_READ, 'text[], text[]', "'{shop-a}', '{a-0}'"),
        await genericPlan(db, single, 'text, text', "'shop-a', 'a-0'"),
      ]) {
        expect(plan).toMatch(
          /Index Scan using clients_business_client_id on clients( c)? .*\n\s+Index Cond: \(\(business_pk = [^)]+\) AND \(client_id = /,
        );
        expect(plan).not.toMatch(/Seq Scan on (clients|businesses|client_balances)|Hash/);
      }
    });

    it('a failed batch fails each of its reads, and the next batch is served', async () => {
      let failNext = true;
      const flaky = failingWhere(() => {
        const fail = failNext;
        failNext = false;
        return fail;
      });
      const batches = new PostgresClientBatches(flaky, () => Promise.reject(new Error('not used')));
      const failed = await Promise.allSettled([batches.read('shop-a', 'a-0'), batches.read('shop-a', 'a-1')]);
      expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect((await batches.read('shop-a', 'a-2'))?.clientId).toBe('a-2');
    });

    it('creates that arrive together are one statement, and each gets the outcome it would alone', async () => {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const creates: [string, string, unknown][] = [
          ['shop-a', 'new-1', { n: 1 }],
          ['shop-b', 'new-1', { n: 2 }],
          ['shop-a', 'a-5', { n: 3 }],
          ['no-such-shop', 'new-2', { n: 4 }],
          ['shop-a', 'twice', { n: 5 }],
          ['shop-a', 'twice', { n: 6 }],
        ];
        const outcomes = await Promise.all(
          creates.map(([urlKey, clientId, data]) => store.data.insertClient(urlKey, clientId, 'API', data, 5000)),
        );
        expect(outcomes.map((o) => o.outcome)).toEqual([
          'inserted',
          'inserted',
          'exists',
          'no-business',
          'inserted',
          'exists',
        ]);
        expect(outcomes.map((o) => (o.outcome === 'no-business' ? null : o.client.data))).toEqual([
          { n: 1 },
          { n: 2 },
          { name: 'A 5' },
          null,
          { n: 5 },
          { n: 5 },
        ]);
        expect(query.mock.calls.filter(([text]) => JSON.stringify(text).includes('insert into clients'))).toHaveLength(
          1,
        );
      } finally {
        query.mockRestore();
      }
      expect((await store.data.findClient('shop-b', 'new-1'))?.data).toEqual({ n: 2 });
      expect((await store.data.findClient('shop-a', 'twice'))?.data).toEqual({ n: 5 });
      expect(await store.data.findClient('no-such-shop', 'new-2')).toBeUndefined();
    });

    it('a create reads and inserts in that one statement: no read of its own before it', async () => {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const outcomes = await Promise.all([
          store.data.insertClient('shop-a', 'one-trip-1', 'API', { n: 1 }, 5100),
          store.data.insertClient('shop-a', 'a-6', 'API', { n: 2 }, 5100),
        ]);
        expect(outcomes.map((o) => o.outcome)).toEqual(['inserted', 'exists']);
        expect(query.mock.calls.filter(([text]) => JSON.stringify(text).includes('unnest'))).toHaveLength(1);
      } finally {
        query.mockRestore();
      }
    });

    it('fifty retries of one key at once are one statement, and each gets a client of its own', async () => {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () => store.data.insertClient('shop-a', 'a-8', 'API', { n: 8 }, 5200)),
        );
        expect(
          outcomes.every((o) => o.outcome === 'exists' && (o.client.data as { name: string }).name === 'A 8'),
        ).toBe(true);
        expect(new Set(outcomes.map((o) => o.outcome === 'exists' && o.client)).size).toBe(50);
        expect(query.mock.calls.filter(([text]) => JSON.stringify(text).includes('unnest'))).toHaveLength(1);
      } finally {
        query.mockRestore();
      }
    });

    it('retries of stored keys write nothing: no sequence value burnt, balances come back', async () => {
      const lastId = async () =>
        Number((await sql<{ v: string | null }>`select last_value as v from clients_id_seq`.execute(db)).rows[0]!.v);
      const before = await lastId();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.data.insertClient('shop-a', `a-${i}`, 'API', { other: true }, 9000)),
      );
      expect(
        outcomes.every(
          (o, i) =>
            o.outcome === 'exists' &&
            o.client.clientId === `a-${i}` &&
            (o.client.data as { name: string }).name === `A ${i}`,
        ),
      ).toBe(true);
      expect(outcomes[1]!.outcome === 'exists' && outcomes[1]!.client.balance).toEqual({
        invoices: 12.5,
        payments: 2.25,
      });
      expect(await lastId()).toBe(before);
    });

    it('a key committed by someone else while the statement waits is answered with their client', async () => {
      const other = new pg.Client({ connectionString: database.sessionUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`insert into clients (business_pk, client_id, status, source, data, created_at, updated_at)
        select id, 'raced', 'active', 'API', '{"theirs":true}', 1, 1 from businesses where url_key = 'shop-a'`);
        const mine = store.data.insertClient('shop-a', 'raced', 'API', { mine: true }, 9100);
        // Our statement has its snapshot and waits on their row's lock: commit only then.
        for (let waiting = false; !waiting; ) {
          await new Promise((r) => setTimeout(r, 20));
          const { rows } = await other.query(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          waiting = rows[0].n > 0;
        }
        await other.query('commit');
        const outcome = await mine;
        expect(outcome.outcome).toBe('exists');
        expect(outcome.outcome === 'exists' && outcome.client.data).toEqual({ theirs: true });
      } finally {
        await other.end();
      }
    });

    // The documents travel as one JSON array of strings (jsonTexts): whatever a JSON string can hold
    // arrives as it was sent, in its own create, with its own event.
    it('fifty creates in one statement keep each document and event payload exactly, whatever it holds', async () => {
      const awkward = [
        '"quoted" \\ back\\slash',
        'line\nbreak\ttab\r',
        '{"looks":"like json"}',
        'ünïcødé ✓ 名前 🙂',
        '',
        ' ',
        'NULL',
        '\\"',
        '[1,2]',
      ];
      const endpointId = `ep_${Date.now()}`;
      await store.webhooks.create('shop-b', {
        id: endpointId,
        url: 'https://hooks.example.com/',
        description: null,
        eventTypes: ['client.created'],
        enabled: true,
        disabledReason: null,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        previousSecret: null,
        previousSecretUntil: null,
        createdAt: 1,
        updatedAt: 1,
      });
      const [endpoint] = (await store.webhooks.subscriptions('shop-b')).endpoints;
      const query = vi.spyOn(pg.Client.prototype, 'query');
      let outcomes: Awaited<ReturnType<typeof store.data.insertClient>>[];
      try {
        outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, i) => {
            const text = awkward[i % awkward.length]!;
            const payload = JSON.stringify({ type: 'client.created', data: { name: text, n: i } });
            return store.data.insertClient('shop-b', `awkward-${i}`, 'API', { name: text, n: i }, 7000, [
              {
                endpointPk: endpoint!.pk,
                messageId: `msg_awkward_${i}`,
                eventType: 'client.created',
                resourceKey: `client:awkward-${i}`,
                payload,
                createdAt: 7000,
              },
            ]);
          }),
        );
        expect(
          query.mock.calls.filter(([text]) => JSON.stringify(text).includes('insert into webhook_outbox')),
        ).toHaveLength(1);
      } finally {
        query.mockRestore();
      }
      expect(outcomes.every((o) => o.outcome === 'inserted')).toBe(true);
      for (let i = 0; i < 50; i++) {
        const text = awkward[i % awkward.length]!;
        expect((await store.data.findClient('shop-b', `awkward-${i}`))!.data).toEqual({ name: text, n: i });
        const {
          rows: [row],
        } = await sql<{
          payload: string;
        }>`select payload from webhook_outbox where message_id = ${`msg_awkward_${i}`}`.execute(db);
        expect(JSON.parse(row!.payload)).toEqual({ type: 'client.created', data: { name: text, n: i } });
      }
    });

    it('the batched create looks each key up by index, even on tables with no statistics', async () => {
      const plan = await genericPlan(
        db,
        BATCHED_CLIENT_CREATE,
        'text[], text[], text[], json, int8[]',
        "'{shop-a}', '{a-0}', '{API}', '[\"{}\"]', '{1}'",
      );
      expect(plan).toMatch(
        /Index Scan using clients_business_client_id on clients c .*\n\s+Index Cond: \(\(business_pk = [^)]+\) AND \(client_id = /,
      );
      expect(plan).not.toMatch(/Seq Scan on (clients|client_balances)/);
    });

    it('batches in flight together over the same keys, met in opposite orders, insert each key once', async () => {
      const keys = Array.from({ length: 100 }, (_, i) => `race-${i}`);
      // Two batches of 200 (the batch size): the first meets the keys in one order, the second in the other.
      const order = [...keys, ...keys, ...keys.slice().reverse(), ...keys.slice().reverse()];
      const outcomes = await Promise.all(
        order.map((clientId) => store.data.insertClient('shop-a', clientId, 'API', { clientId }, 6000)),
      );
      expect(outcomes.filter((o) => o.outcome === 'inserted')).toHaveLength(100);
      expect(outcomes.filter((o) => o.outcome === 'exists')).toHaveLength(300);
      expect(
        outcomes.every(
          (o) => o.outcome !== 'no-business' && (o.client.data as { clientId: string }).clientId === o.client.clientId,
        ),
      ).toBe(true);
    });

    it('when a batched create statement fails, each create is made on its own', async () => {
      const flaky = failingWhere((query) => query.sql.includes('insert into clients'));
      const alone = new BusinessDataStore(db, directWrites(db), 'batched-statement');
      const batches = new PostgresClientBatches(flaky, (c) =>
        alone.insertClient(c.urlKey, c.clientId, c.source, c.data, c.now),
      );
      const outcomes = await Promise.all([
        batches.create({ urlKey: 'shop-a', clientId: 'alone-1', source: 'API', data: { n: 1 }, now: 7000 }),
        batches.create({ urlKey: 'shop-a', clientId: 'a-7', source: 'API', data: { n: 2 }, now: 7000 }),
      ]);
      expect(outcomes.map((o) => o.outcome)).toEqual(['inserted', 'exists']);
      expect((await store.data.findClient('shop-a', 'alone-1'))?.data).toEqual({ n: 1 });
    });
  },
);
