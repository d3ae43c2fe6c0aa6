import { afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, CrmkitError, CrmkitNetworkError, type CreateClientOptions } from '../../client/src/index.js';
import { call, createTestApp, describeEachStore } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { startProxy, type Fault, type Proxy as FaultProxy } from '../helpers/proxy.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

// The client's retries and token handling, through a proxy that records every request and injects
// faults: connection resets, 503s, answers lost after the server acted, and a server that is down.

describeEachStore('TypeScript client: retries and tokens', (ctx) => {
  let baseUrl: string;
  let t: Tenant;
  const proxies: FaultProxy[] = [];
  beforeAll(async () => {
    baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    t = await seedTenant(ctx().app);
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  /** A proxy whose n-th request to a path containing `part` gets `faults[n]`, then 'pass'. */
  async function proxyWith(part: string, faults: Fault[]): Promise<FaultProxy> {
    let n = 0;
    const proxy = await startProxy(baseUrl, (request) =>
      request.path.includes(part) ? (faults[n++] ?? 'pass') : 'pass',
    );
    proxies.push(proxy);
    return proxy;
  }

  const options = (url: string, extra: Partial<CreateClientOptions> = {}): CreateClientOptions =>
    ({
      baseUrl: url,
      urlKey: t.urlKey,
      appId: t.appId,
      appSecret: t.appSecret,
      retryDelayMs: 5,
      ...extra,
    }) as CreateClientOptions;

  it('retries on 503 with backoff until the server answers', async () => {
    const proxy = await proxyWith('/clients', ['unavailable', 'unavailable']);
    const created = await createClient(options(proxy.url)).clients.create({
      clientId: randomKey('r'),
      name: 'After 503s',
    });
    expect(created.name).toBe('After 503s');
    expect(proxy.count('POST', '/clients')).toBe(3);
  });

  it('retries on a reset connection', async () => {
    const proxy = await proxyWith('/pipelines', ['reset']);
    await createClient(options(proxy.url)).pipelines.list();
    expect(proxy.count('GET', '/pipelines')).toBe(2);
  });

  it('clients.create is safe to retry: an answer lost after the server stored the client comes back as an identical retry', async () => {
    const proxy = await proxyWith('/clients', ['lose-answer']);
    const clientId = randomKey('lost');
    const created = await createClient(options(proxy.url)).clients.create({ clientId, name: 'Lost answer' });
    expect(created.idempotent).toBe(true);
    expect(proxy.count('POST', '/clients')).toBe(2);
    const stored = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, {
      token: t.token,
    });
    expect(stored.body.data.name).toBe('Lost answer');
  });

  it('never retries a 4xx: one request for a 400, a 404, a 409', async () => {
    const proxy = await proxyWith('/clients', []);
    const crm = createClient(options(proxy.url));
    const clientId = randomKey('once');
    await crm.clients.create({ clientId, name: 'Once' });
    const before = proxy.seen.length;
    // One after another: made together, a rejection could come before its expectation is attached.
    for (const attempt of [
      () => crm.clients.create({ clientId: randomKey('bad'), name: '' }),
      () => crm.clients.get(randomKey('missing')),
      () => crm.clients.create({ clientId, name: 'Other' }),
    ])
      await expect(attempt()).rejects.toBeInstanceOf(CrmkitError);
    expect(proxy.seen.length - before).toBe(3);
  });

  it('gives up after the configured attempts: a 5xx as CrmkitError, no answer as CrmkitNetworkError', async () => {
    const proxy = await proxyWith('/pipelines', ['unavailable', 'unavailable', 'unavailable']);
    const error = await createClient(options(proxy.url, { retries: 2 }))
      .pipelines.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmkitError);
    expect([(error as CrmkitError).status, (error as CrmkitError).code]).toEqual([503, null]);
    expect(proxy.count('GET', '/pipelines')).toBe(3);

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const down = await createClient(
      options(nowhere, {
        privateKeyPem: t.privateKeyPem,
        audience: t.audience,
        retries: 2,
      } as Partial<CreateClientOptions>),
    )
      .pipelines.list()
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(CrmkitNetworkError);
    expect((down as CrmkitNetworkError).attempts).toBe(3);
    expect((down as CrmkitNetworkError).name).toBe('CrmkitNetworkError');
  });

  it('a server that is down, then comes up, is reached by the retries', async () => {
    const port = await freePort();
    const crm = createClient(options(`http://127.0.0.1:${port}`, { retries: 10, retryDelayMs: 100 }));
    const pending = crm.pipelines.list();
    await new Promise((r) => setTimeout(r, 300));
    proxies.push(await startProxy(baseUrl, () => 'pass', { port }));
    expect((await pending).pipelines).toEqual([]);
  });

  it('concurrent calls share one token request', async () => {
    const proxy = await proxyWith('/authentication', []);
    const crm = createClient(options(proxy.url));
    await Promise.all(Array.from({ length: 6 }, () => crm.pipelines.list()));
    expect(proxy.count('POST', '/authentication')).toBe(1);
    expect(proxy.count('GET', '/pipelines')).toBe(6);
  });

  it('an issued token is renewed when less than a minute is left, not before', async () => {
    const proxy = await proxyWith('/authentication', []);
    let skew = 0;
    const crm = createClient(options(proxy.url, { now: () => Date.now() + skew }));
    await crm.pipelines.list();
    // 15 s either side of the minute: the token's `exp` is in whole seconds and real time passes between
    // its issue and these calls (61 s, one second of margin, failed once on a busy machine).
    skew = (60 * 60 - 75) * 1000; // 75 s left: kept
    await crm.pipelines.list();
    expect(proxy.count('POST', '/authentication')).toBe(1);
    skew = (60 * 60 - 45) * 1000; // 45 s left: renewed
    await crm.pipelines.list();
    expect(proxy.count('POST', '/authentication')).toBe(2);
  });

  it('a self-signed token lasts one hour and is re-signed when less than a minute is left', async () => {
    const start = Date.now() - (60 * 60 - 59) * 1000;
    let clock = start;
    const crm = createClient(
      options(baseUrl, {
        privateKeyPem: t.privateKeyPem,
        audience: t.audience,
        now: () => clock,
      } as Partial<CreateClientOptions>),
    );
    const first = await crm.token();
    const claims = JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({
      appId: t.appId,
      iss: t.appId,
      sub: 'AppAuth',
      aud: t.audience,
      iat: Math.floor(start / 1000),
      exp: Math.floor(start / 1000) + 3600,
    });
    await crm.pipelines.list(); // signed an hour minus 59 s ago: still valid, so the server takes it
    clock = start + 2000;
    expect(await crm.token()).toBe(first);
    clock = Date.now();
    const renewed = await crm.token();
    expect(renewed).not.toBe(first);
    await crm.pipelines.list();
  });

  it('a token the server refuses is dropped: the next call asks for a new one', async () => {
    const proxy = await proxyWith('/authentication', []);
    const app = await call(ctx().app, 'POST', '/admin/v1/apps', {
      token: t.operator,
      body: { name: randomKey('rot') },
    });
    const { appId, appSecret } = app.body.data;
    await call(ctx().app, 'PUT', `/admin/v1/apps/${appId}/businesses/${t.urlKey}`, { token: t.operator });
    const crm = createClient(options(proxy.url, { appId, appSecret }));
    await crm.pipelines.list();
    await call(ctx().app, 'POST', `/admin/v1/apps/${appId}/rotate-secret`, { token: t.operator });
    const refused = await crm.pipelines.list().catch((e: CrmkitError) => e);
    expect((refused as CrmkitError).status).toBe(401);
    await crm.pipelines.list().catch(() => undefined);
    expect(proxy.count('POST', '/authentication')).toBe(2);
  });

  it('a 429 (too many failed sign-ins) is not retried either', async () => {
    // A second app on the same store with a low limit, and an address of its own: the per-address
    // failure count is shared by every test on this database.
    const strict = await createTestApp(ctx().storeName, { authFailureLimit: 2, trustProxy: true });
    try {
      const address = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250)).join('.')}`;
      const proxy = await startProxy(await strict.app.listen({ port: 0, host: '127.0.0.1' }), () => 'pass', {
        addHeaders: { 'x-forwarded-for': address },
      });
      proxies.push(proxy);
      const wrong = createClient(options(proxy.url, { appSecret: 'wrong' }));
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(((await wrong.pipelines.list().catch((e: unknown) => e)) as CrmkitError).status);
      expect(statuses).toEqual([401, 401, 429]);
      const error = (await wrong.pipelines.list().catch((e: unknown) => e)) as CrmkitError;
      expect([error.status, error.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
      expect(proxy.count('POST', '/authentication')).toBe(4);
    } finally {
      await strict.close();
    }
  });
});
