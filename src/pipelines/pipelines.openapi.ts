import { ref, success } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { PIPELINE_CONFIG_INPUT } from './pipelines.schema.js';
import { stageStateSchema } from './pipelines.types.js';

/** The pipelines' named schemas and examples in the OpenAPI document (operations: pipelines.routes.ts). */

const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

export const PIPELINE_SCHEMAS: Record<string, JsonSchema> = {
  Stage: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name', 'state', 'reasons', 'labels', 'isArchived'],
    properties: {
      id: { type: 'string', description: 'Opaque; tells apart stages of the same name. Not accepted in lead writes.' },
      name: { type: 'string', description: 'Accepted by lead create/edit while the stage and its pipeline are live.' },
      state: stageStateSchema('The lead status tied to the stage.'),
      reasons: strings(
        'Keys of stageReasons entries this stage accepts (archived ones only with includeArchived=true).',
      ),
      labels: strings('Labels configured for the stage, in order.'),
      closure: { type: 'number', description: 'Sales probability used in reporting; omitted when unset.' },
      decayThresholdHours: { type: 'number', description: 'Stage decay threshold in hours; omitted when unset.' },
      isArchived: flag('Archived stages are returned only with includeArchived=true, in their configured position.'),
    },
  },
  Pipeline: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name', 'isPrimary', 'isArchived', 'stages'],
    properties: {
      id: {
        type: 'string',
        description: 'Opaque; tells apart pipelines of the same name. Not accepted in lead writes.',
      },
      name: { type: 'string', description: 'Accepted by lead create/edit while the pipeline is live.' },
      description: { type: 'string', description: 'Omitted when no value is set.' },
      isPrimary: flag("True for the business's default lead pipeline."),
      isArchived: flag('Archived pipelines are returned only with includeArchived=true.'),
      stages: { type: 'array', items: ref('Stage'), description: 'In configured order.' },
    },
  },
  StageReason: {
    type: 'object',
    additionalProperties: false,
    required: ['key', 'label', 'isArchived'],
    properties: {
      key: { type: 'string', description: "Stable key; referenced by a stage's reasons." },
      label: {
        type: 'string',
        description: "The value a lead's stageReasons carries, when the target stage lists this key.",
      },
      isArchived: flag('Archived reasons are returned only with includeArchived=true.'),
    },
  },
  PipelineConfiguration: {
    type: 'object',
    additionalProperties: false,
    required: ['pipelines', 'stageReasons'],
    properties: {
      pipelines: { type: 'array', items: ref('Pipeline') },
      stageReasons: { type: 'array', items: ref('StageReason') },
    },
  },
  PipelineList: success({
    type: 'array',
    minItems: 1,
    maxItems: 1,
    items: ref('PipelineConfiguration'),
    description: 'Always exactly one configuration: read data[0].',
  }),
  PipelineConfigurationInput: PIPELINE_CONFIG_INPUT,
};

/** A public schema with `change` applied to its properties: the operator's variants below differ in one member each. */
const variant = (
  name: string,
  change: (properties: Record<string, JsonSchema>) => Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema => {
  const base = PIPELINE_SCHEMAS[name] as { required: string[]; properties: Record<string, JsonSchema> };
  return { ...base, required: [...base.required, ...required], properties: change({ ...base.properties }) };
};

// The operator's answers add each stage's requiresReason (issue 39); the public Stage stays the seed's closed shape.
Object.assign(PIPELINE_SCHEMAS, {
  OperatorStage: variant(
    'Stage',
    (p) => ({
      ...p,
      requiresReason: flag(
        'A lead written into this stage needs at least one of its reasons (400 STAGE_REASON_REQUIRED otherwise). Operator answers only.',
      ),
    }),
    ['requiresReason'],
  ),
  OperatorPipeline: variant('Pipeline', (p) => ({
    ...p,
    stages: { type: 'array', items: ref('OperatorStage'), description: 'In configured order.' },
  })),
  OperatorPipelineConfiguration: variant('PipelineConfiguration', (p) => ({
    ...p,
    pipelines: { type: 'array', items: ref('OperatorPipeline') },
  })),
  OperatorPipelineList: success({
    type: 'array',
    minItems: 1,
    maxItems: 1,
    items: ref('OperatorPipelineConfiguration'),
    description: 'Always exactly one configuration: read data[0].',
  }),
});

export const EXAMPLE_INPUT = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW', labels: ['Inbound'] },
        { name: 'Qualified', state: 'OPEN', closure: 40, decayThresholdHours: 72 },
        { name: 'Lost', state: 'DROPPED', reasons: ['price'] },
      ],
    },
  ],
  stageReasons: [{ key: 'price', label: 'Price too high' }],
};

export const EXAMPLE_LIST = {
  success: true,
  data: [
    {
      pipelines: [
        {
          id: 'pl_4f1c2a9b0d3e5f6a7b8c9d0e',
          name: 'Sales',
          isPrimary: true,
          isArchived: false,
          stages: [
            {
              id: 'st_0a1b2c3d4e5f6a7b8c9d0e1f',
              name: 'New',
              state: 'NEW',
              reasons: [],
              labels: ['Inbound'],
              isArchived: false,
            },
            {
              id: 'st_1b2c3d4e5f6a7b8c9d0e1f2a',
              name: 'Qualified',
              state: 'OPEN',
              reasons: [],
              labels: [],
              closure: 40,
              decayThresholdHours: 72,
              isArchived: false,
            },
            {
              id: 'st_2c3d4e5f6a7b8c9d0e1f2a3b',
              name: 'Lost',
              state: 'DROPPED',
              reasons: ['price'],
              labels: [],
              isArchived: false,
            },
          ],
        },
      ],
      stageReasons: [{ key: 'price', label: 'Price too high', isArchived: false }],
    },
  ],
};
