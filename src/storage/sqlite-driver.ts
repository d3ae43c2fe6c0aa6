import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3, the build that fits the running Node. 12.x (compiled into node_modules at install)
 * aborts the process on Node 24 when a statement is freed after the environment is torn down (Node
 * 24's ObjectWrap registers a cleanup hook; "Assertion failed: (env) != nullptr" at every exit);
 * 13.x is built on Node-API, ships its own binaries in the package, and needs Node 22 or later.
 * Node 20 (past its end of life) keeps 12.x, an optional dependency, for as long as it is supported.
 * Same API, same file format. Loaded on first use, so that PostgreSQL deployments need neither.
 */
const require = createRequire(import.meta.url);
let driver: typeof BetterSqlite3 | undefined;

export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver) return driver;
  const modern = Number(process.versions.node.split('.')[0]) >= 22;
  try {
    driver = require(modern ? 'better-sqlite3-node22' : 'better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      modern
        ? 'the embedded store needs the package better-sqlite3-node22 (run npm ci)'
        : 'the embedded store on Node 20 needs the optional dependency better-sqlite3 12 (npm ci without --omit=optional); or run on Node 24 LTS',
    );
  }
  return driver;
}

export type SqliteDatabase = BetterSqlite3.Database;
