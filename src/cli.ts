#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js';
import { configurationBlock } from './ops/config-docs.js';
import {
  CommandError,
  backupCommand,
  exportCommand,
  migrateCommand,
  resetPasswordCommand,
  restoreCommand,
} from './ops/cli-commands.js';
import { SchemaTooNewError } from './storage/migrate.js';

const USAGE = `usage: crmkit <command>

  serve                 run the server (the same as \`npm start\`)
  migrate               bring the store's schema up to date, then exit
  reset-password EMAIL  give an operator a new generated password (printed once)
  backup FILE           copy the embedded store to FILE (safe while the server runs)
  restore FILE          replace the embedded store with FILE (stop the server first)
  export URLKEY         print a business's clients as JSON lines
  config-table          print the configuration table of docs/configuration.md

Every command reads the same environment variables as the server (DATABASE_URL, DATA_DIR, ...).
`;

const out = (text: string): void => {
  process.stdout.write(text);
};

function argument(args: string[], name: string): string {
  const value = args[0];
  if (!value || args.length > 1) throw new CommandError(`expected one ${name}\n\n${USAGE}`);
  return value;
}

async function run(command: string | undefined, args: string[]): Promise<void> {
  switch (command) {
    case 'serve':
      // main.ts starts the server (or the worker cluster) when loaded, and owns its exit.
      await import('./main.js');
      return;
    case 'config-table':
      return out(`${configurationBlock()}\n`);
    case 'migrate':
      return migrateCommand(loadConfig(), out);
    case 'reset-password':
      return resetPasswordCommand(loadConfig(), argument(args, 'EMAIL'), out);
    case 'backup':
      return backupCommand(loadConfig(), argument(args, 'FILE'), out);
    case 'restore':
      return restoreCommand(loadConfig(), argument(args, 'FILE'), out);
    case 'export':
      await exportCommand(loadConfig(), argument(args, 'URLKEY'), out);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return out(USAGE);
    default:
      throw new CommandError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  }
}

const [command, ...args] = process.argv.slice(2);
run(command, args).catch((error: unknown) => {
  const known = error instanceof CommandError || error instanceof ConfigError || error instanceof SchemaTooNewError;
  process.stderr.write(
    `crmkit: ${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
