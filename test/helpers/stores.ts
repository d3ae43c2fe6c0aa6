import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { testConfig, type Config } from '../../src/config.js';
import type { Database } from '../../src/storage/schema.js';

export type StoreName = 'sqlite' | 'postgres';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Set when TEST_DATABASE_URL goes through PgBouncer in transaction mode (scripts/test.mjs's second pass):
 * the same server reached directly, for what needs a session (LISTEN, the migration lock, admin statements).
 */
export const POSTGRES_DIRECT_URL = process.env.TEST_DATABASE_DIRECT_URL || null;

/** The direct counterpart of a test database URL (same database name, direct server), or null with no pooler. */
export function directUrlOf(url: string): string | null {
  if (!POSTGRES_DIRECT_URL) return null;
  return POSTGRES_DIRECT_URL.replace(/\/[^/]*$/, url.slice(url.lastIndexOf('/')));
}

/** A spawned server's environment: behind the test PgBouncer, DATABASE_URL's direct counterpart is added. */
export function withDirectUrl(env: Record<string, string>): Record<string, string> {
  const direct = env.DATABASE_URL && env.DATABASE_DIRECT_URL === undefined ? directUrlOf(env.DATABASE_URL) : null;
  return direct ? { ...env, DATABASE_DIRECT_URL: direct } : env;
}

/** A URL on which a test may hold a session of its own (prepared statements, a transaction across calls). */
export function sessionUrlOf(url: string): string {
  return directUrlOf(url) ?? url;
}

let postgresReachable: Promise<boolean> | undefined;

async function probePostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The stores this run tests on. With CI=true an unreachable PostgreSQL is a failure, not a skip. */
export async function availableStores(): Promise<StoreName[]> {
  postgresReachable ??= probePostgres();
  // The pooled pass (scripts/test.mjs) tests PostgreSQL alone: the embedded store ran in the first pass.
  if (process.env.TEST_STORES === 'postgres') {
    if (await postgresReachable) return ['postgres'];
    throw new Error(`PostgreSQL is unreachable at ${POSTGRES_URL} and TEST_STORES=postgres`);
  }
  if (await postgresReachable) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true')
    throw new Error(`PostgreSQL is unreachable at ${POSTGRES_URL} and CI=true: refusing to skip`);
  console.warn(`\n*** PostgreSQL unreachable at ${POSTGRES_URL}: SKIPPING the PostgreSQL half of the suite ***\n`);
  return ['sqlite'];
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'crmkit-test-'));
}

export const TEST_ADMIN = { email: 'operator@crmkit.test', password: 'operator-password-for-tests' };

export function configFor(store: StoreName, overrides: Partial<Config> = {}): Config {
  const databaseUrl =
    overrides.databaseUrl !== undefined ? overrides.databaseUrl : store === 'postgres' ? POSTGRES_URL : null;
  return testConfig({
    databaseDirectUrl: databaseUrl ? directUrlOf(databaseUrl) : null,
    port: 0,
    databaseUrl,
    dataDir: store === 'sqlite' ? tempDataDir() : './data-unused',
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
    // Tests hammer /authentication from one address; the limiter has its own tests with a low limit.
    authFailureLimit: 1000,
    pgPoolSize: 5,
    // Deliveries only where a test asks for them: a worker of another suite on the shared database
    // would claim that suite's events, with its own settings.
    webhooksDeliver: false,
    ...overrides,
  });
}

export interface PrivateDatabase {
  url: string;
  /** The same database without the pooler when there is one (else `url`): for sessions of the test's own. */
  sessionUrl: string;
  drop(): Promise<void>;
}

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_DIRECT_URL ?? POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, empty database of its own on the test PostgreSQL server: for tests that start from nothing
 * (migrations) or whose statements reach beyond their own rows (pruning by time). `drop` removes it.
 */
export async function privatePostgresDatabase(prefix: string): Promise<PrivateDatabase> {
  // TEST_DATABASE_PREFIX: a prefix of one's own on a shared server (the databases are dropped after).
  const name = `${process.env.TEST_DATABASE_PREFIX ?? ''}${prefix}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`create database ${name}`);
  const url = POSTGRES_URL.replace(/\/[^/]*$/, `/${name}`);
  return { url, sessionUrl: sessionUrlOf(url), drop: () => asAdmin(`drop database if exists ${name} with (force)`) };
}

/**
 * A business row written straight into the store (an Indian one, no settings): for storage tests that
 * fill tables in bulk without the API. Returns its row id.
 */
export async function insertBareBusiness(db: Kysely<Database>, urlKey: string): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('businesses')
    .values({
      url_key: urlKey,
      name: urlKey,
      country: 'IN',
      currency: 'INR',
      custom_fields_enabled: 0,
      time_zone: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
