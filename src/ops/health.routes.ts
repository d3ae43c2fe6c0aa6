import type { Store } from '../storage/store.js';
import { SCHEMA_VERSION } from '../storage/migrate.js';
import { feature } from '../feature.js';
import type { ApiSection, RouteHandler } from '../openapi/operation.js';
import { metricsHandler } from './metrics.routes.js';
import { VERSION } from './version.js';

interface OpsContext {
  store: Store;
  metrics: RouteHandler;
}

/** /healthz: the process is up (and which build); /readyz: the store answers; /metrics (metrics.routes.ts). */
export const opsApi: ApiSection<OpsContext> = {
  tag: { name: 'Operations', description: 'For load balancers, orchestrators and monitoring (docs/operations.md).' },
  operations: [
    {
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      guard: 'open',
      summary: 'The process is up, and which build',
      answers: [
        {
          status: 200,
          description: 'Up.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'version', 'schema', 'store'],
            properties: {
              status: { const: 'ok' },
              version: { type: 'string' },
              schema: { type: 'string', description: 'The last migration applied, like 001-initial.' },
              store: { enum: ['sqlite', 'postgres'] },
            },
          },
        },
      ],
      handler:
        ({ store }) =>
        async () => ({ status: 'ok', version: VERSION, schema: SCHEMA_VERSION, store: store.kind }),
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'readiness',
      guard: 'open',
      summary: 'The store answers',
      answers: [
        {
          status: 200,
          description: 'Ready to serve.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['status'],
            properties: { status: { const: 'ready' } },
          },
        },
        {
          status: 503,
          description: 'The store does not answer.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['status'],
            properties: { status: { const: 'unavailable' } },
          },
        },
      ],
      handler:
        ({ store }) =>
        async (_request, reply) => {
          try {
            await store.ping();
            return { status: 'ready' };
          } catch {
            return reply.code(503).send({ status: 'unavailable' });
          }
        },
    },
    {
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      guard: 'open',
      optionalBearer: 'metricsToken',
      summary: 'Prometheus metrics',
      description: 'Open unless METRICS_TOKEN is set; then it needs that token as a bearer token.',
      answers: [
        {
          status: 200,
          description: 'Prometheus text exposition format 0.0.4.',
          mediaType: 'text/plain',
          schema: { type: 'string' },
        },
      ],
      handler: ({ metrics }) => metrics,
    },
  ],
};

export const healthFeature = feature({
  sections: [opsApi],
  context: ({ deps, services }): OpsContext => ({ store: deps.store, metrics: metricsHandler(deps, services) }),
});
