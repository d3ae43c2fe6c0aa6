import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { rawEs256 } from '../helpers/jwt.js';
import { appSecretToken, createApp, seedTenant, selfSignedToken, type Tenant } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';

/**
 * Token attacks beyond test/http/auth.tokens.test.ts: the exact clock-skew boundaries (on a clock that
 * stands still), header parameters that must never pick a key, claims of the wrong type or repeated,
 * keys of other apps, and what rotation and detachment do to each kind of token.
 */
const stores = await availableStores();
const DAY = 86_400;

type Verdict = 200 | 401 | 403;
type Make = (ctx: { t: Tenant; other: Tenant; now: number; jku: string; kid: string }) => Promise<string> | string;

const claims = (t: Tenant, now: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ appId: t.appId, iss: t.appId, aud: t.audience, sub: 'AppAuth', iat: now, exp: now + 600, ...extra });
const signed = (t: Tenant, now: number, extra: Record<string, unknown>) =>
  selfSignedToken(t, { iat: now, exp: now + 600, ...extra });

const CASES: [string, Make, Verdict][] = [
  [
    'skew: exp 59 s ago is within the 60 s allowance',
    ({ t, now }) => signed(t, now, { iat: now - 600, exp: now - 59 }),
    200,
  ],
  ['skew: exp 60 s ago is not', ({ t, now }) => signed(t, now, { iat: now - 600, exp: now - 60 }), 401],
  [
    'skew: iat 60 s ahead is within the allowance',
    ({ t, now }) => signed(t, now, { iat: now + 60, exp: now + 600 }),
    200,
  ],
  ['skew: iat 61 s ahead is not', ({ t, now }) => signed(t, now, { iat: now + 61, exp: now + 600 }), 401],
  ['skew: nbf 60 s ahead is within the allowance', ({ t, now }) => signed(t, now, { nbf: now + 60 }), 200],
  ['skew: nbf 61 s ahead is not', ({ t, now }) => signed(t, now, { nbf: now + 61 }), 401],
  [
    'lifetime: exp - iat of exactly 86,400 s is allowed',
    ({ t, now }) => signed(t, now, { iat: now - 100, exp: now - 100 + DAY }),
    200,
  ],
  [
    'lifetime: exp - iat of 86,401 s is not, though iat is in the past',
    ({ t, now }) => signed(t, now, { iat: now - 100, exp: now - 99 + DAY }),
    401,
  ],
  [
    'lifetime: no skew is added to it (iat 60 s ahead, exp one day and a second later)',
    ({ t, now }) => signed(t, now, { iat: now + 60, exp: now + 61 + DAY }),
    401,
  ],
  ['lifetime: exp equal to iat is refused', ({ t, now }) => signed(t, now, { iat: now, exp: now }), 401],
  [
    "header: kid naming anything is ignored (the app's own key signs: accepted)",
    ({ t, now }) => selfSignedToken(t, { iat: now, exp: now + 600 }, { header: { kid: '../../signing_keys/0' } }),
    200,
  ],
  [
    'header: jku is never fetched (own key: accepted, and no request reached the URL)',
    ({ t, now, jku }) => selfSignedToken(t, { iat: now, exp: now + 600 }, { header: { jku } }),
    200,
  ],
  [
    'header: jku pointing at an attacker key set does not help a foreign key',
    ({ t, now, jku }) =>
      selfSignedToken({ ...t, privateKeyPem: foreignKey() }, { iat: now, exp: now + 600 }, { header: { jku } }),
    401,
  ],
  [
    'header: x5u pointing at an attacker certificate does not help a foreign key',
    ({ t, now, jku }) =>
      selfSignedToken({ ...t, privateKeyPem: foreignKey() }, { iat: now, exp: now + 600 }, { header: { x5u: jku } }),
    401,
  ],
  [
    "header: the kid of the service's own signing key does not make a foreign ES256 key count",
    ({ t, now, kid }) =>
      selfSignedToken({ ...t, privateKeyPem: foreignKey() }, { iat: now, exp: now + 600 }, { header: { kid } }),
    401,
  ],
  [
    'header: a crit extension the service does not know is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256","crit":["x-must"],"x-must":true}', claims(t, now), t.privateKeyPem),
    401,
  ],
  [
    'header: alg ES384 with a P-384 key is refused',
    ({ t, now }) => {
      const key = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
      return new SignJWT(JSON.parse(claims(t, now))).setProtectedHeader({ alg: 'ES384' }).sign(key);
    },
    401,
  ],
  [
    'claims: appId as a number is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { appId: 12345 }), t.privateKeyPem),
    401,
  ],
  [
    'claims: appId as a list holding the app id is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { appId: [t.appId] }), t.privateKeyPem),
    401,
  ],
  [
    'claims: iss as a list holding the app id is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { iss: [t.appId] }), t.privateKeyPem),
    401,
  ],
  [
    'claims: sub as a list holding AppAuth is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { sub: ['AppAuth'] }), t.privateKeyPem),
    401,
  ],
  [
    'claims: exp as a string is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { exp: String(now + 600) }), t.privateKeyPem),
    401,
  ],
  [
    'claims: iat as a string is refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', claims(t, now, { iat: String(now) }), t.privateKeyPem),
    401,
  ],
  [
    'claims: aud as a list holding the audience is accepted (RFC 7519 4.1.3)',
    ({ t, now }) => signed(t, now, { aud: ['someone-else', t.audience] }),
    200,
  ],
  [
    'claims: aud as a list without the audience is refused',
    ({ t, now }) => signed(t, now, { aud: ['someone-else'] }),
    401,
  ],
  ['claims: aud as an empty list is refused', ({ t, now }) => signed(t, now, { aud: [] }), 401],
  [
    'claims: a repeated appId counts as its last value (RFC 7519 4): last one wrong, refused',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', repeatedAppId(t, now, t.appId, 'app_someone_else'), t.privateKeyPem),
    401,
  ],
  [
    'claims: a repeated appId counts as its last value: last one right, accepted (the app signed it)',
    ({ t, now }) => rawEs256('{"alg":"ES256"}', repeatedAppId(t, now, 'app_someone_else', t.appId), t.privateKeyPem),
    200,
  ],
  [
    "keys: a token of app X signed with app Y's real key (iss and appId X) is refused",
    ({ t, other, now }) => selfSignedToken({ ...t, privateKeyPem: other.privateKeyPem }, { iat: now, exp: now + 600 }),
    401,
  ],
  ["keys: app Y's own valid token on app X's business is 403", ({ other, now }) => signed(other, now, {}), 403],
  [
    "keys: Y's key with iss Y but appId X is refused",
    ({ t, other, now }) => selfSignedToken(other, { appId: t.appId, iat: now, exp: now + 600 }),
    401,
  ],
  [
    "forgery: an HS256 app token (typ app) with the service's real kid but a guessed key is refused",
    ({ t, now, kid }) =>
      new SignJWT({
        appId: t.appId,
        sv: 1,
        typ: 'app',
        iss: 'crmkit',
        aud: t.audience,
        sub: 'AppAuth',
        iat: now,
        exp: now + 600,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
        .sign(createSecretKey(Buffer.alloc(32, 1))),
    401,
  ],
  ['forgery: an operator session token presented as an app token is refused', ({ t }) => t.operator, 401],
];

/** Payload text with `appId` twice, as no JSON serialiser would write it. */
function repeatedAppId(t: Tenant, now: number, first: string, last: string): string {
  return `{"appId":${JSON.stringify(first)},"appId":${JSON.stringify(last)},${claims(t, now)
    .slice(1)
    .replace(/"appId":"[^"]*",/, '')}`;
}

function foreignKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

describe.each(stores)('5 token attacks, on a clock that stands still [%s]', (storeName) => {
  let now = Math.floor(Date.now() / 1000);
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let keyServer: Server;
  let fetched = 0;
  let jku = '';
  let kid = '';

  beforeAll(async () => {
    t = await createTestApp(storeName, {}, { now: () => now * 1000 });
    tenant = await seedTenant(t.app);
    other = await seedTenant(t.app);
    kid = (await t.store.accounts.signingKeys())[0]!.kid;
    keyServer = createServer((_req, res) => {
      fetched++;
      res.end('{"keys":[]}');
    });
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    jku = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/keys.json`;
  });
  afterAll(async () => {
    await t?.close();
    keyServer?.close();
  });

  const pipelines = (token: string) => call(t.app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, { token });
  const validate = (token: string, strategy = 'app-iss-app-token') =>
    call(t.app, 'POST', '/authentication', { token, body: { strategy } });

  it.each(CASES)('%s', async (_name, make, verdict) => {
    const token = await make({ t: tenant, other, now, jku, kid });
    expect((await pipelines(token)).status).toBe(verdict);
    expect((await validate(token)).status).toBe(verdict === 403 ? 200 : verdict);
    expect(fetched).toBe(0);
  });

  it('an accepted self-signed token stops working once the clock passes exp + 60 s, though verified before', async () => {
    const token = await signed(tenant, now, { exp: now + 120 });
    expect((await pipelines(token)).status).toBe(200);
    now += 179;
    expect((await pipelines(token)).status).toBe(200);
    now += 1;
    expect((await pipelines(token)).status).toBe(401);
  });

  it('an issued token gets no skew: good until its last second, refused at expiry', async () => {
    const token = await appSecretToken(t.app, tenant.appId, tenant.appSecret);
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    expect((await validate(token, 'app-token')).status).toBe(200);
    now = exp - 1;
    expect((await pipelines(token)).status).toBe(200);
    now = exp;
    expect((await pipelines(token)).status).toBe(401);
    expect((await validate(token, 'app-token')).status).toBe(401);
  });
});

describe.each(stores)('5 rotation and detachment, per token kind [%s]', (storeName) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(storeName);
  });
  afterAll(async () => t?.close());
  const pipelines = (tenant: Tenant, token: string) =>
    call(t.app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, { token });
  const admin = (tenant: Tenant, method: string, path: string) =>
    call(t.app, method as never, `/admin/v1/apps/${tenant.appId}${path}`, { token: tenant.operator });

  it('rotating the key leaves issued tokens working (it concerns self-signed tokens only)', async () => {
    const tenant = await seedTenant(t.app);
    expect((await admin(tenant, 'POST', '/rotate-key')).status).toBe(200);
    expect((await pipelines(tenant, tenant.token)).status).toBe(200);
  });

  it('rotating the secret leaves self-signed tokens working (it concerns issued tokens only)', async () => {
    const tenant = await seedTenant(t.app);
    const selfSigned = await selfSignedToken(tenant);
    expect((await admin(tenant, 'POST', '/rotate-secret')).status).toBe(200);
    expect((await pipelines(tenant, selfSigned)).status).toBe(200);
    expect((await pipelines(tenant, tenant.token)).status).toBe(401);
  });

  it("a detached app's tokens of both kinds get 403 there, and work again once it is attached again", async () => {
    const tenant = await seedTenant(t.app);
    const selfSigned = await selfSignedToken(tenant);
    expect((await admin(tenant, 'DELETE', `/businesses/${tenant.urlKey}`)).status).toBe(200);
    for (const token of [tenant.token, selfSigned]) expect((await pipelines(tenant, token)).status).toBe(403);
    expect((await admin(tenant, 'PUT', `/businesses/${tenant.urlKey}`)).status).toBe(200);
    for (const token of [tenant.token, selfSigned]) expect((await pipelines(tenant, token)).status).toBe(200);
  });

  it('a detached app can still have its tokens validated: attachment decides access to a business, not identity', async () => {
    const tenant = await seedTenant(t.app);
    expect((await admin(tenant, 'DELETE', `/businesses/${tenant.urlKey}`)).status).toBe(200);
    expect(
      (await call(t.app, 'POST', '/authentication', { token: tenant.token, body: { strategy: 'app-token' } })).status,
    ).toBe(200);
  });

  it('header oddities: a lower-case scheme is accepted (schemes ignore case); a tab, padding or a comma list is no token', async () => {
    const tenant = await seedTenant(t.app);
    const other = await createApp(t.app, tenant.operator);
    const send = (authorization: string) =>
      call(t.app, 'GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, { headers: { authorization } });
    expect((await send(`bearer ${tenant.token}`)).status).toBe(200);
    for (const header of [
      `Bearer\t${tenant.token}`,
      `Bearer ${tenant.token}=`,
      `Bearer ${tenant.token},${other.appId}`,
      `Bearer "${tenant.token}"`,
    ]) {
      expect((await send(header)).status, header.slice(0, 12)).toBe(401);
    }
  });
});
