import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3, the build that fits the running Node. 12.x (compiled into node_modules at install)
 * aborts the process on Node 24 when a statement is freed after the environment is torn down (Node
 * 24's ObjectWrap registers a cleanup hook; "Assertion failed: (env) != nullptr" at every exit);
 * 13.x is built on Node-API, ships its own binaries in the package, and needs Node 22 or later.
 * Node 20 (past its end of life) keeps 12.x for as long as it is supported. Same API, same file format.
 */
const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

export const SQLite = require(major >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3') as typeof BetterSqlite3;
export type SqliteDatabase = BetterSqlite3.Database;
