import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { systemClock } from './deps.js';
import { OperatorsService } from './operator/operators.service.js';
import { ShutdownStages } from './ops/shutdown-stages.js';
import { openStore, type Store } from './storage/store.js';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** The close's stages: which are still running when a close takes too long (main.ts's grace deadline). */
  shutdown: ShutdownStages;
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
  const shutdown = new ShutdownStages(logger || undefined);
  const app = await buildApp({ config, store, clock: systemClock, logger: logger || undefined, shutdown });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    app,
    store,
    url: `http://${host}:${port}`,
    shutdown,
    async close() {
      // Fastify closes the listener and waits for its connections, then runs the onClose hooks (each a
      // stage of its own, named by its feature), so the connections' stage ends when the server's does.
      const connections = shutdown.run(
        'HTTP requests and connections',
        () => new Promise<void>((resolve) => app.server.once('close', () => resolve())),
      );
      await app.close();
      await connections;
      await store.close((name, work) => shutdown.run(name, work));
    },
  };
}
