import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency-key.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = `Authorization, Content-Type, X-Request-Id, ${IDEMPOTENCY_KEY_HEADER}`;
const EXPOSE_HEADERS = `X-Request-Id, Retry-After, ${IDEMPOTENT_REPLAYED_HEADER}`;
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS by an exact allow-list (`CORS_ORIGINS`), off when the list is empty. Installed on the root
 * before any guard, so a preflight from an allowed origin is answered 204 without authentication;
 * other origins get no CORS header at all and the browser refuses them. No credentials mode: the API
 * takes bearer tokens, never cookies.
 */
export function installCors(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>): void {
  if (config.corsOrigins.length === 0) return;
  const allowed = new Set(config.corsOrigins);
  app.addHook('onRequest', async (request, reply) => {
    // Answers differ by Origin, so shared caches must key on it.
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return reply
        .code(204)
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .send();
    }
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
  });
}
