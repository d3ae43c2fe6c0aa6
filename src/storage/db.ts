import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { budgetUnitsOfLeadData } from '../validation/money-units.js';
import { leadWordsJson } from '../validation/search-words.js';
import { sqliteDriver } from './sqlite-driver.js';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PreparingClient } from './postgres-client.js';
import type { Database } from './schema.js';
import { EmbeddedSqliteDialect } from './sqlite-dialect.js';

export type StoreKind = 'postgres' | 'sqlite';

export interface OpenDatabase {
  db: Kysely<Database>;
  kind: StoreKind;
  /** PostgreSQL only: a session-holding connection string for the change-feed's LISTEN and the migration lock. */
  postgresUrl: string | null;
  sqlitePath: string | null;
  /** PostgreSQL only: connections in the pool, idle ones, and callers waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

/** pg returns int8 as text and DATE as local midnight; our columns are epoch milliseconds and counts. */
function postgresTypes(): pg.CustomTypesConfig {
  const parsers = new Map<number, (value: string) => unknown>([
    [20, (v) => Number(v)], // int8
    [1700, (v) => Number(v)], // numeric
    [1082, (v) => v], // date stays 'YYYY-MM-DD'
  ]);
  return {
    getTypeParser: ((oid: number, format?: string) =>
      parsers.get(oid) ?? pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * `url` carries the queries (directly or through a pooler); `directUrl`, when the queries go through a
 * transaction-mode pooler, what needs a session of its own. `prepared`: named statements, which only a
 * connection held for the session (or a pooler that tracks them) can carry.
 */
export function openPostgres(
  url: string,
  poolSize: number,
  options: { directUrl?: string | null; prepared?: boolean } = {},
): OpenDatabase {
  const Client = (options.prepared ?? true) ? PreparingClient : pg.Client;
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: postgresTypes(), Client });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    kind: 'postgres',
    postgresUrl: options.directUrl ?? url,
    sqlitePath: null,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Address space, not memory (the kernel's page cache holds the pages); SQLite caps it at 2 GB. */
const SQLITE_MMAP_BYTES = 2 * 1024 ** 3;

export function openSqlite(dataDir: string): OpenDatabase {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'crmkit.sqlite');
  const database = new (sqliteDriver())(path);
  // WAL + synchronous=FULL: an answered write is on disk (fsynced) before the answer goes out.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Reads through a memory map of the file instead of a read() into SQLite's own 16 MB cache for every
  // page that is not in it: a point read then costs the same on 500,000 clients as on 10,000.
  // Read-only mapping: writes still go through the WAL.
  database.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  // The word table's triggers split a lead's text with the query side's own function (migration 007-lead-words).
  database.function('crm_lead_words', { deterministic: true }, (subject, details, names) =>
    leadWordsJson(subject as string | null, details as string | null, names as string | null),
  );
  // The budget sums' triggers read a lead's amount exactly, from its JSON text (migration 020-lead-budget-sums).
  database.function('crm_budget_units', { deterministic: true }, (data) =>
    budgetUnitsOfLeadData(data as string | null),
  );
  return {
    db: new Kysely<Database>({ dialect: new EmbeddedSqliteDialect(database) }),
    kind: 'sqlite',
    postgresUrl: null,
    sqlitePath: path,
  };
}
