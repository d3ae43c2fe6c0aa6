import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { lazyChildLogger } from './logger.js';
import { AppRegistry } from './auth/app-registry.js';
import { AuthFailureLimiter } from './auth/auth-failures.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { AuthService } from './auth/auth.service.js';
import { appGuard, operatorGuard } from './auth/guards.js';
import { TokenService } from './auth/token.service.js';
import type { Deps } from './deps.js';
import { clientsFeature } from './clients/clients.routes.js';
import { dashboardFeature } from './operator/dashboard/dashboard.routes.js';
import { clientErrorHandler, installErrorHandling, sendError } from './errors/error-handler.js';
import type { Feature } from './feature.js';
import { installHttpBasics } from './http/http-basics.js';
import { requestIds } from './http/request-id.js';
import { healthFeature } from './ops/health.routes.js';
import { installMetrics } from './ops/metrics.routes.js';
import { openApiFeature } from './openapi/openapi.routes.js';
import { AppsService } from './operator/apps.service.js';
import { AuditService } from './operator/audit.service.js';
import { BusinessesService } from './operator/businesses.service.js';
import { registerOperatorRoutes } from './operator/operator.routes.js';
import { OperatorsService } from './operator/operators.service.js';
import { pipelinesFeature } from './pipelines/pipelines.routes.js';
import { WebhookEvents } from './webhooks/events.js';
import { webhooksFeature } from './webhooks/webhooks.routes.js';

/** What feature modules share: built once per app. */
export interface Services {
  registry: AppRegistry;
  tokens: TokenService;
  auth: AuthService;
  businesses: BusinessesService;
  apps: AppsService;
  operators: OperatorsService;
  audit: AuditService;
  /** Webhook events: what features that change a resource call inside their write transaction. */
  events: WebhookEvents;
  /** Hit and miss counts of every cache, by name: feature modules add theirs; /metrics reads them. */
  caches: Record<string, () => { hits: number; misses: number }>;
}

export async function createServices(deps: Deps): Promise<Services> {
  const { store, config, clock } = deps;
  const now = () => clock.now();
  const registry = new AppRegistry(store, config.cacheTtlMs);
  const tokens = new TokenService(config, registry, await store.accounts.signingKeys(), now);
  const events = new WebhookEvents(store, config, now);
  const limiter = new AuthFailureLimiter(store, config, now, deps.logger || undefined);
  return {
    registry, tokens,
    auth: new AuthService(store, registry, tokens, limiter),
    businesses: new BusinessesService(store, now),
    apps: new AppsService(store, registry, config, now),
    operators: new OperatorsService(store, now),
    audit: new AuditService(store, now),
    events,
    caches: { apps: () => registry.stats, webhooks: () => events.cache },
  };
}

/** Feature modules, in one list: each registers its routes under the guard they need. */
function features(deps: Deps, services: Services): Feature[] {
  return [
    { operator: (scope) => registerOperatorRoutes(scope, services) },
    clientsFeature(deps, services),
    pipelinesFeature(deps, services),
    webhooksFeature(deps, services),
    healthFeature(deps),
    dashboardFeature(),
    openApiFeature(deps),
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
  const list = features(deps, services);
  await app.register(async (scope) => {
    scope.addHook('onRequest', appGuard(services.tokens));
    for (const feature of list) await feature.business?.(scope);
  });
  await app.register(async (scope) => {
    scope.addHook('onRequest', operatorGuard(services.tokens));
    for (const feature of list) await feature.operator?.(scope);
  });
  for (const feature of list) await feature.open?.(app);
  return app;
}
