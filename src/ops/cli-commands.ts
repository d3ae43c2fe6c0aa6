import type { Config } from '../config.js';
import { businessContextCache } from '../clients/business-context.js';
import { presentClient } from '../clients/client.present.js';
import { OperatorsService } from '../operator/operators.service.js';
import { openStore, type Store } from '../storage/store.js';
import { BackupError, backupSqlite, restoreSqlite } from './sqlite-backup.js';

/** A command's failure the user can act on: printed as one line, exit code 1. */
export class CommandError extends Error {}

type Write = (text: string) => void;

async function withStore<T>(config: Config, run: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(config);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

export async function migrateCommand(config: Config, write: Write): Promise<void> {
  await withStore(config, (store) => store.migrate());
  write(
    `crmkit: schema is up to date (${config.databaseUrl ? 'PostgreSQL' : `embedded store in ${config.dataDir}`})\n`,
  );
}

/** Prints the new password on stdout, once: the only place it ever appears. */
export async function resetPasswordCommand(config: Config, email: string, write: Write): Promise<void> {
  const password = await withStore(config, async (store) => {
    try {
      return await new OperatorsService(store, Date.now, config.passwordHashCost).resetPassword(email);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('no operator')) throw new CommandError(error.message);
      throw error;
    }
  });
  write(`${password}\n`);
}

/** One JSON object per line: every client with a clientId, in the public shape plus its `status`. */
export async function exportCommand(config: Config, urlKey: string, write: Write): Promise<number> {
  return withStore(config, async (store) => {
    const context = await businessContextCache(store, { cacheTtlMs: 0 }).get(urlKey);
    if (!context) throw new CommandError(`no business with urlKey ${urlKey}`);
    let count = 0;
    for await (const client of store.data.streamClients(urlKey)) {
      write(`${JSON.stringify({ ...presentClient(client, context), status: client.status })}\n`);
      count++;
    }
    return count;
  });
}

function embeddedOnly(config: Config, command: string): void {
  if (config.databaseUrl) {
    throw new CommandError(
      `${command} is for the embedded store; with DATABASE_URL set use PostgreSQL's own tools (pg_dump, pg_restore)`,
    );
  }
}

export async function backupCommand(config: Config, file: string, write: Write): Promise<void> {
  embeddedOnly(config, 'backup');
  try {
    const { pages } = await backupSqlite(config.dataDir, file);
    write(`crmkit: backed up ${pages} pages to ${file}\n`);
  } catch (error) {
    if (error instanceof BackupError) throw new CommandError(error.message);
    throw error;
  }
}

export function restoreCommand(config: Config, file: string, write: Write): void {
  embeddedOnly(config, 'restore');
  try {
    const { kept } = restoreSqlite(config.dataDir, file);
    write(`crmkit: restored ${file} into ${config.dataDir}${kept ? `; the replaced store is kept as ${kept}` : ''}\n`);
  } catch (error) {
    if (error instanceof BackupError) throw new CommandError(error.message);
    throw error;
  }
}
