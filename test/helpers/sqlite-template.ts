import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { tempDataDir } from './stores.js';

/**
 * Puts a copy of the run's migrated embedded store (test/helpers/global-setup.ts) into `dataDir`, so that
 * the app or server started on it finds every migration applied instead of migrating from nothing (about
 * two seconds a start on this machine). Not for tests about a first start or a migration. Returns `dataDir`.
 */
export function withMigratedSqlite(dataDir: string): string {
  const template = inject('sqliteTemplate');
  if (template) copyFileSync(template, join(dataDir, 'crmkit.sqlite'));
  return dataDir;
}

/** A fresh folder holding a copy of the run's migrated embedded store: for servers a test spawns. */
export function migratedDataDir(): string {
  return withMigratedSqlite(tempDataDir());
}
