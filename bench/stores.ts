/** The bench's server on each store: started as `npm start` starts it, on a fresh embedded store or a fresh PostgreSQL schema. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, stopChild } from './anchors.js';
import { SERVER_FLAGS, serverEnv, waitFor } from './server.js';

export type Store = 'sqlite' | 'postgres';

/** BENCH_DATABASE_URL: the database the PostgreSQL half uses (its public schema is emptied first). */
export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crmkit_bench';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** An empty public schema in the bench database (created when missing); false when PostgreSQL is unreachable. */
export async function freshPostgres(): Promise<boolean> {
  const reset = (client: pg.Client) => client.query('drop schema if exists public cascade; create schema public');
  try {
    await withClient(DATABASE_URL, reset);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') return false;
  }
  const name = new URL(DATABASE_URL).pathname.slice(1);
  try {
    await withClient(DATABASE_URL.replace(/\/[^/?]*(\?|$)/, '/postgres$1'), (client) =>
      client.query(`create database "${name.replace(/"/g, '')}"`),
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * After seeding, as pgbench vacuums before it runs: the statistics and visibility map that autovacuum
 * would make within a minute or two, made now, and the seed's dirty pages written out, rather than in
 * whichever rounds happen to run then.
 */
export async function settlePostgres(): Promise<void> {
  await withClient(DATABASE_URL, async (client) => {
    await client.query('vacuum analyze');
    await client.query('checkpoint');
  });
}

/** PostgreSQL's backends connected to the bench database (their CPU time is spent on our behalf). */
export async function postgresBackends(): Promise<number[]> {
  try {
    return await withClient(DATABASE_URL, async (client) => {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return rows.map((r) => r.pid);
    });
  } catch {
    return [];
  }
}

export interface Server {
  url: string;
  pid: number;
  stop: () => Promise<void>;
  /** The embedded store's directory, for a second process on the same data. */
  dataDir?: string;
}

/**
 * The built server, one process; BENCH_PROFILE=DIR writes its V8 CPU profile there (bench/experiments/profile-summary.mjs).
 * BENCH_SERVER_ENTRY=FILE runs that build's main.js instead (the smoke test: the test run's own build of src/,
 * test/helpers/server-build.ts; not for figures), and BENCH_FROM_SOURCE=1 src/main.ts through tsx.
 */
export async function startServer(
  store: Store,
  extra: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<Server> {
  const port = await freePort();
  const dataDir = store === 'sqlite' ? (extra.dataDir ?? mkdtempSync(join(tmpdir(), 'crmkit-bench-'))) : undefined;
  const env: Record<string, string> = {
    ...serverEnv(port),
    WORKERS: '1',
    ...(store === 'postgres' ? { DATABASE_URL, PG_POOL_SIZE: '20' } : { DATA_DIR: dataDir! }),
    ...extra.env,
  };
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const entry = process.env.BENCH_SERVER_ENTRY
    ? [process.env.BENCH_SERVER_ENTRY]
    : process.env.BENCH_FROM_SOURCE
      ? ['--import', 'tsx', 'src/main.ts']
      : ['dist/main.js'];
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...profile, ...entry], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/healthz`, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, pid: child.pid!, stop: () => stopChild(child), ...(dataDir && { dataDir }) };
}

/** The server's resident memory, and its two parts: anonymous (heap, buffers) and file-backed (SQLite's memory map, code). */
export function rssMb(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') };
}
