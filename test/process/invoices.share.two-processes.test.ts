// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, seenBy, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';

const stores = await availableStores();

/**
 * invoices-interface 8: after a revocation through A, the old share link is 404 at once on A and within
 * 1 s on B, and the new one opens on both. The servers run with a 60 s cache TTL, so a token cached by B
 * would outlive the limit: the test fails if anyone ever caches share lookups without a push.
 */
describe.runIf(stores.includes('postgres'))('share-link revocation across two server processes', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let operator = '';
  let urlKey = '';
  let token = '';

  const admin = (method: string, path: string, body?: unknown) =>
    http(a.url, method, `/admin/v1${path}`, { token: operator, ...(body !== undefined && { body }) });
  const statusOf = async (server: ServerProcess, path: string) => (await fetch(`${server.url}${path}`)).status;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_FAILURE_LIMIT: '1000',
      CACHE_TTL_MS: '60000',
      PUBLIC_URL: 'https://billing.example.test',
    };
    // Under a loaded machine a start through tsx can take a while.
    [a, b] = await Promise.all([spawnServer(env, { timeoutMs: 80_000 }), spawnServer(env, { timeoutMs: 80_000 })]);
    operator = (await http(a.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
      .accessToken;
    urlKey = randomKey('share');
    expect((await admin('POST', '/businesses', { name: urlKey, country: 'IN', urlKey })).status).toBe(201);
    const app = (await admin('POST', '/apps', { name: 'share' })).body.data;
    expect((await admin('PUT', `/apps/${app.appId}/businesses/${urlKey}`)).status).toBe(200);
    const settings = { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] };
    expect((await admin('PUT', `/businesses/${urlKey}/invoice-settings`, settings)).status).toBe(200);
    token = (
      await http(b.url, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
  }, 150_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('the old link is 404 on A at once and on B within 1 s; the new one opens on both', async () => {
    const created = await http(b.url, 'POST', `/api/v1/businesses/${urlKey}/invoices`, {
      token,
      body: {
        billedTo: { name: 'Asha Traders', country: 'IN', gstState: '29' },
        items: [{ name: 'one', rate: 100, quantity: 2, gstRate: 18 }],
      },
    });
    expect(created.status).toBe(201);
    const pathOf = (link: string) => new URL(link).pathname;
    const old = pathOf(created.body.share.link);
    expect([await statusOf(a, old), await statusOf(b, old)]).toEqual([200, 200]);
    const revoked = await admin('POST', `/businesses/${urlKey}/invoices/${created.body._id}/share-link/revoke`);
    expect(revoked.status).toBe(200);
    const delay = await seenBy(a, b, async (server) => (await statusOf(server, old)) === 404);
    expect(delay).toBeLessThan(1000);
    const current = pathOf(revoked.body.data.share.link);
    expect([await statusOf(a, current), await statusOf(b, current)]).toEqual([200, 200]);
  });
});
