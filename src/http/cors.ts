import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency-key.js';

const ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id', IDEMPOTENCY_KEY_HEADER];
const EXPOSE_HEADERS = ['X-Request-Id', 'Retry-After', IDEMPOTENT_REPLAYED_HEADER];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS by an exact allow-list (`CORS_ORIGINS`), off when the list is empty, with @fastify/cors. It
 * answers in an onRequest hook on the root, before any guard, so a preflight from an allowed origin is
 * answered 204 without authentication; another origin gets no CORS header at all and the browser
 * refuses it. Only an OPTIONS
 * with Access-Control-Request-Method is a preflight: a bare OPTIONS goes on to the router (404). No
 * credentials mode: the API takes bearer tokens, never cookies. Answers differ by Origin, so every answer
 * carries `Vary: Origin` (the plugin adds it whenever the options are decided per request).
 */
export function installCors(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>): void {
  if (config.corsOrigins.length === 0) return;
  const allowed = new Set(config.corsOrigins);
  const answered = {
    methods: ALLOW_METHODS,
    allowedHeaders: ALLOW_HEADERS,
    exposedHeaders: EXPOSE_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    credentials: false,
  } satisfies FastifyCorsOptions;
  app.register(fastifyCors, {
    hook: 'onRequest',
    // Decided per request: `origin: false` turns CORS off for it (no header), an allowed origin is echoed.
    delegator: (request, decide) => {
      const origin = request.headers.origin;
      if (origin === undefined || !allowed.has(origin)) return decide(null, { origin: false });
      const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
      decide(null, { ...answered, origin, preflight });
    },
  });
}
