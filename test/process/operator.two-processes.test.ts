// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, seenBy, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';

const stores = await availableStores();
const LIMIT_MS = 1000;

/**
 * docs/pipelines.md "Caching and freshness" for the operator pages of issue 26: archiving a business or an
 * app, and a password change ending the operator's other sessions. A change through A is seen by A at
 * once and by B within 1 s; the servers run with a 60 s cache TTL, so only the push can do it.
 */
describe.runIf(stores.includes('postgres'))(
  'freshness: archive and password change through one process, seen by another',
  () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let operator = '';
    let urlKey = '';
    let token = '';
    let appId = '';

    const statusOf = async (server: ServerProcess, bearer: string) =>
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines`, { token: bearer })).status;
    const admin = (method: string, path: string, body?: unknown, bearer = operator) =>
      http(a.url, method, `/admin/v1${path}`, { token: bearer, ...(body !== undefined && { body }) });

    const seen = (probe: (server: ServerProcess) => Promise<boolean>) => seenBy(a, b, probe, LIMIT_MS);

    beforeAll(async () => {
      const env = {
        DATABASE_URL: POSTGRES_URL,
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        AUTH_FAILURE_LIMIT: '1000',
        CACHE_TTL_MS: '60000',
      };
      [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
      operator = (await http(a.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
        .accessToken;
      urlKey = randomKey('arch');
      expect((await admin('POST', '/businesses', { name: urlKey, country: 'IN', urlKey })).status).toBe(201);
      const app = (await admin('POST', '/apps', { name: 'archive freshness' })).body.data;
      appId = app.appId;
      expect((await admin('PUT', `/apps/${appId}/businesses/${urlKey}`)).status).toBe(200);
      token = (
        await http(b.url, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId, appSecret: app.appSecret },
        })
      ).body.accessToken;
    }, 90_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('archiving a business: B answers 403 within 1 s; restoring: 200 again', async () => {
      expect([await statusOf(a, token), await statusOf(b, token)]).toEqual([200, 200]);
      expect((await admin('POST', `/businesses/${urlKey}/archive`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 403);
      expect((await admin('POST', `/businesses/${urlKey}/restore`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 200);
    });

    it('archiving an app: B refuses its token within 1 s; restoring: accepted again', async () => {
      expect(await statusOf(b, token)).toBe(200);
      expect((await admin('POST', `/apps/${appId}/archive`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 401);
      expect((await admin('POST', `/apps/${appId}/restore`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 200);
    });

    it("a password change through A ends the operator's session on B within 1 s", async () => {
      const account = { email: `${randomKey('op')}@example.test`, password: 'first password 123' };
      expect((await admin('POST', '/operators', account)).status).toBe(201);
      const session = (await http(b.url, 'POST', '/authentication', { body: { strategy: 'local', ...account } })).body
        .accessToken;
      const other = (await http(a.url, 'POST', '/authentication', { body: { strategy: 'local', ...account } })).body
        .accessToken;
      const operatorsOn = async (s: ServerProcess) =>
        (await http(s.url, 'GET', '/admin/v1/operators', { token: session })).status;
      expect([await operatorsOn(a), await operatorsOn(b)]).toEqual([200, 200]);
      const changed = await admin(
        'POST',
        '/operators/me/password',
        { currentPassword: account.password, newPassword: 'second password 456' },
        other,
      );
      expect(changed.status).toBe(200);
      await seen(async (s) => (await operatorsOn(s)) === 401);
      expect((await http(b.url, 'GET', '/admin/v1/operators', { token: changed.body.data.accessToken })).status).toBe(
        200,
      );
    });
  },
);
