import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { lazyChildLogger } from './logger.js';
import { appGuard, operatorGuard } from './auth/guards.js';
import type { Deps } from './deps.js';
import { clientErrorHandler, installErrorHandling, sendError } from './errors/error-handler.js';
import { apiSections, FEATURES } from './features.js';
import { registerOperations, type BoundFeature } from './http/operations.js';
import { IdempotencyKeys } from './http/idempotency-key.route.js';
import type { AnyFeature } from './feature.js';
import { installHttpBasics } from './http/http-basics.js';
import { installCompression } from './http/compression.js';
import { requestIds } from './http/request-id.js';
import { installMetrics } from './ops/metrics.routes.js';
import { ShutdownStages } from './ops/shutdown-stages.js';
import { createServices } from './services.js';

/**
 * A pure factory: everything it needs comes in `deps`; it reads no environment and opens no port.
 * `features`: the app's own (FEATURES); a test may add a route of its own, served but not documented.
 */
export async function buildApp(deps: Deps, features: readonly AnyFeature[] = FEATURES): Promise<FastifyInstance> {
  const { config } = deps;
  const nextRequestId = requestIds();
  const app = Fastify({
    loggerInstance: deps.logger || undefined,
    ...(deps.logger && {
      childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger as Logger, bindings, options),
    }),
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    // Node checks the request timer on this interval (30 s by default), which would let a stalled
    // request hold its connection up to 30 s past REQUEST_TIMEOUT_MS.
    http: { connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs) },
    clientErrorHandler,
    frameworkErrors: (error, _request, reply) => sendError(reply, error),
    // One hop: the address the proxy in front of us saw (the last X-Forwarded-For entry), never one a
    // client wrote into the header itself.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    // A clientId may be long once percent-encoded (128 code points, up to 12 bytes each).
    routerOptions: { maxParamLength: 2048 },
    genReqId: (request) => nextRequestId(request.headers['x-request-id']),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });
  installErrorHandling(app);
  installHttpBasics(app, config);
  await installCompression(app);
  const services = await createServices(deps);
  installMetrics(app, services);
  // Each feature's context once, then every operation in the scope its guard names.
  const env = { deps, services, sections: apiSections() };
  const bound: BoundFeature[] = features.map((feature) => ({ feature, context: feature.context(env) }));
  const keys = new IdempotencyKeys(deps.store, config, deps.clock, deps.logger || undefined);
  await app.register(async (scope) => {
    scope.addHook('onRequest', appGuard(services.tokens, services.lastUsed));
    registerOperations(scope, 'app', bound, keys);
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', operatorGuard(services.tokens, services.operatorRegistry));
    registerOperations(scope, 'operator', bound, keys);
  });
  registerOperations(app, 'open', bound, keys);
  const shutdown = deps.shutdown ?? new ShutdownStages(deps.logger || undefined);
  for (const { feature, context } of bound) feature.install?.(app, context, shutdown);
  return app;
}
