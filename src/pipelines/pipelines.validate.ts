import type { EntryRules, FieldReader, ReadValues } from '../validation/field-reader.js';
import { isJsonObject } from '../validation/field-reader.js';
import { readBodyValues } from '../validation/read-body.js';
import { PIPELINE_CONFIG_SPEC, PIPELINE_SPEC, STAGE_REASON_SPEC, STAGE_SPEC } from './pipelines.schema.js';
import type { KnownIds, PipelineConfigInput, StageState } from './pipelines.types.js';

type PipelineInput = PipelineConfigInput['pipelines'][number];
type StageInput = PipelineInput['stages'][number];
type ReasonInput = PipelineConfigInput['stageReasons'][number];

/** What the rules across entries share over one pass: the ids it may keep, the reason keys stages may list. */
interface Pass {
  known: KnownIds;
  seenIds: Set<string>;
  reasonKeys: ReadonlySet<string>;
  primarySeen: boolean;
}

/**
 * Reads a whole pipeline configuration (docs/pipelines.md "Writing (PUT)" and
 * docs/decisions.md "Pipelines") with the one field reader: every failure in body order in one 400;
 * answers the configuration ready to store, ids kept where sent and absent where new.
 */
export function readPipelineConfig(body: unknown, known: KnownIds): PipelineConfigInput {
  const pass: Pass = { known, seenIds: new Set(), reasonKeys: declaredReasonKeys(body), primarySeen: false };
  const values = readBodyValues(body, PIPELINE_CONFIG_SPEC, {
    rulesForList(spec, reader) {
      if (spec.items === PIPELINE_SPEC) return pipelineRules(pass, reader);
      if (spec.items === STAGE_SPEC) return stageRules(pass, reader);
      if (spec.items === STAGE_REASON_SPEC) return reasonRules(reader);
      return undefined;
    },
  });
  return {
    pipelines: (values.get('pipelines') as ReadValues[]).map(toPipeline),
    stageReasons: (values.get('stageReasons') as ReadValues[]).map(toReason),
  };
}

/** Reason keys are checked against the catalog wherever it appears in the body, so it is read first. */
function declaredReasonKeys(body: unknown): Set<string> {
  const keys = new Set<string>();
  const reasons = isJsonObject(body) ? body.stageReasons : undefined;
  if (Array.isArray(reasons))
    for (const r of reasons) if (isJsonObject(r) && typeof r.key === 'string') keys.add(r.key);
  return keys;
}

/** An id is kept only if it is one of this business's current ids of that kind, and only once. */
function checkId(id: string, path: string, ids: ReadonlySet<string>, pass: Pass, reader: FieldReader): void {
  if (!ids.has(id)) reader.valueError(path, `${path} is not an id of this business's configuration`);
  else if (pass.seenIds.has(id)) reader.valueError(path, `${path} appears twice`);
  pass.seenIds.add(id);
}

function pipelineRules(pass: Pass, reader: FieldReader): EntryRules {
  return {
    afterMember(key, value, path) {
      if (key === 'id') checkId(value as string, path, pass.known.pipelines, pass, reader);
      if (key === 'isPrimary' && value === true) {
        if (pass.primarySeen) reader.valueError(path, `${path}: only one pipeline can be primary`);
        pass.primarySeen = true;
      }
    },
    // The primary pipeline is where new leads go: archived, the public list would have none.
    afterEntry(values, path) {
      if (values.get('isPrimary') === true && values.get('isArchived') === true) {
        reader.valueError(
          `${path}.isArchived`,
          `${path}.isArchived cannot be true for the primary pipeline: make another pipeline primary first, then archive this one`,
        );
      }
    },
  };
}

function stageRules(pass: Pass, reader: FieldReader): EntryRules {
  return {
    afterMember(key, value, path) {
      if (key === 'id') checkId(value as string, path, pass.known.stages, pass, reader);
      if (key === 'reasons') {
        (value as string[]).forEach((reason, i) => {
          if (!pass.reasonKeys.has(reason))
            reader.valueError(`${path}[${i}]`, `${path}[${i}] is not the key of an entry in stageReasons`);
        });
      }
    },
    // A required reason must be choosable: the stage lists at least one.
    afterEntry(values, path) {
      if (
        values.get('requiresReason') === true &&
        ((values.get('reasons') as string[] | undefined) ?? []).length === 0
      ) {
        reader.valueError(`${path}.requiresReason`, `${path}.requiresReason needs at least one key in ${path}.reasons`);
      }
    },
  };
}

function reasonRules(reader: FieldReader): EntryRules {
  const seenKeys = new Set<string>();
  return {
    afterMember(key, value, path) {
      if (key !== 'key') return;
      if (seenKeys.has(value as string))
        reader.valueError(
          path,
          `${path} ${JSON.stringify(value)} is already the key of another stage reason; keys must be unique`,
        );
      seenKeys.add(value as string);
    },
  };
}

/** -0 is stored as 0. */
const number = (value: unknown): number | undefined => (value === undefined ? undefined : (value as number) + 0);

function toPipeline(v: ReadValues): PipelineInput {
  const description = v.get('description') as string | undefined;
  return {
    ...(v.has('id') && { id: v.get('id') as string }),
    name: v.get('name') as string,
    // An all-blank description is "no description": 2.1 omits unset values.
    ...(description && { description }),
    isPrimary: v.get('isPrimary') === true,
    isArchived: v.get('isArchived') === true,
    stages: (v.get('stages') as ReadValues[]).map(toStage),
  };
}

function toStage(v: ReadValues): StageInput {
  const closure = number(v.get('closure'));
  const decayThresholdHours = number(v.get('decayThresholdHours'));
  return {
    ...(v.has('id') && { id: v.get('id') as string }),
    name: v.get('name') as string,
    state: v.get('state') as StageState,
    reasons: (v.get('reasons') as string[] | undefined) ?? [],
    labels: (v.get('labels') as string[] | undefined) ?? [],
    ...(closure !== undefined && { closure }),
    ...(decayThresholdHours !== undefined && { decayThresholdHours }),
    isArchived: v.get('isArchived') === true,
    // Stored only when set, so configurations saved before it read the same.
    ...(v.get('requiresReason') === true && { requiresReason: true }),
  };
}

function toReason(v: ReadValues): ReasonInput {
  return { key: v.get('key') as string, label: v.get('label') as string, isArchived: v.get('isArchived') === true };
}
