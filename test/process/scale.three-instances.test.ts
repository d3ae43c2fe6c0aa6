import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolState } from '../helpers/pgbouncer.js';
import { http, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';
import { POOL_SIZE, seedTenant, startCluster, type Cluster, type Tenant } from './three-instances.support.js';

const stores = await availableStores();
const LIMIT_MS = 1000;

/**
 * Issue 23: three instances on one PostgreSQL through a real PgBouncer in transaction mode, whose pool
 * (4 server connections) is smaller than the instances' pools together (3 × 5). The servers run with a
 * 60 s cache TTL, so only the change feed (LISTEN on the direct connection) can make B and C see a
 * change made through A within 1 s.
 */
describe.runIf(stores.includes('postgres'))('three instances through PgBouncer (transaction mode)', () => {
  let cluster: Cluster;
  let t: Tenant;
  const server = (i: number) => cluster.servers[i % 3]!;
  const statusOf = async (s: ServerProcess, bearer: string) =>
    (await http(s.url, 'GET', `/api/v1/businesses/${t.urlKey}/pipelines`, { token: bearer })).status;
  const admin = (method: string, path: string) =>
    http(server(0).url, method, `/admin/v1${path}`, { token: t.operator });

  /** After a change through A: A sees it at once, B and C within LIMIT_MS (polled); answers the slower delay. */
  async function seenByAll(probe: (s: ServerProcess) => Promise<boolean>): Promise<number> {
    const started = performance.now();
    expect(await probe(server(0)), 'the instance that made the change sees it at once').toBe(true);
    const waits = [server(1), server(2)].map(async (s) => {
      while (performance.now() - started < LIMIT_MS) {
        if (await probe(s)) return performance.now() - started;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`${s.url} did not see the change within ${LIMIT_MS} ms`);
    });
    return Math.max(...(await Promise.all(waits)));
  }

  beforeAll(async () => {
    cluster = await startCluster({ CACHE_TTL_MS: '60000' });
    t = await seedTenant(cluster.servers, 'scale');
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('an operator change through A (detach, attach again) is seen by B and C within 1 s', async () => {
    expect(await Promise.all(cluster.servers.map((s) => statusOf(s, t.token)))).toEqual([200, 200, 200]); // caches warm
    expect((await admin('DELETE', `/apps/${t.app.appId}/businesses/${t.urlKey}`)).status).toBe(200);
    expect(await seenByAll(async (s) => (await statusOf(s, t.token)) === 403)).toBeLessThan(LIMIT_MS);
    expect((await admin('PUT', `/apps/${t.app.appId}/businesses/${t.urlKey}`)).status).toBe(200);
    expect(await seenByAll(async (s) => (await statusOf(s, t.token)) === 200)).toBeLessThan(LIMIT_MS);
  });

  it('rotating the app secret through A: B and C refuse the old token and the old secret within 1 s, and take the new secret', async () => {
    const signIn = (s: ServerProcess, appSecret: string) =>
      http(s.url, 'POST', '/authentication', { body: { strategy: 'app-secret', appId: t.app.appId, appSecret } });
    // B and C have checked the old secret, so each holds the app and that secret in memory.
    for (const s of cluster.servers) expect((await signIn(s, t.app.appSecret)).status).toBe(200);
    const rotated = await admin('POST', `/apps/${t.app.appId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await seenByAll(
      async (s) => (await statusOf(s, t.token)) === 401 && (await signIn(s, t.app.appSecret)).status === 401,
    );
    t.app.appSecret = rotated.body.data.appSecret;
    for (const s of cluster.servers) {
      const fresh = await signIn(s, t.app.appSecret);
      expect(fresh.status).toBe(200);
      t.token = fresh.body.accessToken;
    }
    expect(await Promise.all(cluster.servers.map((s) => statusOf(s, t.token)))).toEqual([200, 200, 200]);
  });

  it('200 identical creates spread over three instances store one client: all 201, one not idempotent; PgBouncer shared at most 4 server connections', async () => {
    const clientId = randomKey('race');
    const body = { clientId, name: 'Raced Co', email: 'race@example.com', gstin: '27AAPFU0939F1ZV' };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        http(server(i).url, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body }),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    expect(results.filter((r) => r.body.data.idempotent !== true)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.createdAt)).size).toBe(1);
    const pool = await poolState(cluster.bouncer, cluster.database);
    expect(pool.servers).toBeLessThanOrEqual(POOL_SIZE);
    // The instances' pools opened more connections to the pooler than it has to PostgreSQL.
    expect(pool.clients).toBeGreaterThan(POOL_SIZE);
  }, 60_000);
});
