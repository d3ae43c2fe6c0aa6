// @module-tag pooled
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/storage/store.js';
import { call } from '../helpers/app.js';
import { appWithThings, countDocuments } from '../helpers/idempotency-route.js';
import { availableStores, configFor, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';
import { appSecretToken, createApp, operatorToken, randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

const stores = await availableStores();
const HOUR = 3_600_000;

/** invoices-interface 4.2, through HTTP on a route of the tests' own (test/helpers/idempotency-route.ts), on both stores. */
describe.each(stores)('4.2 Idempotency-Key [%s]', (storeName) => {
  const clock = { at: Date.now(), now: () => clock.at };
  let app: FastifyInstance;
  let store: Store;
  let t: Tenant;
  let own: PrivateDatabase | undefined;

  beforeAll(async () => {
    // A database of its own on PostgreSQL: this suite's clock runs a day ahead, and a claim prunes every
    // business's keys older than the retention, so on a shared database it would prune other suites' keys.
    if (storeName === 'postgres') own = await privatePostgresDatabase('crmkit_idem');
    ({ app, store } = await appWithThings(configFor(storeName, own && { databaseUrl: own.url }), clock));
    await app.ready();
    t = await seedTenant(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await own?.drop();
  });

  const path = (thingId: string, tenant = t, prefix = '/api/v1') =>
    `${prefix}/businesses/${tenant.urlKey}/idem-things/${thingId}/documents`;

  async function post(
    thingId: string,
    key: string | string[] | undefined,
    body: unknown,
    options: { tenant?: Tenant; token?: string; prefix?: string; rawBody?: string } = {},
  ) {
    const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
    if (key !== undefined) headers['idempotency-key'] = key;
    const response = await app.inject({
      method: 'POST',
      url: path(thingId, options.tenant, options.prefix),
      headers: { ...headers, authorization: `Bearer ${options.token ?? (options.tenant ?? t).token}` },
      payload: options.rawBody ?? JSON.stringify(body),
    });
    return {
      status: response.statusCode,
      text: response.body,
      body: JSON.parse(response.body),
      headers: response.headers,
    };
  }

  const documents = (thingId: string, tenant = t) => countDocuments(store, tenant.urlKey, thingId);

  describe('rule 1: the header', () => {
    it.each([
      ['empty', ''],
      ['empty quotes', '""'],
      ['256 characters', 'k'.repeat(256)],
      ['a non-ASCII character', 'clé-1'],
      ['a tab inside', 'a\tb'],
    ])('%s: 400 INVALID_IDEMPOTENCY_KEY, before the body is read', async (_label, key) => {
      const response = await post(randomKey('thing'), key, { nothing: true });
      expect(response.status).toBe(400);
      expect(response.body.data.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    });

    it('the header repeated: 400 INVALID_IDEMPOTENCY_KEY, even with equal values', async () => {
      const thingId = randomKey('thing');
      const response = await post(thingId, ['k-1', 'k-1'], { name: 'A' });
      expect(response.status).toBe(400);
      expect(response.body.data.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
      expect(await documents(thingId)).toBe(0);
    });

    it('255 printable characters, spaces and commas included, are a key; one pair of quotes is removed', async () => {
      const thingId = randomKey('thing');
      const key = `${'k, '.repeat(84)}abc`;
      expect(key).toHaveLength(255);
      const first = await post(thingId, key, { name: 'A' });
      expect(first.status).toBe(201);
      const quoted = await post(thingId, `"${key}"`, { name: 'A' });
      expect(quoted.status).toBe(201);
      expect(quoted.headers['idempotent-replayed']).toBe('true');
      expect(quoted.text).toBe(first.text);
    });

    it('scope: the same key from another app of the business, or for another business, is another key', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      expect((await post(thingId, key, { name: 'A' })).status).toBe(201);
      const operator = await operatorToken(app);
      const other = await createApp(app, operator);
      expect(
        (await call(app, 'PUT', `/admin/v1/apps/${other.appId}/businesses/${t.urlKey}`, { token: operator })).status,
      ).toBe(200);
      const otherToken = await appSecretToken(app, other.appId, other.appSecret);
      const byOtherApp = await post(thingId, key, { name: 'A' }, { token: otherToken });
      expect(byOtherApp.status).toBe(201);
      expect(byOtherApp.headers['idempotent-replayed']).toBeUndefined();
      const t2 = await seedTenant(app);
      expect(
        (await call(app, 'PUT', `/admin/v1/apps/${t.appId}/businesses/${t2.urlKey}`, { token: operator })).status,
      ).toBe(200);
      const otherBusiness = await post(thingId, key, { name: 'A' }, { tenant: t2, token: t.token });
      expect(otherBusiness.status).toBe(201);
      expect(otherBusiness.headers['idempotent-replayed']).toBeUndefined();
      expect(await documents(thingId)).toBe(2);
      expect(await documents(thingId, t2)).toBe(1);
    });

    it("scope: an operator's key is the operator's: the same key from an app of the business is another key", async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const operator = await operatorToken(app);
      const byOperator = await post(thingId, key, { name: 'A' }, { token: operator, prefix: '/admin/v1' });
      expect(byOperator.status).toBe(201);
      const again = await post(thingId, key, { name: 'A' }, { token: operator, prefix: '/admin/v1' });
      expect([again.status, again.headers['idempotent-replayed'], again.text]).toEqual([201, 'true', byOperator.text]);
      const byApp = await post(thingId, key, { name: 'A' });
      expect([byApp.status, byApp.headers['idempotent-replayed']]).toEqual([201, undefined]);
      expect(await documents(thingId)).toBe(2);
    });

    it('without the header, every request runs', async () => {
      const thingId = randomKey('thing');
      expect((await post(thingId, undefined, { name: 'A' })).status).toBe(201);
      expect((await post(thingId, undefined, { name: 'A' })).status).toBe(201);
      expect(await documents(thingId)).toBe(2);
    });
  });

  describe('rule 2: the fingerprint', () => {
    it('member order, whitespace and number spelling (18, 18.0, 1.8e1) do not matter; the alias is the same route', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const first = await post(thingId, key, undefined, { rawBody: '{"name":"A","extra":{"q":18,"list":[1,2]}}' });
      expect(first.status).toBe(201);
      for (const rawBody of [
        '{ "extra" : { "list" : [ 1 , 2.0 ], "q" : 18.0 } ,\n "name" : "A" }',
        '{"extra":{"q":1.8e1,"list":[1e0,2]},"name":"A"}',
      ]) {
        const retry = await post(thingId, key, undefined, { rawBody });
        expect(retry.status, rawBody).toBe(201);
        expect(retry.text).toBe(first.text);
      }
      const alias = await post(thingId, key, undefined, {
        rawBody: '{"name":"A","extra":{"q":18,"list":[1,2]}}',
        prefix: '',
      });
      expect(alias.status).toBe(201);
      expect(alias.headers['idempotent-replayed']).toBe('true');
      expect(await documents(thingId)).toBe(1);
    });

    it('another path value, an array in another order, or another number is another request: 409', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      expect((await post(thingId, key, { name: 'A', list: [1, 2], n: 18 })).status).toBe(201);
      for (const [other, body] of [
        [randomKey('thing'), { name: 'A', list: [1, 2], n: 18 }],
        [thingId, { name: 'A', list: [2, 1], n: 18 }],
        [thingId, { name: 'A', list: [1, 2], n: 18.5 }],
      ] as const) {
        const retry = await post(other, key, body);
        expect(retry.status).toBe(409);
        expect(retry.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
      }
    });
  });

  describe('rule 3: replay', () => {
    it('the same status and body, with Idempotent-Replayed: true; the handler does not run again (rule 6)', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const first = await post(thingId, key, { name: 'A' });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const retry = await post(thingId, key, { name: 'A' });
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.headers['content-type']).toMatch(/^application\/json/);
      expect(retry.text).toBe(first.text);
      // A member decided inside the write's transaction (the route's `number`) is kept with it.
      expect(retry.body.number).toBe(1);
      expect(await documents(thingId)).toBe(1);
    });

    it('before the body is validated: a retry the route would now refuse still gets the kept answer', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const body = { name: 'A', notAfter: clock.at + 1000 };
      const first = await post(thingId, key, body);
      expect(first.status).toBe(201);
      clock.at += 2000;
      expect((await post(thingId, randomKey('key'), body)).status).toBe(400);
      const retry = await post(thingId, key, body);
      expect([retry.status, retry.headers['idempotent-replayed'], retry.text]).toEqual([201, 'true', first.text]);
    });

    it('a success that wrote nothing is kept too (the mechanism keeps it after the handler)', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const first = await post(thingId, key, { name: 'A', readOnly: true });
      expect(first.status).toBe(200);
      const retry = await post(thingId, key, { name: 'A', readOnly: true });
      expect([retry.status, retry.headers['idempotent-replayed'], retry.text]).toEqual([200, 'true', first.text]);
    });

    it('only 2xx is kept: after a 400 or a refusal inside the transaction the key is free, and nothing was written', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const invalid = await post(thingId, key, { name: '' });
      expect(invalid.status).toBe(400);
      const refused = await post(thingId, key, { name: 'A', refuse: true });
      expect(refused.status).toBe(409);
      expect(await documents(thingId)).toBe(0);
      const again = await post(thingId, key, { name: 'A', refuse: true });
      expect(again.status).toBe(409);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      const created = await post(thingId, key, { name: 'B' });
      expect(created.status).toBe(201);
      expect(created.headers['idempotent-replayed']).toBeUndefined();
      expect(await documents(thingId)).toBe(1);
    });
  });

  describe('rule 4: same key, another request', () => {
    it('validation first (400 as the route gives it), then 409 IDEMPOTENCY_CONFLICT; nothing is written', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      expect((await post(thingId, key, { name: 'A' })).status).toBe(201);
      const invalid = await post(thingId, key, { name: 7 });
      expect(invalid.status).toBe(400);
      expect(invalid.body.data.error.code).toBe('INVALID_FIELD_VALUE');
      const other = await post(thingId, key, { name: 'B' });
      expect(other.status).toBe(409);
      expect(other.body.name).toBe('Conflict');
      expect(other.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
      const readOnly = await post(thingId, key, { name: 'B', readOnly: true });
      expect(readOnly.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
      expect(await documents(thingId)).toBe(1);
    });
  });

  describe('rule 5: in progress, leases, races', () => {
    it('the same request while the first runs: 409 IDEMPOTENCY_IN_PROGRESS with Retry-After: 1; another request: 409 IDEMPOTENCY_CONFLICT', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const first = post(thingId, key, { name: 'A', holdMs: 400 });
      await new Promise((r) => setTimeout(r, 100));
      const second = await post(thingId, key, { name: 'A', holdMs: 400 });
      expect(second.status).toBe(409);
      expect(second.body.data.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(second.headers['retry-after']).toBe('1');
      const other = await post(thingId, key, { name: 'B' });
      expect(other.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
      expect((await first).status).toBe(201);
      expect(await documents(thingId)).toBe(1);
    });

    it('a claim whose lease lapsed (60 s) is taken over; the first request then writes nothing: one document', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const stalled = post(thingId, key, { name: 'A', holdMs: 500 });
      await new Promise((r) => setTimeout(r, 100));
      clock.at += 61_000;
      const takeover = await post(thingId, key, { name: 'A' });
      expect(takeover.status).toBe(201);
      const late = await stalled;
      expect(late.status).toBe(409);
      expect(late.body.data.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(await documents(thingId)).toBe(1);
      const retry = await post(thingId, key, { name: 'A' });
      expect(retry.text).toBe(takeover.text);
    });

    it('20 concurrent requests with one key: one document; one original answer, the rest replays or IN_PROGRESS', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(thingId, key, { name: 'A', holdMs: 30 })),
      );
      const originals = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      for (const a of answers) {
        if (a === originals[0]) continue;
        if (a.status === 201) expect([a.headers['idempotent-replayed'], a.text]).toEqual(['true', originals[0]!.text]);
        else expect([a.status, a.body.data.error.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
      }
      expect(await documents(thingId)).toBe(1);
    });
  });

  describe('kept 24 hours from first use, then pruned', () => {
    it('an expired key counts as new, and expired rows are deleted', async () => {
      const thingId = randomKey('thing');
      const key = randomKey('key');
      expect((await post(thingId, key, { name: 'A' })).status).toBe(201);
      const untouched = randomKey('key');
      expect((await post(thingId, untouched, { name: 'A' })).status).toBe(201);
      // Tokens last an hour on this clock too: a fresh one after each jump.
      clock.at += 23 * HOUR;
      const later = await appSecretToken(app, t.appId, t.appSecret);
      expect((await post(thingId, key, { name: 'B' }, { token: later })).status).toBe(409);
      clock.at += HOUR + 1000;
      const fresh = await appSecretToken(app, t.appId, t.appSecret);
      const again = await post(thingId, key, { name: 'B' }, { token: fresh });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await documents(thingId)).toBe(3);
      // The claim above pruned every key first used more than 24 hours before it: `untouched` too, which no request named again.
      const rows = async (k: string) =>
        (
          await sql<{ n: number }>`select count(*) as n from idempotency_keys
        where business_pk = (select id from businesses where url_key = ${t.urlKey}) and key = ${k}`.execute(
            store.leads.db,
          )
        ).rows[0]!.n;
      await expect.poll(async () => Number(await rows(untouched)), { timeout: 5000 }).toBe(0);
      expect(Number(await rows(key))).toBe(1);
      t.token = fresh;
    });
  });
});
