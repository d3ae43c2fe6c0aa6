import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { call, describeEachStore, type JsonResponse } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

const preflight = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type',
});

function expectNoCors(response: JsonResponse): void {
  for (const name of Object.keys(response.headers)) expect(name).not.toMatch(/^access-control-/);
}

describeEachStore(
  'ops: CORS with an allow-list',
  (ctx) => {
    it('a preflight from an allowed origin is answered 204 without authentication', async () => {
      for (const path of ['/api/v1/businesses/any/clients', '/admin/v1/businesses', '/authentication']) {
        const response = await call(ctx().app, 'OPTIONS', path, { headers: preflight(ALLOWED) });
        expect(response.status).toBe(204);
        expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
        expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
        expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
        // A browser may send Idempotency-Key (invoices-interface 4.2) and read Idempotent-Replayed.
        expect(String(response.headers['access-control-allow-headers'])).toContain('Idempotency-Key');
        expect(response.headers['access-control-max-age']).toBeDefined();
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        expect(response.headers.vary).toContain('Origin');
        expect(response.body).toBeUndefined();
      }
    });

    it('an actual request from an allowed origin gets Allow-Origin and the exposed headers', async () => {
      const tenant = await seedTenant(ctx().app);
      const response = await call(ctx().app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, {
        token: tenant.token,
        headers: { origin: ALLOWED },
      });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(response.headers['access-control-expose-headers'])).toContain('X-Request-Id');
      expect(String(response.headers['access-control-expose-headers'])).toContain('Idempotent-Replayed');
    });

    it('auth still applies to the actual request: CORS is not a way around it', async () => {
      const response = await call(ctx().app, 'GET', '/api/v1/businesses/any/pipelines', {
        headers: { origin: ALLOWED },
      });
      expect(response.status).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    });

    it('another origin gets no CORS header, on preflight or request', async () => {
      const pre = await call(ctx().app, 'OPTIONS', '/api/v1/businesses/any/clients', { headers: preflight(OTHER) });
      expect(pre.status).not.toBe(204);
      expectNoCors(pre);
      const request = await call(ctx().app, 'GET', '/healthz', { headers: { origin: OTHER } });
      expectNoCors(request);
      // A near miss is a miss: scheme, port and suffix all count.
      for (const origin of [
        'http://app.example.com',
        'https://app.example.com:8443',
        'https://app.example.com.evil.net',
        'null',
      ]) {
        expectNoCors(await call(ctx().app, 'OPTIONS', '/admin/v1/businesses', { headers: preflight(origin) }));
      }
    });

    it('an OPTIONS without Access-Control-Request-Method is not a preflight', async () => {
      const response = await call(ctx().app, 'OPTIONS', '/admin/v1/businesses', { headers: { origin: ALLOWED } });
      expect(response.status).not.toBe(204);
    });
  },
  { corsOrigins: [ALLOWED, 'http://localhost:5173'] },
);

describeEachStore('ops: CORS off by default', (ctx) => {
  it('no CORS header for any origin, and a preflight is not answered 204', async () => {
    const response = await call(ctx().app, 'OPTIONS', '/api/v1/businesses/any/clients', {
      headers: preflight(ALLOWED),
    });
    expect(response.status).not.toBe(204);
    expectNoCors(response);
    expectNoCors(await call(ctx().app, 'GET', '/healthz', { headers: { origin: ALLOWED } }));
  });
});

describe('ops: CORS_ORIGINS is checked at start', () => {
  it('origins are normalised: case and a trailing slash do not matter', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://App.Example.com/, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });
  it.each(['app.example.com', 'https://app.example.com/path', '*', 'ftp://x.example'])(
    '%s stops the start naming CORS_ORIGINS',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/^CORS_ORIGINS: /);
    },
  );
});
