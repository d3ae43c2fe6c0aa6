import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/storage/store.js';
import { buildServer } from './server-build.js';
import { configFor, tempDataDir } from './stores.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An embedded store migrated to the newest schema, once per run: each test app starts from a copy. */
    sqliteTemplate: string;
    /** This run's build of `src/`, which spawned servers and CLIs run (test/helpers/server-build.ts). */
    serverBuild: string;
  }
}

/**
 * Once per run: the build of `src/` that spawned servers run (test/helpers/server-build.ts), and the
 * migrated embedded store. Migrating a fresh SQLite file was about a third of every embedded-store test app's start, repeated for
 * each suite on that store. The run migrates one file with this build's migrations, and createTestApp
 * copies it (test/helpers/app.ts); the migration tests still start from nothing (they open their own).
 */
export default async function setUpRun(project: TestProject): Promise<() => void> {
  const server = await buildServer(process.cwd());
  project.provide('serverBuild', server.dir);
  const dataDir = tempDataDir();
  const removeIt = () => {
    rmSync(dataDir, { recursive: true, force: true });
    server.remove();
  };
  // The PgBouncer pass runs on PostgreSQL alone: no embedded store to start.
  if (process.env.TEST_STORES === 'postgres') return removeIt;
  try {
    const store = openStore(configFor('sqlite', { dataDir }));
    await store.migrate();
    // Closing the only connection checkpoints the write-ahead log into the file and removes it.
    await store.close();
    project.provide('sqliteTemplate', join(dataDir, 'crmkit.sqlite'));
  } catch (error) {
    // No template (a machine without the SQLite driver, say): each test app migrates its own store, and
    // the embedded store's own tests report what is wrong, as they did before this setup existed.
    console.warn(`[global-setup] no migrated SQLite template: ${(error as Error).message}`);
  }
  return removeIt;
}
