import type { DocSection } from '../openapi/operation.js';

/** Health, readiness and metrics in the OpenAPI document. */
export const opsApi: DocSection = {
  tag: { name: 'Operations', description: 'For load balancers, orchestrators and monitoring (docs/operations.md).' },
  operations: [
    {
      method: 'get', path: '/healthz', operationId: 'health', guard: 'open', summary: 'The process is up, and which build',
      answers: [{
        status: 200, description: 'Up.',
        schema: {
          type: 'object', additionalProperties: false, required: ['status', 'version', 'schema', 'store'],
          properties: {
            status: { const: 'ok' }, version: { type: 'string' }, schema: { type: 'string', description: 'The last migration applied, like 001-initial.' },
            store: { enum: ['sqlite', 'postgres'] },
          },
        },
      }],
    },
    {
      method: 'get', path: '/readyz', operationId: 'readiness', guard: 'open', summary: 'The store answers',
      answers: [
        { status: 200, description: 'Ready to serve.', schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'ready' } } } },
        { status: 503, description: 'The store does not answer.', schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'unavailable' } } } },
      ],
    },
    {
      method: 'get', path: '/metrics', operationId: 'metrics', guard: 'open', optionalBearer: 'metricsToken',
      summary: 'Prometheus metrics', description: 'Open unless METRICS_TOKEN is set; then it needs that token as a bearer token.',
      answers: [{ status: 200, description: 'Prometheus text exposition format 0.0.4.', mediaType: 'text/plain', schema: { type: 'string' } }],
    },
  ],
};
