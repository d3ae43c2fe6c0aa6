import { loadConfig } from '../../src/config.js';
import { appWithThings } from './idempotency-route.js';

/**
 * A real server process with the tests' Idempotency-Key route (test/helpers/idempotency-route.ts) beside
 * the app's own: what src/main.ts serves, plus that route, which production never ships.
 * Spawned by test/process/idempotency-key.two-processes.test.ts through spawnServer's `entry`.
 */
const config = loadConfig();
const { app, store } = await appWithThings(config);
await app.listen({ port: config.port, host: config.host });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
