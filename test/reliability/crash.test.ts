// @module-tag pooled
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';

const stores = await availableStores();
const ROUNDS = 3;
const WRITERS = 8;

interface Tenant {
  urlKey: string;
  token: string;
}

async function seed(server: ServerProcess): Promise<Tenant> {
  const operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
    .body.accessToken;
  const urlKey = randomKey('crash');
  await http(server.url, 'POST', '/admin/v1/businesses', {
    token: operator,
    body: { name: urlKey, country: 'IN', urlKey },
  });
  const app = (await http(server.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'crash' } })).body
    .data;
  await http(server.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator });
  const token = (
    await http(server.url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
    })
  ).body.accessToken;
  return { urlKey, token };
}

/** Writers create clients until the server dies under them; answers are kept only when they were 201s. */
async function writeUntilKilled(
  server: ServerProcess,
  t: Tenant,
  round: number,
): Promise<Map<string, { body: unknown; answer: any }>> {
  const acknowledged = new Map<string, { body: unknown; answer: any }>();
  let stop = false;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const body = {
        clientId: `r${round}-w${w}-${i}`,
        name: `Crash ${round}.${w}.${i}`,
        email: `c${i}@crash.example`,
        gstin: '27AAPFU0939F1ZV',
        bankAccounts: [{ bankAccountNumber: String(i) }],
      };
      try {
        const r = await http(server.url, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, { token: t.token, body });
        if (r.status === 201) acknowledged.set(body.clientId, { body, answer: r.body.data });
      } catch {
        return; // the connection died with the server: this create was never acknowledged
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  // Killed once creates are acknowledged and more are in flight, with a deadline: a fixed wait can see
  // none acknowledged on a loaded CI line (the webhooks kill test's 800 ms did).
  const deadline = Date.now() + 30_000;
  await new Promise((r) => setTimeout(r, 1200));
  while (acknowledged.size < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await server.kill(); // SIGKILL mid-load
  stop = true;
  await Promise.all(writers);
  return acknowledged;
}

describe.each(stores)('crash durability: every acknowledged create survives SIGKILL [%s]', (store) => {
  it(`${ROUNDS} rounds of kill -9 under concurrent writers`, async () => {
    const env: Record<string, string> = {
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_FAILURE_LIMIT: '1000',
    };
    if (store === 'postgres') env.DATABASE_URL = POSTGRES_URL;
    else env.DATA_DIR = mkdtempSync(join(tmpdir(), 'crmkit-crash-'));
    let server = await spawnServer(env);
    const t = await seed(server);
    for (let round = 0; round < ROUNDS; round++) {
      const acknowledged = await writeUntilKilled(server, t, round);
      expect(acknowledged.size).toBeGreaterThan(0);
      server = await spawnServer(env);
      for (const [clientId, { body, answer }] of acknowledged) {
        const fetched = await http(server.url, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, {
          token: t.token,
        });
        expect(fetched.status, clientId).toBe(200);
        expect(fetched.body.data).toEqual(answer);
        const retry = await http(server.url, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
          token: t.token,
          body,
        });
        expect(retry.status, clientId).toBe(201);
        expect(retry.body.data.idempotent).toBe(true);
      }
    }
    await server.stop();
  }, 120_000);
});
