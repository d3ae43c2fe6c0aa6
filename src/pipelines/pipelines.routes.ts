import type { FastifyReply } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { feature, type FeatureEnv } from '../feature.js';
import { ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, type ApiSection, type Operation, type OperationDoc } from '../openapi/operation.js';
import type { Services } from '../services.js';
import { EXAMPLE_INPUT, EXAMPLE_LIST, PIPELINE_SCHEMAS } from './pipelines.openapi.js';
import { PipelinesService } from './pipelines.service.js';

export const PIPELINES = '/api/v1/businesses/:urlKey/pipelines';
export const ADMIN_PIPELINES = '/admin/v1/businesses/:urlKey/pipelines';

/** 4.2: `includeArchived` is the only query parameter, and only `true` or `false`. */
export function readListQuery(query: unknown): boolean {
  let includeArchived = false;
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (key !== 'includeArchived')
      throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
    if (value !== 'true' && value !== 'false')
      throw new AppError('INVALID_QUERY_VALUE', 'includeArchived must be true or false');
    includeArchived = value === 'true';
  }
  return includeArchived;
}

interface PipelinesContext {
  pipelines: PipelinesService;
  services: Services;
}

function pipelinesContext({ deps, services }: FeatureEnv): PipelinesContext {
  const pipelines = new PipelinesService(deps.store, services.businesses, deps.config, () => deps.clock.now());
  services.caches.pipelines = () => pipelines.answers;
  return { pipelines, services };
}

const operation = operationsOf<PipelinesContext>();
const urlKey = { urlKey: 'The business key.' };

/** 4.3: unsupported operations answer 405 before any auth (docs/decisions.md "Foundation": 405 → 401 → 403), with Allow where one method is allowed. */
function refused(method: OperationDoc['method'], path: string, operationId: string): Operation {
  const allow = path.endsWith(':pipelineId') ? '' : 'GET, HEAD';
  return {
    method,
    path,
    operationId,
    guard: 'open',
    pathParams: path.endsWith(':pipelineId') ? { ...urlKey, pipelineId: 'Any pipeline id.' } : urlKey,
    summary: 'Not supported (405)',
    description: 'Pipeline configuration is read-only through this interface; answered 405 before any authentication.',
    refusal: 'coded',
    handler: () => async (_request, reply) => {
      if (allow) reply.header('allow', allow);
      throw new AppError('METHOD_NOT_ALLOWED', 'This operation is not supported on pipelines');
    },
  };
}

// Already serialised when cached: the hot path sends the bytes as they are, in the same turn.
const send = (reply: FastifyReply, answer: Buffer) => reply.type('application/json; charset=utf-8').send(answer);

export const pipelinesApi: ApiSection<PipelinesContext> = {
  tag: {
    name: 'Pipelines',
    description: 'The read-only sales-pipeline configuration of a business, and its replacement by an operator.',
  },
  schemas: PIPELINE_SCHEMAS,
  operations: [
    operation({
      method: 'get',
      path: PIPELINES,
      operationId: 'listPipelines',
      guard: 'app',
      pathParams: urlKey,
      summary: 'List pipelines, stages and the stage-reason catalog',
      description:
        'All in one answer, not paged. Lead writes refer to pipelines and stages by name and to reasons by label. ' +
        'A business with no configuration answers both lists empty.',
      query: [
        {
          name: 'includeArchived',
          description:
            'Also return archived pipelines, stages and reasons, each marked isArchived. Only true or false.',
          schema: { type: 'boolean', default: false },
        },
      ],
      answers: [{ status: 200, description: 'The configuration.', schema: ref('PipelineList'), example: EXAMPLE_LIST }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
      handler:
        ({ pipelines }) =>
        (request, reply) => {
          const answer = pipelines.publicAnswer(request.params.urlKey, readListQuery(request.query));
          if (answer instanceof Promise) return answer.then((bytes) => send(reply, bytes));
          // Sent, and nothing returned: a returned reply is a thenable that Fastify would wait on with a
          // stream-end listener (four listeners added and removed per request).
          send(reply, answer);
          return undefined;
        },
    }),
    ...(['post', 'put', 'patch', 'delete'] as const).map((m) => refused(m, PIPELINES, `${m}PipelinesRefused`)),
    ...(['get', 'post', 'put', 'patch', 'delete'] as const).map((m) =>
      refused(m, `${PIPELINES}/:pipelineId`, `${m}PipelineRefused`),
    ),
  ],
};

export const pipelinesOperatorApi: ApiSection<PipelinesContext> = {
  tag: {
    name: 'Operator: pipelines',
    description: "Read and replace a business's pipeline configuration; needs an operator session.",
  },
  operations: [
    operation({
      method: 'get',
      path: ADMIN_PIPELINES,
      operationId: 'getPipelineConfiguration',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Read the whole configuration, archived entries included',
      answers: [
        {
          status: 200,
          description:
            'The stored configuration, in the public shape with includeArchived=true, each stage with requiresReason.',
          schema: ref('OperatorPipelineList'),
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ pipelines }) =>
        async (request) => {
          rejectQuery(request);
          return ok(await pipelines.getForOperator(request.params.urlKey));
        },
    }),
    operation({
      method: 'put',
      path: ADMIN_PIPELINES,
      operationId: 'replacePipelineConfiguration',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Replace the whole configuration',
      description:
        'Array order is the configured order. An entry carrying the id of a current pipeline or stage keeps it; one without gets a new id. ' +
        "Every key in a stage's reasons must be in stageReasons; reason keys are unique; at most one pipeline is primary, and the primary pipeline cannot be archived (make another one primary first).",
      body: {
        required: true,
        schema: ref('PipelineConfigurationInput'),
        examples: { sales: { summary: 'One pipeline, three stages, one reason', value: EXAMPLE_INPUT } },
      },
      answers: [
        {
          status: 200,
          description: 'The stored configuration, with ids, each stage with requiresReason.',
          schema: ref('OperatorPipelineList'),
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ pipelines, services }) =>
        async (request) => {
          rejectQuery(request);
          const { urlKey } = request.params;
          return ok(
            await pipelines.replace(urlKey, request.body, services.audit.entryOf(request, 'pipelines.replace', urlKey)),
          );
        },
    }),
  ],
};

/** Pipelines: the public list (hot path), its 405s (4.3), the operator's read and replace. */
export const pipelinesFeature = feature({ sections: [pipelinesApi, pipelinesOperatorApi], context: pipelinesContext });
