import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
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
}
