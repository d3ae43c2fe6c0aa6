// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';

const stores = await availableStores();

/** 4.4 under real concurrency: two server processes on one PostgreSQL database. */
describe.runIf(stores.includes('postgres'))('clients: concurrent creates across two processes on PostgreSQL', () => {
  let servers: ServerProcess[] = [];
  let urlKey = '';
  let token = '';

  beforeAll(async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_FAILURE_LIMIT: '1000',
    };
    servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    const [a] = servers;
    const login = await http(a!.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } });
    const operator = login.body.accessToken;
    urlKey = randomKey('conc');
    expect(
      (
        await http(a!.url, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: urlKey, country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const app = (await http(a!.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'concurrency' } })).body
      .data;
    expect(
      (await http(a!.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status,
    ).toBe(200);
    token = (
      await http(a!.url, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  const fire = (bodies: (i: number) => unknown, count = 200) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        http(servers[i % 2]!.url, 'POST', `/api/v1/businesses/${urlKey}/clients`, { token, body: bodies(i) }),
      ),
    );

  it('200 concurrent identical creates store exactly one client: all 201, exactly one without idempotent', async () => {
    const clientId = randomKey('same');
    const results = await fire(() => ({
      clientId,
      name: 'Concurrent Co',
      email: 'a@b.example',
      gstin: '27AAPFU0939F1ZV',
    }));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    expect(results.filter((r) => r.body.data.idempotent !== true)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.body.data.createdAt));
    expect(ids.size).toBe(1);
  }, 60_000);

  it("200 concurrent mixed creates: every 201 carries the winner's details, the others are 409", async () => {
    const clientId = randomKey('mixed');
    const results = await fire((i) => ({ clientId, name: `Variant ${i % 5}` }));
    const stored = await http(servers[0]!.url, 'GET', `/api/v1/businesses/${urlKey}/clients/${clientId}`, { token });
    expect(stored.status).toBe(200);
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) expect(r.body.data.name).toBe(stored.body.data.name);
      else expect(r.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
    }
    expect(results.filter((r) => r.status === 201 && r.body.data.idempotent !== true)).toHaveLength(1);
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
