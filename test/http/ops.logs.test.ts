import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/deps.js';
import { createLogger } from '../../src/logger.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore, type Store } from '../../src/storage/store.js';
import { call } from '../helpers/app.js';
import { randomKey, seedTenant, selfSignedToken } from '../helpers/seed.js';
import { TEST_ADMIN, availableStores, configFor } from '../helpers/stores.js';

const stores = await availableStores();

/** An app whose logger writes into an array, at trace level: the most a log can ever say. */
async function loggedApp(storeName: (typeof stores)[number]) {
  const lines: string[] = [];
  const config = configFor(storeName, { logLevel: 'trace' });
  const logger = createLogger(config, { write: (line: string) => void lines.push(line) });
  const store: Store = openStore(config);
  await store.migrate();
  await new OperatorsService(store, Date.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  const app: FastifyInstance = await buildApp({ config, store, clock: systemClock, logger });
  await app.ready();
  return { app, store, lines, logger };
}

describe.each(stores)('ops: log hygiene [%s]', (storeName) => {
  let ctx: Awaited<ReturnType<typeof loggedApp>>;
  const secrets: Record<string, string> = {};
  const requestIds: string[] = [];

  beforeAll(async () => {
    ctx = await loggedApp(storeName);
    const { app } = ctx;
    const track = <T extends { headers: Record<string, unknown> }>(response: T) => (
      requestIds.push(String(response.headers['x-request-id'])), response
    );
    const tenant = await seedTenant(app);
    Object.assign(secrets, {
      operatorPassword: TEST_ADMIN.password,
      operatorToken: tenant.operator,
      appSecret: tenant.appSecret,
      privateKey: tenant.privateKeyPem.split('\n')[1]!,
      appToken: tenant.token,
    });
    const wrong = track(
      await call(app, 'POST', '/authentication', {
        body: { strategy: 'local', email: TEST_ADMIN.email, password: 'wrong-password-marker' },
      }),
    );
    expect(wrong.status).toBe(401);
    secrets.wrongPassword = 'wrong-password-marker';
    const selfSigned = await selfSignedToken(tenant);
    secrets.selfSigned = selfSigned;
    track(await call(app, 'POST', '/authentication', { token: selfSigned, body: { strategy: 'app-iss-app-token' } }));
    track(await call(app, 'POST', '/authentication', { token: tenant.token, body: { strategy: 'app-token' } }));
    secrets.newOperatorPassword = `pw-${randomKey()}`;
    track(
      await call(app, 'POST', '/admin/v1/operators', {
        token: tenant.operator,
        body: { email: `${randomKey()}@example.com`, password: secrets.newOperatorPassword },
      }),
    );
    const rotated = track(
      await call(app, 'POST', `/admin/v1/apps/${tenant.appId}/rotate-secret`, { token: tenant.operator }),
    );
    secrets.rotatedSecret = rotated.body.data.appSecret;
    secrets.clientBody = `BodyMarker ${randomKey()}`;
    const created = track(
      await call(app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
        token: tenant.token,
        body: { clientId: randomKey('c'), name: secrets.clientBody },
      }),
    );
    expect(created.status).toBe(401); // the rotation invalidated the token: still a request worth logging
    const fresh = track(
      await call(app, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: tenant.appId, appSecret: secrets.rotatedSecret },
      }),
    );
    secrets.freshToken = fresh.body.accessToken;
    const ok = track(
      await call(app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
        token: secrets.freshToken,
        body: { clientId: randomKey('c'), name: secrets.clientBody },
      }),
    );
    expect(ok.status).toBe(201);
    track(
      await call(app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
        token: secrets.freshToken,
        body: { clientId: 'x', name: secrets.clientBody, bogusKeyMarker: 1 },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await ctx?.app.close();
    await ctx?.store.close();
  });

  it('the server did log each request (trace level), so silence is not what passes the test', () => {
    expect(ctx.lines.filter((l) => l.includes('"incoming request"')).length).toBeGreaterThanOrEqual(requestIds.length);
  });

  it('no secret, token, password, private key or request body reaches the log', () => {
    const log = ctx.lines.join('');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(log.includes(value), `${name} found in the log`).toBe(false);
    }
    expect(log).not.toMatch(/Bearer /i);
    expect(log).not.toContain('bogusKeyMarker');
  });

  it('every log line about a request carries its request id, the one sent back in X-Request-Id', () => {
    const entries = ctx.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const aboutRequests = entries.filter((e) => 'req' in e || 'res' in e || 'reqId' in e);
    expect(aboutRequests.length).toBeGreaterThan(0);
    for (const entry of aboutRequests) expect(typeof entry.reqId, JSON.stringify(entry)).toBe('string');
    const logged = new Set(aboutRequests.map((e) => e.reqId));
    for (const id of requestIds) expect(logged.has(id), id).toBe(true);
  });

  it('redaction holds for anything a future log line might carry', () => {
    ctx.logger.info(
      {
        req: { headers: { authorization: 'Bearer leak-me-1' } },
        body: { name: 'leak-me-2' },
        app: { appSecret: 'leak-me-3', privateKeyPem: 'leak-me-4' },
        password: 'leak-me-5',
        accessToken: 'leak-me-6',
      },
      'careless line',
    );
    const last = ctx.lines[ctx.lines.length - 1]!;
    expect(last).toContain('careless line');
    expect(last).not.toMatch(/leak-me/);
  });
});
