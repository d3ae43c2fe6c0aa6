import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteDriver, type SqliteDatabase } from '../storage/sqlite-driver.js';

export class BackupError extends Error {}

/** The embedded store's file, named as storage/db.ts names it. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'crmkit.sqlite');
}

/** A readable SQLite file that holds a crmkit schema and passes SQLite's own integrity check. */
function checkCrmkitDatabase(file: string): void {
  let db: SqliteDatabase;
  try {
    db = new (sqliteDriver())(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database (${(error as Error).message})`);
  }
  try {
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${file} fails SQLite's integrity check: ${String(result)}`);
    const hasSchema = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!hasSchema) throw new BackupError(`${file} is not a crmkit database (no migration table)`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable SQLite database (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

/** The copy keeps the store's WAL mode; a backup is easier to move as one file with no -wal or -shm beside it. */
function selfContained(file: string): void {
  const db = new (sqliteDriver())(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * An online backup through SQLite's backup API: consistent even while a server writes (pages changed
 * meanwhile are copied again). Written beside the target and renamed, so a failed run leaves no half file.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<{ pages: number }> {
  const source = sqliteFile(dataDir);
  if (!existsSync(source)) throw new BackupError(`no embedded store at ${source} (check DATA_DIR)`);
  const partial = `${target}.partial`;
  const db = new (sqliteDriver())(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const progress = await db.backup(partial);
    selfContained(partial);
    checkCrmkitDatabase(partial);
    renameSync(partial, target);
    return { pages: progress.totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/**
 * SQLite removes the write-ahead log when the last connection closes. If it is still there after we
 * open, checkpoint and close, another process (a running server) holds the store open.
 */
function refuseWhileInUse(file: string): void {
  if (!existsSync(file)) return;
  const db = new (sqliteDriver())(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 2000');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  if (existsSync(`${file}-wal`)) {
    throw new BackupError(`the embedded store ${file} is in use by another process: stop the server before restoring`);
  }
}

/** Replaces the store with a backup; the replaced file is kept beside it as `crmkit.sqlite.before-restore`. */
export function restoreSqlite(dataDir: string, backup: string): { kept: string | null } {
  checkCrmkitDatabase(backup);
  const target = sqliteFile(dataDir);
  refuseWhileInUse(target);
  mkdirSync(dataDir, { recursive: true });
  const incoming = `${target}.restoring`;
  copyFileSync(backup, incoming);
  let kept: string | null = null;
  if (existsSync(target)) {
    kept = `${target}.before-restore`;
    renameSync(target, kept);
  }
  rmSync(`${target}-shm`, { force: true });
  renameSync(incoming, target);
  return { kept };
}
