import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { Deps } from '../deps.js';
import { NotAuthenticatedError } from '../errors/app-error.js';
import { SCHEMA_VERSION } from '../storage/migrate.js';
import type { Store } from '../storage/store.js';
import { VERSION } from './version.js';
import type { RouteHandler } from '../openapi/operation.js';
import { renderMetrics, type MetricSources, type PoolStats } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function requireToken(request: FastifyRequest, expected: Buffer): void {
  const header = request.headers.authorization;
  const sent = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  if (!sent || !timingSafeEqual(digest(sent), expected)) throw new NotAuthenticatedError();
}

/** The store's connection pool, when the store driver exposes one (PostgreSQL). */
function poolOf(store: Store): (() => PoolStats) | undefined {
  const withPool = store as Store & { poolStats?: () => PoolStats | undefined };
  if (typeof withPool.poolStats !== 'function') return undefined;
  return () => withPool.poolStats!() ?? { total: 0, idle: 0, waiting: 0 };
}

/**
 * The hook that feeds `GET /metrics`. Must be installed on the root before the guarded scopes are
 * registered, so that it sees every answer (401s, 404s and preflights included).
 */
export function installMetrics(app: FastifyInstance, services: Services): void {
  const requests = services.requestMetrics;
  // Callback style: no promise per request; the cost is two Map updates.
  app.addHook('onResponse', (request, reply, done) => {
    requests.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** The handler of `GET /metrics` (ops section, health.routes.ts). */
export function metricsHandler(deps: Deps, services: Services): RouteHandler {
  const pool = poolOf(deps.store);
  const sources: MetricSources = {
    caches: services.caches,
    ...(pool && { pool }),
    info: { version: VERSION, schema: SCHEMA_VERSION, store: deps.store.kind },
  };
  const token = deps.config.metricsToken === null ? null : digest(deps.config.metricsToken);
  return async (request, reply) => {
    if (token) requireToken(request, token);
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(renderMetrics(services.requestMetrics, sources));
  };
}
