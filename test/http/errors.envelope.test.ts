import { beforeAll, expect, it } from 'vitest';
import { call, createTestApp, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

describeEachStore('7 one envelope for every error', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });
  const clients = () => `/api/v1/businesses/${t.urlKey}/clients`;

  function expectEnvelope(body: any, status: number, code: string) {
    expect(body).toMatchObject({ code: status, errors: {}, data: { success: false, error: { code, status } } });
    expect(typeof body.name).toBe('string');
    expect(typeof body.className).toBe('string');
    expect(body.message).toBe(body.data.error.message);
  }

  it('unknown route: 404 NOT_FOUND', async () => {
    const r = await call(ctx().app, 'GET', '/no/such/route');
    expect(r.status).toBe(404);
    expectEnvelope(r.body, 404, 'NOT_FOUND');
    expect(r.body.name).toBe('NotFound');
  });

  it('malformed JSON and non-object bodies: 400 INVALID_FIELD', async () => {
    const bad = await call(ctx().app, 'POST', clients(), {
      token: t.token,
      rawBody: '{"clientId": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expectEnvelope(bad.body, 400, 'INVALID_FIELD');
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const r = await call(ctx().app, 'POST', clients(), {
        token: t.token,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, raw).toBe(400);
      expectEnvelope(r.body, 400, 'INVALID_FIELD');
    }
  });

  it('a body without application/json: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const r = await call(ctx().app, 'POST', clients(), {
      token: t.token,
      rawBody: 'clientId=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
    expectEnvelope(r.body, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const xml = await call(ctx().app, 'POST', clients(), {
      token: t.token,
      rawBody: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
  });

  it('an oversize body: 413 PAYLOAD_TOO_LARGE', async () => {
    const r = await call(ctx().app, 'POST', clients(), {
      token: t.token,
      body: { clientId: randomKey(), name: 'x', alias: 'a'.repeat(ctx().config.bodyLimitBytes) },
    });
    expect(r.status).toBe(413);
    expectEnvelope(r.body, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('prototype keys in a body are refused, and nothing is polluted', async () => {
    const r = await call(ctx().app, 'POST', clients(), {
      token: t.token,
      rawBody: `{"clientId":"${randomKey()}","name":"x","__proto__":{"polluted":true}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('401: NotAuthenticated with data holding only a message', async () => {
    const r = await call(ctx().app, 'GET', `${clients()}/x`);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      name: 'NotAuthenticated',
      message: expect.any(String),
      code: 401,
      className: 'not-authenticated',
      data: { message: r.body.message },
      errors: {},
    });
  });

  it('every answer carries a request id and security headers', async () => {
    const r = await call(ctx().app, 'GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers['x-request-id']).toBe('abc-123');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

it('an unexpected failure: 500 SERVICE_ERROR with a generic message, no detail', async () => {
  const testApp = await createTestApp('sqlite');
  const t = await seedTenant(testApp.app);
  await testApp.store.close(); // the store is gone: every query now fails inside the driver
  const r = await call(testApp.app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/someone`, { token: t.token });
  expect(r.status).toBe(500);
  expect(r.body.data.error).toEqual({ code: 'SERVICE_ERROR', status: 500, message: 'An unexpected error occurred' });
  expect(JSON.stringify(r.body)).not.toMatch(/sqlite|select|database|stack|\.ts/i);
  await testApp.app.close();
});
