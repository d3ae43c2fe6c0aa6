import type { FastifyInstance } from 'fastify';
import type { AnyFeature } from '../feature.js';
import type { Guard } from '../openapi/operation.js';
import type { IdempotencyKeys } from './idempotency-key.route.js';

/** A feature with its context, made once per app. */
export interface BoundFeature {
  feature: AnyFeature;
  context: unknown;
}

/**
 * Registers, in `scope`, every operation whose guard is `guard` (the scope carries the guard's hook;
 * open operations, 405 refusals included, go on the root). One `route()` per operation, its handler
 * made once here: the route Fastify serves is the one a hand-written registration would give.
 */
export function registerOperations(
  scope: FastifyInstance,
  guard: Guard,
  features: readonly BoundFeature[],
  idempotencyKeys: IdempotencyKeys,
): void {
  for (const { feature, context } of features) {
    for (const section of feature.sections) {
      for (const op of section.operations) {
        if (op.guard !== guard) continue;
        // An operation that takes Idempotency-Key: the mechanism around its handler, and its hook on the answer.
        const keyed = op.idempotencyKey ? idempotencyKeys.wrap(op, op.handler(context)) : undefined;
        scope.route({
          method: op.method.toUpperCase() as Uppercase<typeof op.method>,
          url: op.path,
          handler: keyed?.handler ?? op.handler(context),
          ...(op.onRequest && { onRequest: op.onRequest }),
          // A one-record answer: no compression hooks on its route (@fastify/compress reads `compress: false`).
          ...(op.compress === false && { compress: false as const }),
          ...(keyed && { onSend: keyed.onSend }),
        });
      }
    }
  }
}
