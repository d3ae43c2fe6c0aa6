import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN } from '../helpers/stores.js';

/**
 * What the invoice race files share (invoices.concurrency, invoices.numbering-races): the stores they run
 * on, two server processes on one of them, and a business ready to invoice.
 */

/** PostgreSQL (and, in the pooled pass, through PgBouncer) and one SQLite file in a folder of its own. */
export const raceStores = (folderPrefix: string) =>
  [
    { store: 'postgres', env: (): Record<string, string> => ({ DATABASE_URL: POSTGRES_URL }) },
    { store: 'sqlite', env: (): Record<string, string> => ({ DATA_DIR: mkdtempSync(join(tmpdir(), folderPrefix)) }) },
  ] as const;

/**
 * Two server processes on the store `storeEnv` names, started before the calling describe block's tests
 * and stopped after them, with the operator signed in. `on(i)` alternates between the two.
 */
export function twoServers(storeEnv: () => Record<string, string>) {
  const env: Record<string, string> = {
    ...storeEnv(),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    AUTH_FAILURE_LIMIT: '1000',
  };
  let servers: ServerProcess[] = [];
  let operator = '';
  beforeAll(async () => {
    // One after the other: the second finds the first's migrations done (SQLite has no migration lock to wait on).
    servers = [await spawnServer(env)];
    servers.push(await spawnServer(env));
    const signIn = await http(servers[0]!.url, 'POST', '/authentication', {
      body: { strategy: 'local', ...TEST_ADMIN },
    });
    operator = signIn.body.accessToken;
  }, 90_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
  });
  return {
    on: (i: number) => servers[i % 2]!.url,
    operator: () => operator,
    all: <T>(count: number, make: (i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: count }, (_, i) => make(i))),
  };
}

/**
 * A business of its own on `url` (its series starting at INV-0001), its billing details saved (the
 * seller in state 29, which invoicing needs; saving them saves the default numbering), and an app linked
 * to it before either process has read it (no cached link to wait for), signed in.
 */
export async function invoicingBusiness(url: string, operator: string, prefix: string) {
  const urlKey = randomKey(prefix);
  const business = { name: urlKey, country: 'IN', urlKey };
  expect((await http(url, 'POST', '/admin/v1/businesses', { token: operator, body: business })).status).toBe(201);
  const settings = { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] };
  const admin = `/admin/v1/businesses/${urlKey}`;
  expect((await http(url, 'PUT', `${admin}/invoice-settings`, { token: operator, body: settings })).status).toBe(200);
  const app = (await http(url, 'POST', '/admin/v1/apps', { token: operator, body: { name: urlKey } })).body.data;
  const linked = await http(url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator });
  expect(linked.status).toBe(200);
  const secret = { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret };
  const token = (await http(url, 'POST', '/authentication', { body: secret })).body.accessToken as string;
  return { urlKey, token };
}
