// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';

const stores = await availableStores();

const config = (name: string) => ({
  pipelines: [{ name, isPrimary: true, stages: [{ name: 'New', state: 'NEW' }] }],
  stageReasons: [],
});

/**
 * docs/pipelines.md "Caching and freshness": a change through one process is visible at once through it
 * and within 1 second through every other. The servers run with a 60 s cache TTL, so only the push
 * (PostgreSQL NOTIFY) can make the second process see it in time.
 */
describe.runIf(stores.includes('postgres'))(
  'pipelines: an operator change through one process, read through another',
  () => {
    let servers: ServerProcess[] = [];
    let urlKey = '';
    let token = '';
    let operator = '';

    beforeAll(async () => {
      const env = {
        DATABASE_URL: POSTGRES_URL,
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        AUTH_FAILURE_LIMIT: '1000',
        CACHE_TTL_MS: '60000',
      };
      servers = await Promise.all([spawnServer(env), spawnServer(env)]);
      const [a] = servers;
      operator = (await http(a!.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
        .accessToken;
      urlKey = randomKey('pipes');
      expect(
        (
          await http(a!.url, 'POST', '/admin/v1/businesses', {
            token: operator,
            body: { name: urlKey, country: 'IN', urlKey },
          })
        ).status,
      ).toBe(201);
      const app = (await http(a!.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'two-processes' } }))
        .body.data;
      expect(
        (await http(a!.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status,
      ).toBe(200);
      token = (
        await http(a!.url, 'POST', '/authentication', {
          body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
        })
      ).body.accessToken;
    }, 90_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
    });

    const nameVia = async (server: ServerProcess) => {
      const r = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines`, { token });
      expect(r.status).toBe(200);
      return r.body.data[0].pipelines[0]?.name as string | undefined;
    };

    /** Polls until `server` answers `expected`; answers how long after `started` that was. */
    async function msUntilVisible(
      server: ServerProcess,
      expected: string,
      started: number,
      limitMs: number,
    ): Promise<number> {
      while (performance.now() - started < limitMs) {
        if ((await nameVia(server)) === expected) return performance.now() - started;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`${server.url} still did not serve ${expected} after ${limitMs} ms`);
    }

    it('a PUT through A is served by A at once and by B within 1 second, round after round, both ways', async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const delays: number[] = [];
      for (let round = 0; round < 6; round++) {
        const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
        // Both caches hold the previous configuration before the change.
        const previous = await nameVia(reader);
        expect(await nameVia(writer)).toBe(previous);
        const name = `Round ${round}`;
        const put = await http(writer.url, 'PUT', `/admin/v1/businesses/${urlKey}/pipelines`, {
          token: operator,
          body: config(name),
        });
        expect(put.status).toBe(200);
        const changedAt = performance.now();
        expect(await nameVia(writer)).toBe(name);
        delays.push(await msUntilVisible(reader, name, changedAt, 1000));
      }
      expect(Math.max(...delays)).toBeLessThan(1000);
      console.info(
        `pipelines: cross-process visibility after a PUT, ms: ${delays.map((d) => d.toFixed(1)).join(', ')}`,
      );
    }, 60_000);
  },
);
