import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { STAGE_STATES } from './pipelines.types.js';

/** Sane bounds: a whole configuration is one document read on the hottest path. */
export const LIMITS = {
  pipelines: 100, stagesPerPipeline: 100, stageReasons: 500, labelsPerStage: 50,
  name: 200, description: 2000, reasonKey: 100, reasonLabel: 500, stageLabel: 200,
} as const;

/**
 * The members of the pipeline PUT body, entry by entry. readPipelineConfig reads exactly these (its
 * reader tables are typed by these keys, required members come from `required`), with the LIMITS above;
 * rules across entries (ids, one primary, reason keys) are in the descriptions.
 */
const text = (max: number, description: string): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max, description });
const optionalFlag = (description: string): JsonSchema => ({ type: ['boolean', 'null'], description: `${description} Default false.` });
const id = (kind: string): JsonSchema => ({
  type: ['string', 'null'],
  description: `The id of one of this business's current ${kind}s, to keep it; omitted for a new ${kind}, which gets a new id.`,
});

export const STAGE_REASON_INPUT = closedObject({
  key: {
    ...text(LIMITS.reasonKey, `Stable key, unique in the catalog, at most ${LIMITS.reasonKey} characters, kept exactly (no surrounding whitespace).`),
    pattern: '^\\S(?:[\\s\\S]*\\S)?$',
  },
  label: text(LIMITS.reasonLabel, `What a lead's stageReasons carries; 1 to ${LIMITS.reasonLabel} characters, trimmed.`),
  isArchived: optionalFlag('Archived reasons are listed only with includeArchived=true.'),
}, ['key', 'label'], { title: 'StageReasonInput' });

export const STAGE_INPUT = closedObject({
  id: id('stage'),
  name: text(LIMITS.name, `1 to ${LIMITS.name} characters, trimmed.`),
  state: { enum: [...STAGE_STATES], description: 'The lead status tied to the stage.' },
  reasons: {
    type: ['array', 'null'], maxItems: LIMITS.stageReasons, uniqueItems: true, items: { type: 'string' },
    description: 'Keys of stageReasons entries this stage accepts, each once.',
  },
  labels: {
    type: ['array', 'null'], maxItems: LIMITS.labelsPerStage, items: text(LIMITS.stageLabel, `1 to ${LIMITS.stageLabel} characters, trimmed.`),
    description: 'Labels of the stage, in order.',
  },
  closure: { type: ['number', 'null'], minimum: 0, maximum: 100, description: 'Sales probability, 0 to 100.' },
  decayThresholdHours: { type: ['number', 'null'], minimum: 0, description: 'Stage decay threshold in hours, 0 or more.' },
  isArchived: optionalFlag('Archived stages keep their position.'),
}, ['name', 'state'], { title: 'StageInput' });

export const PIPELINE_INPUT = closedObject({
  id: id('pipeline'),
  name: text(LIMITS.name, `1 to ${LIMITS.name} characters, trimmed.`),
  description: { type: ['string', 'null'], maxLength: LIMITS.description, description: `At most ${LIMITS.description} characters; blank means none.` },
  isPrimary: optionalFlag('At most one pipeline is primary.'),
  isArchived: optionalFlag('Archived pipelines are listed only with includeArchived=true.'),
  stages: { type: 'array', maxItems: LIMITS.stagesPerPipeline, items: STAGE_INPUT, description: 'In configured order.' },
}, ['name', 'stages'], { title: 'PipelineInput' });

export const PIPELINE_CONFIG_INPUT = closedObject({
  pipelines: { type: 'array', maxItems: LIMITS.pipelines, items: PIPELINE_INPUT, description: 'In configured order.' },
  stageReasons: { type: 'array', maxItems: LIMITS.stageReasons, items: STAGE_REASON_INPUT, description: 'The stage-reason catalog.' },
}, ['pipelines', 'stageReasons'], { title: 'PipelineConfigurationInput' });
