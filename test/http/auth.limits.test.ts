import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type JsonResponse, type TestApp } from '../helpers/app.js';
import { expectEnvelope } from '../helpers/hostile.js';
import { createApp, randomAddress, seedTenant, type Tenant } from '../helpers/seed.js';
import { TEST_ADMIN, availableStores } from '../helpers/stores.js';

const LIMIT = 3;
const WINDOW_SECONDS = 60;
const stores = await availableStores();

/** A clock that stands still until the test moves it: windows end when the test says so, not after a sleep. */
function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (seconds: number) => void (now += seconds * 1000) };
}

describe.each(stores)('abuse limits on POST /authentication [%s]', (storeName) => {
  const clock = manualClock();
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(
      storeName,
      { authFailureLimit: LIMIT, authFailureWindowSeconds: WINDOW_SECONDS, trustProxy: true },
      clock,
    );
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => t?.close());

  const signIn = (body: Record<string, string>, forwardedFor: string) =>
    call(t.app, 'POST', '/authentication', { body, headers: { 'x-forwarded-for': forwardedFor } });
  const secret = (appSecret: string, address: string, appId = tenant.appId) =>
    signIn({ strategy: 'app-secret', appId, appSecret }, address);
  const login = (password: string, address: string) =>
    signIn({ strategy: 'local', email: TEST_ADMIN.email, password }, address);

  async function fail(times: number, attempt: () => Promise<JsonResponse>): Promise<void> {
    for (let i = 0; i < times; i++) expect((await attempt()).status, `failure ${i + 1}`).toBe(401);
  }

  function expectTooMany(r: JsonResponse, retryAfter = WINDOW_SECONDS): void {
    expect(r.status).toBe(429);
    expectEnvelope(r.body, 429);
    expect(r.body).toMatchObject({
      name: 'TooManyRequests',
      className: 'too-many-requests',
      data: { error: { code: 'TOO_MANY_REQUESTS' } },
    });
    expect(r.headers['retry-after']).toBe(String(retryAfter));
  }

  it(`app-secret: after ${LIMIT} failures for one app from one address, the next is 429 TOO_MANY_REQUESTS with Retry-After`, async () => {
    const address = randomAddress();
    await fail(LIMIT, () => secret('wrong', address));
    expectTooMany(await secret('wrong', address));
  });

  it('while locked, the right secret is refused from that address too, whether checked before or not', async () => {
    const address = randomAddress();
    const unchecked = await createApp(t.app, tenant.operator);
    await fail(LIMIT, () => secret('wrong', address));
    await fail(LIMIT, () => secret('wrong', address, unchecked.appId));
    expectTooMany(await secret(tenant.appSecret, address)); // this secret was verified before: the fast path
    expectTooMany(await secret(unchecked.appSecret, address, unchecked.appId)); // never verified: the counted path
  });

  it('nobody can lock a real app out from elsewhere: the same app from another address still gets its token', async () => {
    const attacker = randomAddress();
    await fail(LIMIT, () => secret('wrong', attacker));
    expectTooMany(await secret('wrong', attacker));
    const real = await secret(tenant.appSecret, randomAddress());
    expect(real.status).toBe(200);
    expect(real.body.accessToken).toEqual(expect.any(String));
  });

  it('the limit is per app id: another app from the same address is not affected', async () => {
    const address = randomAddress();
    const other = await createApp(t.app, tenant.operator);
    await fail(LIMIT, () => secret('wrong', address));
    expect((await secret(other.appSecret, address, other.appId)).status).toBe(200);
  });

  it(`local login: ${LIMIT} failures per e-mail and address, then 429; the same operator from another address signs in`, async () => {
    const address = randomAddress();
    await fail(LIMIT, () => login('wrong-password', address));
    expectTooMany(await login(TEST_ADMIN.password, address));
    expect((await login(TEST_ADMIN.password, randomAddress())).status).toBe(200);
  });

  it(`per address alone: ${LIMIT * 10} failures over many app ids lock that address, and only it`, async () => {
    const address = randomAddress();
    for (let i = 0; i < LIMIT * 10; i++) expect((await secret('wrong', address, `app_spray${i}`)).status).toBe(401);
    expectTooMany(await secret(tenant.appSecret, address));
    expect((await secret(tenant.appSecret, randomAddress())).status).toBe(200);
  });

  it('a success gives its attempt back: right answers between failures do not count', async () => {
    const address = randomAddress();
    await fail(LIMIT - 1, () => secret('wrong', address));
    for (let i = 0; i < 5; i++) expect((await secret(tenant.appSecret, address)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(TEST_ADMIN.password, address)).status).toBe(200);
    await fail(1, () => secret('wrong', address));
    expectTooMany(await secret('wrong', address));
  });

  it(`concurrent guesses cannot slip under the limit: of ${LIMIT * 4} at once, exactly ${LIMIT} are checked`, async () => {
    const address = randomAddress();
    const answers = await Promise.all(Array.from({ length: LIMIT * 4 }, () => login('wrong-password', address)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(LIMIT * 3);
  });

  it('Retry-After counts down to the end of the window; after it the caller may try again', async () => {
    const address = randomAddress();
    await fail(LIMIT, () => secret('wrong', address));
    clock.advance(20);
    expectTooMany(await secret(tenant.appSecret, address), WINDOW_SECONDS - 20);
    clock.advance(WINDOW_SECONDS - 20);
    expect((await secret(tenant.appSecret, address)).status).toBe(200);
    await fail(LIMIT, () => secret('wrong', address));
    expectTooMany(await secret('wrong', address));
  });

  it('TRUST_PROXY=true: the address is the last X-Forwarded-For entry, so a client cannot choose its bucket by prepending one', async () => {
    const address = randomAddress();
    await fail(LIMIT, () => secret('wrong', address));
    expectTooMany(await secret(tenant.appSecret, `${randomAddress()}, ${address}`));
    expect((await secret(tenant.appSecret, `${address}, ${randomAddress()}`)).status).toBe(200);
  });
});

describe.each(stores)('abuse limits with TRUST_PROXY=false [%s]', (storeName) => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp(storeName, { authFailureLimit: LIMIT, trustProxy: false });
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => t?.close());

  it("X-Forwarded-For is ignored: failures count for the connection's own address whatever the header says", async () => {
    const remoteAddress = randomAddress();
    const attempt = (appSecret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/authentication',
        remoteAddress,
        headers: { 'x-forwarded-for': randomAddress() },
        payload: { strategy: 'app-secret', appId: tenant.appId, appSecret },
      });
    for (let i = 0; i < LIMIT; i++) expect((await attempt('wrong')).statusCode).toBe(401);
    expect((await attempt(tenant.appSecret)).statusCode).toBe(429);
  });
});

describe.each(stores)('abuse limits when the store fails [%s]', (storeName) => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp(storeName, { authFailureLimit: LIMIT });
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => t?.close());

  it('a failing rate-limit store never turns a sign-in into a 500: right answers 200, wrong ones 401', async () => {
    const limits = t.store.rateLimits;
    const broken = () => Promise.reject(new Error('rate_limits: relation does not exist'));
    const saved = { hit: limits.hit, peek: limits.peek, release: limits.release };
    Object.assign(limits, { hit: broken, peek: broken, release: broken });
    try {
      const attempt = (appSecret: string) =>
        call(t.app, 'POST', '/authentication', { body: { strategy: 'app-secret', appId: tenant.appId, appSecret } });
      for (let i = 0; i < LIMIT + 2; i++) expect((await attempt('wrong')).status).toBe(401);
      expect((await attempt(tenant.appSecret)).status).toBe(200);
      expect(
        (await call(t.app, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).status,
      ).toBe(200);
    } finally {
      Object.assign(limits, saved);
    }
  });
});
