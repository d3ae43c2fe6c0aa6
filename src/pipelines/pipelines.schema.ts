import { entry, type BooleanSpec, type StringSpec } from '../validation/field-spec.js';
import type { ObjectSchema } from '../validation/json-schema.js';
import { inlineEntries } from '../validation/read-body.js';
import { entryInputSchema } from '../validation/field-spec.js';
import { STAGE_STATES } from './pipelines.types.js';

/** Sane bounds: a whole configuration is one document read on the hottest path. */
export const LIMITS = {
  pipelines: 100,
  stagesPerPipeline: 100,
  stageReasons: 500,
  labelsPerStage: 50,
  name: 200,
  description: 2000,
  reasonKey: 100,
  reasonLabel: 500,
  stageLabel: 200,
  closure: 100,
} as const;

/**
 * The members of the pipeline PUT body, entry by entry, read by the one field reader; rules across
 * entries (ids, one primary, reason keys) are in pipelines.validate.ts and named in the descriptions.
 */
const name: StringSpec = {
  type: 'string',
  required: true,
  trim: true,
  maxLength: LIMITS.name,
  description: `1 to ${LIMITS.name} characters, trimmed.`,
};
const optionalFlag = (description: string): BooleanSpec => ({
  type: 'boolean',
  default: false,
  description: `${description} Default false.`,
});
const id = (kind: string): StringSpec => ({
  type: 'string',
  description: `The id of one of this business's current ${kind}s, to keep it; omitted for a new ${kind}, which gets a new id.`,
});

export const STAGE_REASON_SPEC = entry('StageReasonInput', 'An entry of the stage-reason catalog.', [
  [
    'key',
    {
      type: 'string',
      required: true,
      maxLength: LIMITS.reasonKey,
      pattern: /^\S(?:[\s\S]*\S)?$/,
      message: 'must not start or end with whitespace',
      description: `Stable key, unique in the catalog, at most ${LIMITS.reasonKey} characters, kept exactly (no surrounding whitespace).`,
    },
  ],
  [
    'label',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: LIMITS.reasonLabel,
      description: `What a lead's stageReasons carries; 1 to ${LIMITS.reasonLabel} characters, trimmed.`,
    },
  ],
  ['isArchived', optionalFlag('Archived reasons are listed only with includeArchived=true.')],
]);

export const STAGE_SPEC = entry('StageInput', 'A stage, in configured order.', [
  ['id', id('stage')],
  ['name', name],
  ['state', { type: 'string', required: true, enum: STAGE_STATES, description: 'The lead status tied to the stage.' }],
  [
    'reasons',
    {
      type: 'strings',
      maxItems: LIMITS.stageReasons,
      unique: true,
      items: { type: 'string', description: 'A key of stageReasons.' },
      description: 'Keys of stageReasons entries this stage accepts, each once.',
    },
  ],
  [
    'labels',
    {
      type: 'strings',
      maxItems: LIMITS.labelsPerStage,
      items: {
        type: 'string',
        trim: true,
        maxLength: LIMITS.stageLabel,
        description: `1 to ${LIMITS.stageLabel} characters, trimmed.`,
      },
      description: 'Labels of the stage, in order.',
    },
  ],
  [
    'closure',
    { type: 'number', minimum: 0, maximum: LIMITS.closure, description: `Sales probability, 0 to ${LIMITS.closure}.` },
  ],
  ['decayThresholdHours', { type: 'number', minimum: 0, description: 'Stage decay threshold in hours, 0 or more.' }],
  ['isArchived', optionalFlag('Archived stages keep their position.')],
  [
    'requiresReason',
    optionalFlag(
      'A lead created in, moved to, or edited in this stage must carry at least one of its reasons ' +
        '(otherwise 400 STAGE_REASON_REQUIRED); the stage must then list a reason. Operator answers show it; the public list does not.',
    ),
  ],
]);

export const PIPELINE_SPEC = entry('PipelineInput', 'A pipeline, in configured order.', [
  ['id', id('pipeline')],
  ['name', name],
  [
    'description',
    {
      type: 'string',
      trim: true,
      maxLength: LIMITS.description,
      description: `At most ${LIMITS.description} characters; blank means none.`,
    },
  ],
  ['isPrimary', optionalFlag('At most one pipeline is primary.')],
  ['isArchived', optionalFlag('Archived pipelines are listed only with includeArchived=true.')],
  [
    'stages',
    {
      type: 'array',
      required: true,
      maxItems: LIMITS.stagesPerPipeline,
      items: STAGE_SPEC,
      description: 'In configured order.',
    },
  ],
]);

export const PIPELINE_CONFIG_SPEC = entry(
  'PipelineConfigurationInput',
  'Body of PUT /admin/v1/businesses/:urlKey/pipelines: the whole configuration.',
  [
    [
      'pipelines',
      {
        type: 'array',
        required: true,
        maxItems: LIMITS.pipelines,
        items: PIPELINE_SPEC,
        description: 'In configured order.',
      },
    ],
    [
      'stageReasons',
      {
        type: 'array',
        required: true,
        maxItems: LIMITS.stageReasons,
        items: STAGE_REASON_SPEC,
        description: 'The stage-reason catalog.',
      },
    ],
  ],
);

/** The OpenAPI schema of the PUT body, generated from the descriptors the reader uses. */
export const PIPELINE_CONFIG_INPUT: ObjectSchema = entryInputSchema(PIPELINE_CONFIG_SPEC, inlineEntries);
