import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { systemClock } from './deps.js';
import { OperatorsService } from './operator/operators.service.js';
import { openStore, type Store } from './storage/store.js';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  close(): Promise<void>;
}

/**
 * Opens the store, migrates, makes sure an operator exists, and listens. Used by main.ts and by the
 * tests that need a real socket. `onFirstLogin` receives a generated first password, to print once.
 */
export async function startServer(
  config: Config,
  logger: Logger | false,
  onFirstLogin?: (login: { email: string; password: string }) => void,
): Promise<RunningServer> {
  const store = openStore(config);
  await store.migrate();
  const first = await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  if (first) onFirstLogin?.(first);
  const app = await buildApp({ config, store, clock: systemClock, logger: logger || undefined });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    app,
    store,
    url: `http://${host}:${port}`,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
