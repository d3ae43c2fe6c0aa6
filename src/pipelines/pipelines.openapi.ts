import { ref, success, type DocSection, type OperationDoc } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { PIPELINE_CONFIG_INPUT } from './pipelines.schema.js';
import { ADMIN_PIPELINES, PIPELINES } from './pipelines.routes.js';
import { STAGE_STATES } from './pipelines.types.js';

/** Pipelines in the OpenAPI document: the public list (4.2), its 405s (4.3), the operator's read and replace. */

const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

const SCHEMAS: Record<string, JsonSchema> = {
  Stage: {
    type: 'object', additionalProperties: false, required: ['id', 'name', 'state', 'reasons', 'labels', 'isArchived'],
    properties: {
      id: { type: 'string', description: 'Opaque; tells apart stages of the same name. Not accepted in lead writes.' },
      name: { type: 'string', description: 'Accepted by lead create/edit while the stage and its pipeline are live.' },
      state: { enum: [...STAGE_STATES], description: 'The lead status tied to the stage.' },
      reasons: strings('Keys of stageReasons entries this stage accepts (archived ones only with includeArchived=true).'),
      labels: strings('Labels configured for the stage, in order.'),
      closure: { type: 'number', description: 'Sales probability used in reporting; omitted when unset.' },
      decayThresholdHours: { type: 'number', description: 'Stage decay threshold in hours; omitted when unset.' },
      isArchived: flag('Archived stages are returned only with includeArchived=true, in their configured position.'),
    },
  },
  Pipeline: {
    type: 'object', additionalProperties: false, required: ['id', 'name', 'isPrimary', 'isArchived', 'stages'],
    properties: {
      id: { type: 'string', description: 'Opaque; tells apart pipelines of the same name. Not accepted in lead writes.' },
      name: { type: 'string', description: 'Accepted by lead create/edit while the pipeline is live.' },
      description: { type: 'string', description: 'Omitted when no value is set.' },
      isPrimary: flag('True for the business\'s default lead pipeline.'),
      isArchived: flag('Archived pipelines are returned only with includeArchived=true.'),
      stages: { type: 'array', items: ref('Stage'), description: 'In configured order.' },
    },
  },
  StageReason: {
    type: 'object', additionalProperties: false, required: ['key', 'label', 'isArchived'],
    properties: {
      key: { type: 'string', description: 'Stable key; referenced by a stage\'s reasons.' },
      label: { type: 'string', description: 'The value a lead\'s stageReasons carries, when the target stage lists this key.' },
      isArchived: flag('Archived reasons are returned only with includeArchived=true.'),
    },
  },
  PipelineConfiguration: {
    type: 'object', additionalProperties: false, required: ['pipelines', 'stageReasons'],
    properties: { pipelines: { type: 'array', items: ref('Pipeline') }, stageReasons: { type: 'array', items: ref('StageReason') } },
  },
  PipelineList: success({ type: 'array', minItems: 1, maxItems: 1, items: ref('PipelineConfiguration'), description: 'Always exactly one configuration: read data[0].' }),
  PipelineConfigurationInput: PIPELINE_CONFIG_INPUT,
};

const EXAMPLE_INPUT = {
  pipelines: [{
    name: 'Sales', isPrimary: true,
    stages: [
      { name: 'New', state: 'NEW', labels: ['Inbound'] },
      { name: 'Qualified', state: 'OPEN', closure: 40, decayThresholdHours: 72 },
      { name: 'Lost', state: 'DROPPED', reasons: ['price'] },
    ],
  }],
  stageReasons: [{ key: 'price', label: 'Price too high' }],
};

const EXAMPLE_LIST = {
  success: true,
  data: [{
    pipelines: [{
      id: 'pl_4f1c2a9b0d3e5f6a7b8c9d0e', name: 'Sales', isPrimary: true, isArchived: false,
      stages: [
        { id: 'st_0a1b2c3d4e5f6a7b8c9d0e1f', name: 'New', state: 'NEW', reasons: [], labels: ['Inbound'], isArchived: false },
        { id: 'st_1b2c3d4e5f6a7b8c9d0e1f2a', name: 'Qualified', state: 'OPEN', reasons: [], labels: [], closure: 40, decayThresholdHours: 72, isArchived: false },
        { id: 'st_2c3d4e5f6a7b8c9d0e1f2a3b', name: 'Lost', state: 'DROPPED', reasons: ['price'], labels: [], isArchived: false },
      ],
    }],
    stageReasons: [{ key: 'price', label: 'Price too high', isArchived: false }],
  }],
};

const urlKey = { urlKey: 'The business key.' };

function refused(method: OperationDoc['method'], path: string, operationId: string): OperationDoc {
  return {
    method, path, operationId, guard: 'open', pathParams: path.endsWith(':pipelineId') ? { ...urlKey, pipelineId: 'Any pipeline id.' } : urlKey,
    summary: 'Not supported (405)', description: 'Pipeline configuration is read-only through this interface; answered 405 before any authentication.',
    refusal: 'coded',
  };
}

export const pipelinesApi: DocSection = {
  tag: { name: 'Pipelines', description: 'The read-only sales-pipeline configuration of a business, and its replacement by an operator.' },
  schemas: SCHEMAS,
  operations: [
    {
      method: 'get', path: PIPELINES, operationId: 'listPipelines', guard: 'app', pathParams: urlKey,
      summary: 'List pipelines, stages and the stage-reason catalog',
      description: 'All in one answer, not paged. Lead writes refer to pipelines and stages by name and to reasons by label. '
        + 'A business with no configuration answers both lists empty.',
      query: [{ name: 'includeArchived', description: 'Also return archived pipelines, stages and reasons, each marked isArchived. Only true or false.', schema: { type: 'boolean', default: false } }],
      answers: [{ status: 200, description: 'The configuration.', schema: ref('PipelineList'), example: EXAMPLE_LIST }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
    },
    ...(['post', 'put', 'patch', 'delete'] as const).map((m) => refused(m, PIPELINES, `${m}PipelinesRefused`)),
    ...(['get', 'post', 'put', 'patch', 'delete'] as const).map((m) => refused(m, `${PIPELINES}/:pipelineId`, `${m}PipelineRefused`)),
  ],
};

export const pipelinesOperatorApi: DocSection = {
  tag: { name: 'Operator: pipelines', description: 'Read and replace a business\'s pipeline configuration; needs an operator session.' },
  operations: [
    {
      method: 'get', path: ADMIN_PIPELINES, operationId: 'getPipelineConfiguration', guard: 'operator', pathParams: urlKey,
      summary: 'Read the whole configuration, archived entries included',
      answers: [{ status: 200, description: 'The stored configuration, in the public shape with includeArchived=true.', schema: ref('PipelineList') }],
      errors: ['INVALID_QUERY_FIELD', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'put', path: ADMIN_PIPELINES, operationId: 'replacePipelineConfiguration', guard: 'operator', pathParams: urlKey,
      summary: 'Replace the whole configuration',
      description: 'Array order is the configured order. An entry carrying the id of a current pipeline or stage keeps it; one without gets a new id. '
        + 'Every key in a stage\'s reasons must be in stageReasons; reason keys are unique; at most one pipeline is primary, and the primary pipeline cannot be archived (make another one primary first).',
      body: { required: true, schema: ref('PipelineConfigurationInput'), examples: { sales: { summary: 'One pipeline, three stages, one reason', value: EXAMPLE_INPUT } } },
      answers: [{ status: 200, description: 'The stored configuration, with ids.', schema: ref('PipelineList') }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
  ],
};
