import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { ShutdownStages } from './ops/shutdown-stages.js';
import type { Store } from './storage/store.js';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Built once by main.ts (or a test) and passed to buildApp. */
export interface Deps {
  config: Config;
  store: Store;
  clock: Clock;
  logger?: FastifyBaseLogger | false;
  /** Times the close's stages (the server's own, named in its log); a test app without one gets its own. */
  shutdown?: ShutdownStages;
}
