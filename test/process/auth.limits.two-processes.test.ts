// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomAddress } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';

const stores = await availableStores();
const LIMIT = 3;

async function signIn(server: ServerProcess, body: Record<string, string>, address: string) {
  const response = await fetch(`${server.url}/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as any,
  };
}

describe.runIf(stores.includes('postgres'))('abuse limits hold across processes sharing PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let app: { appId: string; appSecret: string };

  beforeAll(async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_FAILURE_LIMIT: String(LIMIT),
      AUTH_FAILURE_WINDOW_SECONDS: '300',
      TRUST_PROXY: 'true',
    };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    const operator = (await signIn(a, { strategy: 'local', ...TEST_ADMIN }, randomAddress())).body.accessToken;
    app = (await http(b.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'limits across processes' } }))
      .body.data;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const secret = (server: ServerProcess, appSecret: string, address: string) =>
    signIn(server, { strategy: 'app-secret', appId: app.appId, appSecret }, address);

  it('failures counted by one process lock the caller out of the other', async () => {
    const address = randomAddress();
    for (const server of [a, b, a]) expect((await secret(server, 'wrong', address)).status).toBe(401);
    for (const server of [b, a]) {
      const locked = await secret(server, app.appSecret, address);
      expect(locked.status).toBe(429);
      expect(locked.body.data.error.code).toBe('TOO_MANY_REQUESTS');
      expect(Number(locked.retryAfter)).toBeGreaterThan(0);
      expect(Number(locked.retryAfter)).toBeLessThanOrEqual(300);
    }
  });

  it('the same app from another address is served by both processes meanwhile', async () => {
    const attacker = randomAddress();
    for (let i = 0; i <= LIMIT; i++) await secret(i % 2 ? a : b, 'wrong', attacker);
    expect((await secret(a, 'wrong', attacker)).status).toBe(429);
    const real = randomAddress();
    expect((await secret(a, app.appSecret, real)).status).toBe(200);
    expect((await secret(b, app.appSecret, real)).status).toBe(200);
  });

  it(`concurrent guesses spread over both processes: exactly ${LIMIT} are checked, the rest get 429`, async () => {
    const address = randomAddress();
    const guesses = Array.from({ length: LIMIT * 4 }, (_, i) =>
      signIn(i % 2 ? a : b, { strategy: 'local', email: TEST_ADMIN.email, password: 'wrong-password' }, address),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 3);
  });
});
