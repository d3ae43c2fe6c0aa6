import type { FastifyInstance } from 'fastify';
import type { Deps } from './deps.js';
import type { ShutdownStages } from './ops/shutdown-stages.js';
import type { ApiSection } from './openapi/operation.js';
import type { Services } from './services.js';

/** What a feature's context is made from, once per app. */
export interface FeatureEnv {
  deps: Deps;
  services: Services;
  /** Every section of the app, in document order (the reference feature serves them). */
  sections: readonly ApiSection<unknown>[];
}

/**
 * A feature module: its operations, in the sections of the OpenAPI document they belong to, and the
 * context their handlers are made from (its services). The app registers each operation in the scope
 * its guard names (src/http/operations.ts) and builds /openapi.json from the same sections.
 */
export interface Feature<Context = unknown> {
  sections: ApiSection<Context>[];
  context(env: FeatureEnv): Context;
  /**
   * Work beside the routes, on the root (the webhook worker's start and stop). What it closes it runs as a
   * named stage of `shutdown`, so that a close that hangs says where.
   */
  install?(app: FastifyInstance, context: Context, shutdown: ShutdownStages): void;
}

/** A feature in the app's list, whatever its context. */
export type AnyFeature = Feature<unknown>;

/** Checks a feature against its own context type, then lets it join the list. */
export const feature = <Context>(definition: Feature<Context>): AnyFeature => definition as unknown as AnyFeature;
