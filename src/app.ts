import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { lazyChildLogger } from './logger.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { appGuard, operatorGuard } from './auth/guards.js';
import type { Deps } from './deps.js';
import { clientsFeature } from './clients/clients.routes.js';
import { dashboardFeature } from './operator/dashboard/dashboard.routes.js';
import { clientErrorHandler, installErrorHandling, sendError } from './errors/error-handler.js';
import type { AnyFeature, LegacyFeature } from './feature.js';
import { registerOperations, type BoundFeature } from './http/operations.js';
import { installHttpBasics } from './http/http-basics.js';
import { requestIds } from './http/request-id.js';
import { healthFeature } from './ops/health.routes.js';
import { installMetrics } from './ops/metrics.routes.js';
import { openApiFeature } from './openapi/openapi.routes.js';
import { registerOperatorRoutes } from './operator/operator.routes.js';
import { pipelinesFeature } from './pipelines/pipelines.routes.js';
import { leadSettingsFeature } from './leads/lead-settings.routes.js';
import { leadsFeature } from './leads/leads.routes.js';
import { leadsListFeature } from './leads/leads-list.routes.js';
import { createServices, type Services } from './services.js';
import { webhooksFeature } from './webhooks/webhooks.routes.js';

/** Feature modules described as operations, in one list: each operation is registered under the guard it names. */
const FEATURES: readonly AnyFeature[] = [clientsFeature, pipelinesFeature, leadSettingsFeature, leadsFeature, leadsListFeature, dashboardFeature, openApiFeature];

/** Feature modules that register their routes themselves (being converted to operations). */
function features(deps: Deps, services: Services): LegacyFeature[] {
  return [
    { operator: (scope) => registerOperatorRoutes(scope, services) },
    webhooksFeature(deps, services),
    healthFeature(deps),
  ];
}

/** A pure factory: everything it needs comes in `deps`; it reads no environment and opens no port. */
export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const { config } = deps;
  const nextRequestId = requestIds();
  const app = Fastify({
    loggerInstance: deps.logger || undefined,
    ...(deps.logger && { childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger as Logger, bindings, options) }),
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
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
  const services = await createServices(deps);
  installMetrics(app, deps, services);
  await app.register(async (scope) => registerAuthRoutes(scope, services.auth));
  const env = { deps, services, sections: FEATURES.flatMap((f) => f.sections) };
  const bound: BoundFeature[] = FEATURES.map((feature) => ({ feature, context: feature.context(env) }));
  const list = features(deps, services);
  await app.register(async (scope) => {
    scope.addHook('onRequest', appGuard(services.tokens, services.lastUsed));
    registerOperations(scope, 'app', bound);
    for (const feature of list) await feature.business?.(scope);
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', operatorGuard(services.tokens, services.operatorRegistry));
    registerOperations(scope, 'operator', bound);
    for (const feature of list) await feature.operator?.(scope);
  });
  registerOperations(app, 'open', bound);
  for (const { feature, context } of bound) feature.install?.(app, context);
  for (const feature of list) await feature.open?.(app);
  return app;
}
