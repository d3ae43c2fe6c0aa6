// @module-tag pooled
import { SignJWT, importPKCS8 } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, seenBy, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';

const stores = await availableStores();
const LIMIT_MS = 1000;

/**
 * docs/pipelines.md "Caching and freshness", for what the guard and the client rules cache: app attachment,
 * detachment, secret and key rotation, custom field definitions and the business record. A change
 * through A is seen by A at once and by B within 1 s. The servers run with a 60 s cache TTL, so only
 * the push (PostgreSQL NOTIFY) can make B see it in time.
 */
describe.runIf(stores.includes('postgres'))(
  'freshness: app and business changes through one process, seen by another',
  () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let operator = '';
    let urlKey = '';
    let app: { appId: string; appSecret: string; privateKeyPem: string; audience: string };
    let token = '';

    const selfSigned = async (privateKeyPem: string) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        appId: app.appId,
        iss: app.appId,
        aud: app.audience,
        sub: 'AppAuth',
        iat: now,
        exp: now + 600,
      })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(await importPKCS8(privateKeyPem, 'ES256'));
    };
    const statusOf = async (server: ServerProcess, bearer: string) =>
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines`, { token: bearer })).status;
    const admin = (method: string, path: string, body?: unknown) =>
      http(a.url, method, `/admin/v1${path}`, { token: operator, ...(body !== undefined && { body }) });

    /** After a change through A: A sees it at once, B within LIMIT_MS (polled); answers B's delay. */
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
      urlKey = randomKey('fresh');
      expect((await admin('POST', '/businesses', { name: urlKey, country: 'IN', urlKey })).status).toBe(201);
      app = (await admin('POST', '/apps', { name: 'freshness' })).body.data;
      expect((await admin('PUT', `/apps/${app.appId}/businesses/${urlKey}`)).status).toBe(200);
      token = (
        await http(b.url, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
        })
      ).body.accessToken;
    }, 90_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('detaching and attaching again: B answers 403, then 200, each within 1 s', async () => {
      expect([await statusOf(a, token), await statusOf(b, token)]).toEqual([200, 200]); // both caches warm
      expect((await admin('DELETE', `/apps/${app.appId}/businesses/${urlKey}`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 403);
      expect((await admin('PUT', `/apps/${app.appId}/businesses/${urlKey}`)).status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 200);
    });

    it('rotating the secret: B refuses the old issued token and the old secret within 1 s, and takes the new one', async () => {
      const signIn = (server: ServerProcess, appSecret: string) =>
        http(server.url, 'POST', '/authentication', { body: { strategy: 'app-secret', appId: app.appId, appSecret } });
      expect(await statusOf(b, token)).toBe(200);
      // B has now checked the old secret, so it holds the app and that secret in memory.
      expect((await signIn(b, app.appSecret)).status).toBe(200);
      const rotated = await admin('POST', `/apps/${app.appId}/rotate-secret`);
      expect(rotated.status).toBe(200);
      await seen(async (s) => (await statusOf(s, token)) === 401 && (await signIn(s, app.appSecret)).status === 401);
      token = (await signIn(b, rotated.body.data.appSecret)).body.accessToken;
      expect(await statusOf(a, token)).toBe(200);
    });

    it("rotating the key: B refuses the old key's token and accepts the new key's, within 1 s", async () => {
      const old = await selfSigned(app.privateKeyPem);
      expect(await statusOf(b, old)).toBe(200);
      const rotated = await admin('POST', `/apps/${app.appId}/rotate-key`);
      expect(rotated.status).toBe(200);
      const fresh = await selfSigned(rotated.body.data.privateKeyPem);
      await seen(async (s) => (await statusOf(s, old)) === 401 && (await statusOf(s, fresh)) === 200);
    });

    it('enabling custom fields and defining one: B accepts a client carrying it within 1 s', async () => {
      const create = (server: ServerProcess) =>
        http(server.url, 'POST', `/api/v1/businesses/${urlKey}/clients`, {
          token,
          body: { clientId: randomKey('cf'), name: 'Custom', customFields: { Tier: 'Gold' } },
        });
      expect((await create(b)).body.data.error.code).toBe('CUSTOM_FIELDS_NOT_ENABLED');
      expect((await admin('PATCH', `/businesses/${urlKey}`, { customFieldsEnabled: true })).status).toBe(200);
      await seen(async (s) => (await create(s)).body.data.error?.code === 'INVALID_CUSTOM_FIELD');
      expect(
        (
          await admin('PUT', `/businesses/${urlKey}/custom-fields`, {
            fields: [{ name: 'Tier', type: 'SELECT', options: ['Gold'] }],
          })
        ).status,
      ).toBe(200);
      await seen(async (s) => (await create(s)).status === 201);
    });
  },
);
