import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/storage/migrate.js';
import { call, describeEachStore, type JsonResponse } from '../helpers/app.js';
import { createApp, operatorToken, seedTenant } from '../helpers/seed.js';
import { TEST_ADMIN } from '../helpers/stores.js';

const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

function expectSecurityHeaders(response: JsonResponse): void {
  // Issue 10: nosniff, Referrer-Policy and frame-ancestors 'none' on every answer.
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  // Pages may load their own scripts and styles, and keep X-Frame-Options for browsers older than CSP
  // level 2; data answers may load nothing at all, and their frame-ancestors supersedes X-Frame-Options.
  if (String(response.headers['content-type']).startsWith('text/html')) {
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  } else {
    expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBeUndefined();
  }
  expect(response.headers['x-request-id']).toBeTruthy();
}

describeEachStore('ops: security headers, request ids, no-store, version', (ctx) => {
  const answers: [string, (token: string) => Promise<JsonResponse>][] = [
    ['200 /healthz', () => call(ctx().app, 'GET', '/healthz')],
    ['200 operator list', (token) => call(ctx().app, 'GET', '/admin/v1/businesses', { token })],
    ['401 business endpoint without a token', () => call(ctx().app, 'GET', '/api/v1/businesses/nope/pipelines')],
    ['401 operator endpoint without a token', () => call(ctx().app, 'GET', '/admin/v1/apps')],
    ['404 unknown route', () => call(ctx().app, 'GET', '/no/such/route')],
    [
      '400 bad JSON',
      () =>
        call(ctx().app, 'POST', '/authentication', { rawBody: '{', headers: { 'content-type': 'application/json' } }),
    ],
    [
      '415 wrong media type',
      () => call(ctx().app, 'POST', '/authentication', { rawBody: 'x', headers: { 'content-type': 'text/csv' } }),
    ],
    ['/ (the dashboard page)', () => call(ctx().app, 'GET', '/')],
    ['/docs (the reference page)', () => call(ctx().app, 'GET', '/docs')],
    ['200 /openapi.json', () => call(ctx().app, 'GET', '/openapi.json')],
  ];
  for (const [name, send] of answers) {
    it(`security headers on every answer: ${name}`, async () => {
      expectSecurityHeaders(await send(await operatorToken(ctx().app)));
    });
  }

  it('a page revalidated with If-None-Match (304) keeps the page policy: the browser stores it with the page', async () => {
    for (const path of ['/', '/docs']) {
      const first = await call(ctx().app, 'GET', path);
      const again = await call(ctx().app, 'GET', path, { headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.status).toBe(304);
      expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
      expect(String(again.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
      expect(again.headers['referrer-policy']).toBe('no-referrer');
      expect(again.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('the dashboard page gets the strict CSP: scripts from this origin only, nothing inline', async () => {
    const csp = String((await call(ctx().app, 'GET', '/')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('answers carrying tokens or secrets are Cache-Control: no-store', async () => {
    const { app } = ctx();
    const login = await call(app, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } });
    expect(login.headers['cache-control']).toBe('no-store');
    const operator = login.body.accessToken as string;
    const created = await call(app, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'no-store' } });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { appId, appSecret } = created.body.data;
    const token = await call(app, 'POST', '/authentication', { body: { strategy: 'app-secret', appId, appSecret } });
    expect(token.headers['cache-control']).toBe('no-store');
    for (const action of ['rotate-secret', 'rotate-key']) {
      const rotated = await call(app, 'POST', `/admin/v1/apps/${appId}/${action}`, { token: operator });
      expect(rotated.status).toBe(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
    }
  });

  it('business answers are not cached either', async () => {
    const tenant = await seedTenant(ctx().app);
    const response = await call(ctx().app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, {
      token: tenant.token,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('X-Request-Id: a well-formed incoming id is echoed, otherwise one is generated per request', async () => {
    const { app } = ctx();
    const echoed = await call(app, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await call(app, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\twith spaces');
    const [a, b] = await Promise.all([call(app, 'GET', '/healthz'), call(app, 'GET', '/healthz')]);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('/healthz reports the build version and the schema version; /readyz says ready', async () => {
    const health = await call(ctx().app, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      version: packageVersion,
      schema: SCHEMA_VERSION,
      store: ctx().storeName,
    });
    const ready = await call(ctx().app, 'GET', '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('app secrets are shown once: the app list carries none', async () => {
    const operator = await operatorToken(ctx().app);
    const created = await createApp(ctx().app, operator);
    const list = await call(ctx().app, 'GET', '/admin/v1/apps', { token: operator });
    expect(JSON.stringify(list.body)).not.toContain(created.appSecret);
    expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');
  });
});
