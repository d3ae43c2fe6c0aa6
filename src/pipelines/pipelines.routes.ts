import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { ok, rejectQuery } from '../http/replies.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors/app-error.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { PipelinesService } from './pipelines.service.js';

type BusinessParams = { urlKey: string };

export const PIPELINES = '/api/v1/businesses/:urlKey/pipelines';
export const ADMIN_PIPELINES = '/admin/v1/businesses/:urlKey/pipelines';

/** 4.2: `includeArchived` is the only query parameter, and only `true` or `false`. */
export function readListQuery(query: unknown): boolean {
  let includeArchived = false;
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (key !== 'includeArchived') throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
    if (value !== 'true' && value !== 'false') throw new AppError('INVALID_QUERY_VALUE', 'includeArchived must be true or false');
    includeArchived = value === 'true';
  }
  return includeArchived;
}


/** Pipelines: the public list (hot path), the operator's read and replace, and the 405s of 4.3. */
export function pipelinesFeature(deps: Deps, services: Services): Feature {
  const pipelines = new PipelinesService(deps.store, services.businesses, deps.config, () => deps.clock.now());
  services.caches.pipelines = () => pipelines.answers;

  return {
    business(app: FastifyInstance) {
      // Already serialised when cached: the hot path sends the bytes as they are, in the same turn.
      const send = (reply: FastifyReply, answer: Buffer) => reply.type('application/json; charset=utf-8').send(answer);
      app.get<{ Params: BusinessParams }>(PIPELINES, (request, reply) => {
        const answer = pipelines.publicAnswer(request.params.urlKey, readListQuery(request.query));
        if (answer instanceof Promise) return answer.then((bytes) => send(reply, bytes));
        // Sent, and nothing returned: a returned reply is a thenable that Fastify would wait on with a
        // stream-end listener (four listeners added and removed per request).
        send(reply, answer);
        return undefined;
      });
    },

    operator(app: FastifyInstance) {
      app.get<{ Params: BusinessParams }>(ADMIN_PIPELINES, async (request) => {
        rejectQuery(request);
        return ok(await pipelines.getForOperator(request.params.urlKey));
      });
      app.put<{ Params: BusinessParams }>(ADMIN_PIPELINES, async (request) => {
        rejectQuery(request);
        const stored = await pipelines.replace(request.params.urlKey, request.body);
        await services.audit.record(request, 'pipelines.replace', request.params.urlKey, { pipelines: stored[0]!.pipelines.length });
        return ok(stored);
      });
    },

    open(app: FastifyInstance) {
      // 4.3: unsupported operations answer 405 before any auth (decisions.md: 405 → 401 → 403).
      const refuse = (allow: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
        if (allow) reply.header('allow', allow);
        throw new AppError('METHOD_NOT_ALLOWED', 'This operation is not supported on pipelines');
      };
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) app.route({ method, url: PIPELINES, handler: refuse('GET, HEAD') });
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const) app.route({ method, url: `${PIPELINES}/:pipelineId`, handler: refuse('') });
    },
  };
}
