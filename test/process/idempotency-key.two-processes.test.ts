// @module-tag pooled
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores, sessionUrlOf } from '../helpers/stores.js';

const stores = await availableStores();
const ENTRY = 'test/helpers/idempotency-server.ts';
/**
 * The lease these servers run with (IDEMPOTENCY_KEY_LEASE_MS): 8 s rather than the default 60 s, so the
 * takeover after a killed process is seen without a minute's wait; long enough that no live request of
 * these tests outlives it on a loaded machine. The default and its bound are test/unit/config.test.ts's.
 */
const LEASE_MS = 8_000;

/**
 * invoices-interface 4.2 across processes: two real servers on one PostgreSQL database, each serving the
 * tests' Idempotency-Key route (test/helpers/idempotency-route.ts) beside the app's own.
 */
describe.runIf(stores.includes('postgres'))('4.2 Idempotency-Key across two server processes on PostgreSQL', () => {
  const env = {
    DATABASE_URL: POSTGRES_URL,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    AUTH_FAILURE_LIMIT: '1000',
    IDEMPOTENCY_KEY_LEASE_MS: String(LEASE_MS),
  };
  const servers: ServerProcess[] = [];
  const db = new pg.Client({ connectionString: sessionUrlOf(POSTGRES_URL) });
  let urlKey = '';
  let token = '';

  beforeAll(async () => {
    servers.push(...(await Promise.all([spawnServer(env, { entry: ENTRY }), spawnServer(env, { entry: ENTRY })])));
    await db.connect();
    const a = servers[0]!.url;
    const operator = (await http(a, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
      .accessToken;
    urlKey = randomKey('idem');
    expect(
      (
        await http(a, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: urlKey, country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const app = (await http(a, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'idempotency' } })).body.data;
    expect((await http(a, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status).toBe(
      200,
    );
    token = (
      await http(a, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db.end();
  });

  async function post(server: ServerProcess, thingId: string, key: string, body: unknown) {
    const response = await fetch(`${server.url}/api/v1/businesses/${urlKey}/idem-things/${thingId}/documents`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: JSON.parse(text),
      replayed: response.headers.get('idempotent-replayed'),
      retryAfter: response.headers.get('retry-after'),
    };
  }

  /** When the running claim of `key` was made (ms), once one is stored. */
  const claimOf = async (key: string): Promise<number> => {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      const { rows } = await db.query('select created_at from idempotency_keys where key = $1 and status is null', [
        key,
      ]);
      if (rows[0]) return Number(rows[0].created_at);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no claim of ${key} within 20 s`);
  };
  const documents = async (thingId: string) =>
    Number(
      (
        await db.query('select count(*) as n from idem_test_documents where url_key = $1 and thing_id = $2', [
          urlKey,
          thingId,
        ])
      ).rows[0].n,
    );

  it('40 concurrent requests with one key, split over both processes: one document; one original, the rest replays or IN_PROGRESS', async () => {
    const thingId = randomKey('thing');
    const key = randomKey('key');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(servers[i % 2]!, thingId, key, { name: 'A', holdMs: 20 })),
    );
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null);
    expect(originals).toHaveLength(1);
    for (const a of answers.filter((x) => x !== originals[0])) {
      if (a.status === 201) expect([a.replayed, a.text]).toEqual(['true', originals[0]!.text]);
      else expect([a.status, a.body.data.error.code, a.retryAfter]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS', '1']);
    }
    expect(await documents(thingId)).toBe(1);
  }, 60_000);

  it('a process killed after its commit, before it answered: the retry on the other process gets the answer kept in that commit', async () => {
    const thingId = randomKey('thing');
    const key = randomKey('key');
    // The handler kills its own process (SIGKILL) right after the transaction that wrote the document commits.
    const body = { name: 'A', crashAfterCommit: true };
    await expect(post(servers[0]!, thingId, key, body)).rejects.toThrow();
    await servers[0]!.kill();
    // The same body again: were the handler to run, this process would die too.
    const retry = await post(servers[1]!, thingId, key, body);
    expect([retry.status, retry.replayed]).toEqual([201, 'true']);
    expect([retry.body.thingId, retry.body.number]).toEqual([thingId, 1]);
    expect(await documents(thingId)).toBe(1);
    servers[0] = await spawnServer(env, { entry: ENTRY });
  }, 60_000);

  it('a process killed while it holds a key: IN_PROGRESS on the other, then the key is forgotten when its lease ends (real time), and one document is made', async () => {
    const thingId = randomKey('thing');
    const key = randomKey('key');
    const body = { name: 'A', holdMs: 1000 };
    const doomed = post(servers[0]!, thingId, key, body).catch(() => 'killed');
    // Killed once its claim is stored (a fixed pause was sometimes too short on a busy machine: the
    // request had not claimed the key yet, and the other process then made the document at once); the
    // lease runs from the claim's own time.
    const claimedAt = await claimOf(key);
    await servers[0]!.kill();
    expect(await doomed).toBe('killed');
    const blocked = await post(servers[1]!, thingId, key, body);
    expect([blocked.status, blocked.body.data.error.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
    let answer = blocked;
    while (answer.status === 409 && Date.now() - claimedAt < LEASE_MS + 10_000) {
      await new Promise((r) => setTimeout(r, 250));
      answer = await post(servers[1]!, thingId, key, body);
    }
    const forgottenAfter = Date.now() - claimedAt;
    expect(answer.status).toBe(201);
    expect(answer.replayed).toBeNull();
    // The claim's time is the dead process's clock, read back from the row: a little either way.
    expect(forgottenAfter).toBeGreaterThanOrEqual(LEASE_MS - 2_000);
    expect(forgottenAfter).toBeLessThan(LEASE_MS + 6_000);
    expect(await documents(thingId)).toBe(1);
    servers[0] = await spawnServer(env, { entry: ENTRY });
  }, 60_000);
});
