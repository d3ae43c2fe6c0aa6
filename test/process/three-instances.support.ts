import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { POSTGRES_URL, TEST_ADMIN, sessionUrlOf } from '../helpers/stores.js';

/** Server connections PgBouncer may open: fewer than the three instances' pools together (3 × 5). */
export const POOL_SIZE = 4;
export const INSTANCE_POOL = 5;

export interface Cluster {
  bouncer: PgBouncer;
  database: string;
  /** The instances' environment for the database: DATABASE_URL (the pooler) and DATABASE_DIRECT_URL. */
  databaseEnv: Record<string, string>;
  servers: ServerProcess[];
  stop(): Promise<void>;
}

/**
 * The deployment docs/scaling.md describes, on one machine: PostgreSQL, a PgBouncer in transaction mode
 * in front of it, and three crmkit instances whose queries go through the pooler while their change
 * feed and migrations take the direct connection.
 */
export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const direct = sessionUrlOf(POSTGRES_URL);
  const database = new URL(direct).pathname.slice(1);
  const bouncer = await startPgBouncer({ upstream: direct, poolSize: POOL_SIZE });
  const databaseEnv = { DATABASE_URL: bouncer.url(database), DATABASE_DIRECT_URL: direct };
  const env = {
    ...databaseEnv,
    PG_POOL_SIZE: String(INSTANCE_POOL),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    AUTH_FAILURE_LIMIT: '100000',
    ...extraEnv,
  };
  const servers: ServerProcess[] = [];
  try {
    // One at a time: the first migrates (a no-op on the shared test database, but under the lock all the same).
    for (let i = 0; i < 3; i++) servers.push(await spawnServer(env, { timeoutMs: 60_000 }));
  } catch (error) {
    await Promise.all(servers.map((s) => s.kill()));
    await bouncer.stop();
    throw error;
  }
  return {
    bouncer,
    database,
    databaseEnv,
    servers,
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await bouncer.stop();
    },
  };
}

export interface Tenant {
  urlKey: string;
  operator: string;
  app: { appId: string; appSecret: string };
  token: string;
}

/** A business with an attached app, made through the first instance; the app token is signed in through the last. */
export async function seedTenant(servers: ServerProcess[], prefix: string): Promise<Tenant> {
  const [a] = servers;
  const operator = (await http(a!.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
    .accessToken;
  const urlKey = randomKey(prefix);
  const admin = (method: string, path: string, body?: unknown) =>
    http(a!.url, method, `/admin/v1${path}`, { token: operator, ...(body !== undefined && { body }) });
  if ((await admin('POST', '/businesses', { name: urlKey, country: 'IN', urlKey })).status !== 201)
    throw new Error('business not created');
  const app = (await admin('POST', '/apps', { name: prefix })).body.data;
  if ((await admin('PUT', `/apps/${app.appId}/businesses/${urlKey}`)).status !== 200)
    throw new Error('app not attached');
  const signIn = await http(servers.at(-1)!.url, 'POST', '/authentication', {
    body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
  });
  return { urlKey, operator, app, token: signIn.body.accessToken };
}
