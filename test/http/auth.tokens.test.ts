import { SignJWT, importPKCS8 } from 'jose';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { appSecretToken, createApp, seedTenant, selfSignedToken, type Tenant } from '../helpers/seed.js';

const pipelinesOf = (t: Tenant) => `/api/v1/businesses/${t.urlKey}/pipelines`;

describeEachStore('5 authentication: app tokens', (ctx) => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await seedTenant(ctx().app);
  });

  it('4.1 app-secret returns accessToken, name, appId, expiresAt (1 hour) and the claims', async () => {
    const r = await call(ctx().app, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: tenant.appId, appSecret: tenant.appSecret },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ appId: tenant.appId, authentication: { strategy: 'app-secret' } });
    expect(typeof r.body.accessToken).toBe('string');
    expect(typeof r.body.name).toBe('string');
    const lifetime = Date.parse(r.body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(3500_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('4.1 the Content-Type spelled application-json is accepted on /authentication', async () => {
    const r = await call(ctx().app, 'POST', '/authentication', {
      rawBody: JSON.stringify({ strategy: 'app-secret', appId: tenant.appId, appSecret: tenant.appSecret }),
      headers: { 'content-type': 'application-json' },
    });
    expect(r.status).toBe(200);
  });

  it('4.1 other content types on /authentication are refused with 415', async () => {
    const r = await call(ctx().app, 'POST', '/authentication', {
      rawBody: 'strategy=app-secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
    expect(r.body.data.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('wrong secret and unknown app id get the same 401', async () => {
    const wrong = await call(ctx().app, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: tenant.appId, appSecret: 'nope' },
    });
    const unknown = await call(ctx().app, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: 'app_unknown', appSecret: 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    expect(wrong.body.data.error).toBeUndefined();
  });

  it('app-token validates an issued token and answers the same body', async () => {
    const r = await call(ctx().app, 'POST', '/authentication', {
      token: tenant.token,
      body: { strategy: 'app-token' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      accessToken: tenant.token,
      appId: tenant.appId,
      authentication: { strategy: 'app-token' },
    });
  });

  it('app-iss-app-token validates a self-signed token; app-token refuses it and vice versa', async () => {
    const selfSigned = await selfSignedToken(tenant);
    const ok = await call(ctx().app, 'POST', '/authentication', {
      token: selfSigned,
      body: { strategy: 'app-iss-app-token' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ accessToken: selfSigned, appId: tenant.appId, name: expect.any(String) });
    expect(
      (await call(ctx().app, 'POST', '/authentication', { token: selfSigned, body: { strategy: 'app-token' } })).status,
    ).toBe(401);
    expect(
      (
        await call(ctx().app, 'POST', '/authentication', {
          token: tenant.token,
          body: { strategy: 'app-iss-app-token' },
        })
      ).status,
    ).toBe(401);
  });

  it('both token kinds open business endpoints', async () => {
    const selfSigned = await selfSignedToken(tenant);
    expect((await call(ctx().app, 'GET', pipelinesOf(tenant), { token: selfSigned })).status).not.toBe(401);
    expect((await call(ctx().app, 'GET', pipelinesOf(tenant), { token: tenant.token })).status).not.toBe(401);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const attacks: [string, (t: Tenant) => Promise<string>][] = [
    ['missing appId claim', (t) => selfSignedToken(t, { appId: undefined })],
    ['missing iss', (t) => selfSignedToken(t, { iss: undefined })],
    ['missing aud', (t) => selfSignedToken(t, { aud: undefined })],
    ['missing sub', (t) => selfSignedToken(t, { sub: undefined })],
    ['missing exp', (t) => selfSignedToken(t, { exp: undefined })],
    ['missing iat', (t) => selfSignedToken(t, { iat: undefined })],
    ['appId differs from iss', (t) => selfSignedToken(t, { appId: 'app_other' })],
    ['wrong aud', (t) => selfSignedToken(t, { aud: 'someone-else' })],
    ['wrong sub', (t) => selfSignedToken(t, { sub: 'UserAuth' })],
    ['expired', (t) => selfSignedToken(t, { iat: now() - 7200, exp: now() - 3600 })],
    ['expiry over one day after iat', (t) => selfSignedToken(t, { iat: now(), exp: now() + 86_401 })],
    ['iat in the future beyond the skew', (t) => selfSignedToken(t, { iat: now() + 120, exp: now() + 3600 })],
    ['exp before iat', (t) => selfSignedToken(t, { iat: now(), exp: now() - 1 })],
    [
      'alg none',
      async (t) => {
        const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        return `${enc({ alg: 'none' })}.${enc({ appId: t.appId, iss: t.appId, aud: t.audience, sub: 'AppAuth', iat: now(), exp: now() + 600 })}.`;
      },
    ],
    [
      'HS256 signed with the public key',
      async (t) => {
        const { createPublicKey } = await import('node:crypto');
        const publicPem = createPublicKey(t.privateKeyPem).export({ type: 'spki', format: 'pem' }) as string;
        return new SignJWT({
          appId: t.appId,
          iss: t.appId,
          aud: t.audience,
          sub: 'AppAuth',
          iat: now(),
          exp: now() + 600,
        })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(createSecretKey(Buffer.from(publicPem)));
      },
    ],
    [
      'tampered payload',
      async (t) => {
        const [h, , s] = (await selfSignedToken(t)).split('.');
        const payload = Buffer.from(
          JSON.stringify({
            appId: t.appId,
            iss: t.appId,
            aud: t.audience,
            sub: 'AppAuth',
            iat: now(),
            exp: now() + 80_000,
          }),
        ).toString('base64url');
        return `${h}.${payload}.${s}`;
      },
    ],
    [
      'signed with another key',
      async (t) => {
        const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }) as string;
        return selfSignedToken({ ...t, privateKeyPem: other });
      },
    ],
    [
      'ES256 with a jwk header pointing at the attacker key',
      async (t) => {
        const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        const jwk = pair.publicKey.export({ format: 'jwk' });
        const key = await importPKCS8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'ES256');
        return new SignJWT({
          appId: t.appId,
          iss: t.appId,
          aud: t.audience,
          sub: 'AppAuth',
          iat: now(),
          exp: now() + 600,
        })
          .setProtectedHeader({ alg: 'ES256', jwk: jwk as never })
          .sign(key);
      },
    ],
    ['garbage', async () => 'not.a.token'],
  ];

  it.each(attacks)('self-signed token refused: %s', async (_name, make) => {
    const token = await make(tenant);
    const validate = await call(ctx().app, 'POST', '/authentication', {
      token,
      body: { strategy: 'app-iss-app-token' },
    });
    expect(validate.status).toBe(401);
    const business = await call(ctx().app, 'GET', pipelinesOf(tenant), { token });
    expect(business.status).toBe(401);
    expect(business.body).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    expect(business.body.data.error).toBeUndefined();
  });

  it('a token within the 60 s skew is accepted (iat 30 s ahead)', async () => {
    const token = await selfSignedToken(tenant, { iat: now() + 30, exp: now() + 600 });
    expect(
      (await call(ctx().app, 'POST', '/authentication', { token, body: { strategy: 'app-iss-app-token' } })).status,
    ).toBe(200);
  });

  it('header oddities get 401: no header, empty bearer, other scheme, two tokens, very long token', async () => {
    const url = pipelinesOf(tenant);
    for (const authorization of [
      undefined,
      'Bearer ',
      'Bearer',
      `Basic ${tenant.token}`,
      `Bearer ${tenant.token} ${tenant.token}`,
      `Bearer ${'a'.repeat(20_000)}`,
    ]) {
      const r = await call(ctx().app, 'GET', url, { headers: authorization === undefined ? {} : { authorization } });
      expect(r.status, String(authorization).slice(0, 30)).toBe(401);
    }
  });

  it('rotating the secret invalidates issued tokens and the old secret', async () => {
    const t = await seedTenant(ctx().app);
    const rotated = await call(ctx().app, 'POST', `/admin/v1/apps/${t.appId}/rotate-secret`, { token: t.operator });
    expect(rotated.status).toBe(200);
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: t.token })).status).toBe(401);
    expect(
      (
        await call(ctx().app, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId: t.appId, appSecret: t.appSecret },
        })
      ).status,
    ).toBe(401);
    const fresh = await appSecretToken(ctx().app, t.appId, rotated.body.data.appSecret);
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: fresh })).status).not.toBe(401);
  });

  it('rotating the key invalidates self-signed tokens of the old key', async () => {
    const t = await seedTenant(ctx().app);
    const old = await selfSignedToken(t);
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: old })).status).not.toBe(401);
    const rotated = await call(ctx().app, 'POST', `/admin/v1/apps/${t.appId}/rotate-key`, {
      token: t.operator,
      body: {},
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.privateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: old })).status).toBe(401);
    const fresh = await selfSignedToken({ ...t, privateKeyPem: rotated.body.data.privateKeyPem });
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: fresh })).status).not.toBe(401);
  });

  it('a detached app gets 403 PERMISSION_DENIED at once; an unknown business too', async () => {
    const t = await seedTenant(ctx().app);
    expect((await call(ctx().app, 'GET', pipelinesOf(t), { token: t.token })).status).toBe(200);
    expect(
      (await call(ctx().app, 'DELETE', `/admin/v1/apps/${t.appId}/businesses/${t.urlKey}`, { token: t.operator }))
        .status,
    ).toBe(200);
    const detached = await call(ctx().app, 'GET', pipelinesOf(t), { token: t.token });
    expect(detached.status).toBe(403);
    expect(detached.body.data.error.code).toBe('PERMISSION_DENIED');
    const unknown = await call(ctx().app, 'GET', '/api/v1/businesses/no-such-business/pipelines', {
      token: tenant.token,
    });
    expect(unknown.status).toBe(403);
    expect(unknown.body).toEqual({ ...detached.body });
  });

  it('an app not attached to a business gets 403 there', async () => {
    const other = await createApp(ctx().app, tenant.operator);
    const token = await appSecretToken(ctx().app, other.appId, other.appSecret);
    const r = await call(ctx().app, 'GET', pipelinesOf(tenant), { token });
    expect(r.status).toBe(403);
  });

  it('5.2 a user session token on a business endpoint is 401; an app token on /admin/v1 is 401', async () => {
    const user = await call(ctx().app, 'GET', pipelinesOf(tenant), { token: tenant.operator });
    expect(user.status).toBe(401);
    expect(user.body.name).toBe('NotAuthenticated');
    expect((await call(ctx().app, 'GET', '/admin/v1/businesses', { token: tenant.token })).status).toBe(401);
    expect(
      (await call(ctx().app, 'GET', '/admin/v1/businesses', { token: await selfSignedToken(tenant) })).status,
    ).toBe(401);
  });
});
