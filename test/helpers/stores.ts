import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { testConfig, type Config } from '../../src/config.js';

export type StoreName = 'sqlite' | 'postgres';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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
  if (await postgresReachable) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is unreachable at ${POSTGRES_URL} and CI=true: refusing to skip`);
  console.warn(`\n*** PostgreSQL unreachable at ${POSTGRES_URL}: SKIPPING the PostgreSQL half of the suite ***\n`);
  return ['sqlite'];
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'crmkit-test-'));
}

export const TEST_ADMIN = { email: 'operator@crmkit.test', password: 'operator-password-for-tests' };

export function configFor(store: StoreName, overrides: Partial<Config> = {}): Config {
  return testConfig({
    port: 0,
    databaseUrl: store === 'postgres' ? POSTGRES_URL : null,
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
  drop(): Promise<void>;
}

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
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
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`create database ${name}`);
  return { url: POSTGRES_URL.replace(/\/[^/]*$/, `/${name}`), drop: () => asAdmin(`drop database if exists ${name} with (force)`) };
}
