// @module-tag pooled
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/storage/migrate.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { availableStores, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';

const stores = await availableStores();

describe.runIf(stores.includes('postgres'))('two processes start at once on a fresh PostgreSQL database', () => {
  let database: PrivateDatabase | undefined;
  let servers: ServerProcess[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  it('migrations do not collide, and a token issued by one process is accepted by the other', async () => {
    database = await privatePostgresDatabase('crmkit_fresh');
    const { url } = database;
    const env = { DATABASE_URL: url, ADMIN_EMAIL: 'first@crmkit.test', ADMIN_PASSWORD: 'first-operator-password' };
    servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    const [a, b] = servers as [ServerProcess, ServerProcess];

    const login = await http(a.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: 'first@crmkit.test', password: 'first-operator-password' },
    });
    expect(login.status).toBe(200);
    const operator = login.body.accessToken;
    expect((await http(b.url, 'GET', '/admin/v1/businesses', { token: operator })).status).toBe(200);

    expect(
      (
        await http(a.url, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: 'Fresh', country: 'IN', urlKey: 'fresh-co' },
        })
      ).status,
    ).toBe(201);
    const created = (await http(b.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'fresh app' } })).body
      .data;
    expect(
      (await http(a.url, 'PUT', `/admin/v1/apps/${created.appId}/businesses/fresh-co`, { token: operator })).status,
    ).toBe(200);
    const token = (
      await http(a.url, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: created.appId, appSecret: created.appSecret },
      })
    ).body.accessToken;
    const fromB = await http(b.url, 'GET', '/api/v1/businesses/fresh-co/pipelines', { token });
    expect(fromB.status).toBe(200);
    expect(fromB.body.data).toEqual([{ pipelines: [], stageReasons: [] }]);

    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const operators = await check.query('select count(*)::int as n from operators');
    const migrations = await check.query('select name from kysely_migration order by name');
    const keys = await check.query('select count(*)::int as n from signing_keys');
    await check.end();
    expect(operators.rows[0].n).toBe(1);
    // Each migration ran once (two processes raced for it), and the last is the newest this build knows.
    const names = migrations.rows.map((r: { name: string }) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.at(-1)).toBe(SCHEMA_VERSION);
    expect(keys.rows[0].n).toBe(1);
  }, 90_000);
});
