// @module-tag isolated
import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import pg from 'pg';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { call, describeEachStore, type TestApp } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

const TTL_MS = 300;

/** better-sqlite3's statement class: statements are prepared once and cached, so executions are what counts. */
const Statement = Object.getPrototypeOf(new (sqliteDriver())(':memory:').prepare('select 1')) as {
  all: () => unknown;
  run: () => unknown;
};

/** Counts every statement executed by either store driver while `run` runs. */
async function countQueries(run: () => Promise<unknown>): Promise<number> {
  const spies = [vi.spyOn(Statement, 'all'), vi.spyOn(Statement, 'run'), vi.spyOn(pg.Client.prototype, 'query')];
  try {
    await run();
    return spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const config = (name: string) => ({ pipelines: [{ name, stages: [{ name: 'New', state: 'NEW' }] }], stageReasons: [] });

/** A tenant seeded for the suite, and its public GET pipelines. */
function tenantSuite(ctx: () => TestApp) {
  const tenant: { t?: Tenant } = {};
  beforeAll(async () => {
    tenant.t = await seedTenant(ctx().app);
  });
  afterEach(() => vi.restoreAllMocks());
  const t = () => tenant.t!;
  const list = (query = '') =>
    call(ctx().app, 'GET', `/api/v1/businesses/${t().urlKey}/pipelines${query}`, { token: t().token });
  return { t, list };
}

// A TTL far longer than the test, so that only a query the cache should have saved can count.
describeEachStore(
  'decisions "Freshness and caches": GET pipelines from memory',
  (ctx) => {
    const { t, list } = tenantSuite(ctx);

    it('the spy sees store queries at all (so zero below means zero)', async () => {
      const n = await countQueries(() =>
        call(ctx().app, 'GET', `/admin/v1/businesses/${t().urlKey}/pipelines`, { token: t().operator }),
      );
      expect(n).toBeGreaterThan(0);
    });

    it('a cached GET, either includeArchived value, does zero store queries (auth included)', async () => {
      await call(ctx().app, 'PUT', `/admin/v1/businesses/${t().urlKey}/pipelines`, {
        token: t().operator,
        body: config('Cached'),
      });
      await list();
      const n = await countQueries(async () => {
        for (let i = 0; i < 20; i++) {
          expect((await list()).status).toBe(200);
          expect((await list('?includeArchived=true')).status).toBe(200);
        }
      });
      expect(n).toBe(0);
    });
  },
  { cacheTtlMs: 60_000 },
);

describeEachStore(
  'decisions "Freshness and caches": GET pipelines, the TTL as the safety net',
  (ctx) => {
    const { t, list } = tenantSuite(ctx);

    it('the TTL is the safety net: a write nobody announced is served within the TTL', async () => {
      await call(ctx().app, 'PUT', `/admin/v1/businesses/${t().urlKey}/pipelines`, {
        token: t().operator,
        body: config('Before'),
      });
      expect((await list()).body.data[0].pipelines[0].name).toBe('Before');
      // Written behind the service's back: no change is published, so only the TTL can end the old entry.
      const stored = (
        await call(ctx().app, 'GET', `/admin/v1/businesses/${t().urlKey}/pipelines`, { token: t().operator })
      ).body.data[0];
      stored.pipelines[0].name = 'Silent';
      await ctx().store.data.putPipelineConfig(t().urlKey, stored, Date.now());
      // (That the old entry is served meanwhile is shown by the zero-query test above; asserting it here
      // would race the TTL on a loaded machine.)
      await new Promise((r) => setTimeout(r, TTL_MS + 50));
      expect((await list()).body.data[0].pipelines[0].name).toBe('Silent');
    });
  },
  { cacheTtlMs: TTL_MS },
);
