// @module-tag pooled
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { http } from '../helpers/process.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores, tempDataDir, type StoreName } from '../helpers/stores.js';
import { cli, ownLines, startProcess, type Running } from './ops.support.js';

const stores = await availableStores();
const storeEnv = (t: TestApp): Record<string, string> =>
  t.storeName === 'postgres' ? { DATABASE_URL: POSTGRES_URL } : { DATA_DIR: t.config.dataDir };

describe('ops: crmkit migrate and usage', () => {
  it('migrate creates the schema on an empty store, and running it twice is harmless', async () => {
    const dataDir = tempDataDir();
    for (let i = 0; i < 2; i++) {
      const result = await cli(['migrate'], { DATA_DIR: dataDir });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('schema is up to date');
    }
    expect(existsSync(join(dataDir, 'crmkit.sqlite'))).toBe(true);
  });

  it('an unknown command or a missing argument prints the usage and exits 1', async () => {
    const unknown = await cli(['frobnicate'], { DATA_DIR: tempDataDir() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(unknown.stderr).toContain('usage: crmkit');
    const missing = await cli(['backup'], { DATA_DIR: tempDataDir() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('expected one FILE');
  });

  it('backup and restore refuse PostgreSQL, pointing at its own tools', async () => {
    const result = await cli(['backup', '/tmp/never.sqlite'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pg_dump');
  });
});

describe.each(stores)('ops: crmkit reset-password and export [%s]', (storeName: StoreName) => {
  let t: TestApp;
  let tenant: Tenant;
  const clientIds = [randomKey('a'), randomKey('b'), randomKey('c')].sort();

  beforeAll(async () => {
    t = await createTestApp(storeName);
    tenant = await seedTenant(t.app, { customFieldsEnabled: true });
    for (const clientId of clientIds) {
      const created = await call(t.app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
        token: tenant.token,
        body: { clientId, name: `Export ${clientId}`, email: 'x@example.com' },
      });
      expect(created.status).toBe(201);
    }
    expect(
      (
        await call(t.app, 'POST', `/admin/v1/businesses/${tenant.urlKey}/clients/${clientIds[1]}/archive`, {
          token: tenant.operator,
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => t?.close());

  it('reset-password prints a new password once; it signs in and the old one stops working', async () => {
    // Never the shared test operator: other suites sign in with it at the same time.
    const email = `${randomKey('reset')}@example.com`;
    const oldPassword = `old-${randomKey()}`;
    expect(
      (
        await call(t.app, 'POST', '/admin/v1/operators', {
          token: tenant.operator,
          body: { email, password: oldPassword },
        })
      ).status,
    ).toBe(201);
    const result = await cli(['reset-password', email.toUpperCase()], storeEnv(t));
    expect(result.code).toBe(0);
    const password = result.stdout.trim();
    expect(password).toMatch(/^\S{16,}$/);
    expect(
      (await call(t.app, 'POST', '/authentication', { body: { strategy: 'local', email, password } })).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'POST', '/authentication', { body: { strategy: 'local', email, password: oldPassword } }))
        .status,
    ).toBe(401);
  });

  it('reset-password of an unknown operator exits 1 naming it', async () => {
    const result = await cli(['reset-password', 'nobody-here@example.com'], storeEnv(t));
    expect(result.code).toBe(1);
    expect(ownLines(result.stderr)).toEqual(['crmkit: no operator with e-mail nobody-here@example.com']);
  });

  it('export prints every client of the business as one JSON line, in the public shape plus status', async () => {
    const result = await cli(['export', tenant.urlKey], storeEnv(t));
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.clientId)).toEqual(clientIds);
    expect(lines.map((l) => l.status)).toEqual(['active', 'archived', 'active']);
    const live = await call(t.app, 'GET', `/api/v1/businesses/${tenant.urlKey}/clients/${clientIds[0]}`, {
      token: tenant.token,
    });
    expect({ ...lines[0], status: undefined }).toEqual({ ...live.body.data, status: undefined });
  });

  it('export of an unknown business exits 1', async () => {
    const result = await cli(['export', 'no-such-business-key'], storeEnv(t));
    expect(result.code).toBe(1);
    expect(ownLines(result.stderr)).toEqual(['crmkit: no business with urlKey no-such-business-key']);
  });
});

/** A business with an app and a token, set up through a real server's HTTP interface. */
async function seedOverHttp(url: string) {
  const operator = (await http(url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
    .accessToken;
  const urlKey = randomKey('bk');
  expect(
    (
      await http(url, 'POST', '/admin/v1/businesses', {
        token: operator,
        body: { name: urlKey, country: 'IN', urlKey },
      })
    ).status,
  ).toBe(201);
  const app = (await http(url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'backup' } })).body.data;
  expect((await http(url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status).toBe(
    200,
  );
  const token = (
    await http(url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
    })
  ).body.accessToken;
  return { urlKey, token };
}

describe('ops: crmkit backup and restore of the embedded store', () => {
  const admin = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password };
  const dataDir = tempDataDir();
  const backupFile = join(tempDataDir(), 'crmkit-backup.sqlite');
  const WRITERS = 4;
  let server: Running;
  /** Every create the server answered 201, with its answer; and those answered before the backup began. */
  const acknowledged = new Map<string, unknown>();
  let before = new Map<string, unknown>();
  let urlKey = '';
  let token = '';

  beforeAll(async () => {
    server = await startProcess('src/main.ts', [], { DATA_DIR: dataDir, ...admin });
    ({ urlKey, token } = await seedOverHttp(server.url));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it(`a backup taken while ${WRITERS} writers create clients is intact and holds every write answered before it began`, async () => {
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const clientId = `w${w}-${i}-${randomKey()}`;
        const body = {
          clientId,
          name: `Writer ${clientId}`,
          email: `${clientId}@example.com`,
          gstin: '27AAPFU0939F1ZV',
          bankAccounts: [{ bankAccountNumber: String(i) }],
        };
        const response = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/clients`, { token, body });
        expect(response.status).toBe(201);
        acknowledged.set(clientId, response.body.data);
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    while (acknowledged.size < 40) await new Promise((r) => setTimeout(r, 20));
    before = new Map(acknowledged);
    const result = await cli(['backup', backupFile], { DATA_DIR: dataDir });
    const duringBackup = acknowledged.size - before.size;
    writing = false;
    await Promise.all(writers);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/backed up \d+ pages/);
    expect(duringBackup).toBeGreaterThan(0); // the server kept writing during the backup
    expect(existsSync(`${backupFile}-wal`)).toBe(false);
    const copy = new (sqliteDriver())(backupFile, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      copy.close();
    }
  }, 60_000);

  it('restore refuses while a server has the store open', async () => {
    const result = await cli(['restore', backupFile], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('in use by another process');
    expect(
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/clients/${[...before.keys()][0]}`, { token }))
        .status,
    ).toBe(200);
  });

  it('restore refuses a file that is not a crmkit database', async () => {
    const result = await cli(['restore', 'package.json'], { DATA_DIR: tempDataDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not a readable SQLite database|cannot be opened/);
  });

  it('restored into a stopped store, every client answered before the backup reads back exactly as answered; later ones are whole or absent', async () => {
    const restoredDir = tempDataDir();
    const restored = await cli(['restore', backupFile], { DATA_DIR: restoredDir });
    expect(restored.code).toBe(0);
    const copy = await startProcess('src/main.ts', [], { DATA_DIR: restoredDir });
    try {
      for (const [clientId, answer] of acknowledged) {
        const response = await http(copy.url, 'GET', `/api/v1/businesses/${urlKey}/clients/${clientId}`, { token });
        if (before.has(clientId)) {
          expect(response.status, clientId).toBe(200);
          expect(response.body.data).toEqual(answer);
        } else if (response.status === 200) {
          expect(response.body.data).toEqual(answer); // written during the backup and caught by it: complete
        } else {
          expect(response.status, clientId).toBe(404);
        }
      }
    } finally {
      expect(await copy.stop()).toBe(0);
    }
    const exported = await cli(['export', urlKey], { DATA_DIR: restoredDir });
    const ids = new Set(
      exported.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { clientId: string }).clientId),
    );
    for (const clientId of before.keys()) expect(ids.has(clientId)).toBe(true);
    for (const clientId of ids) expect(acknowledged.has(clientId), `${clientId} was never acknowledged`).toBe(true);
  }, 90_000);

  it('restore over the stopped original keeps the replaced file beside it', async () => {
    expect(await server.stop()).toBe(0);
    const result = await cli(['restore', backupFile], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(existsSync(join(dataDir, 'crmkit.sqlite.before-restore'))).toBe(true);
  });
});
