import { AppError } from '../errors/app-error.js';
import { Failures, isPlainObject, readArray, readBoolean, readMembers, readNumber, readText } from './pipelines.fields.js';
import { LIMITS, PIPELINE_CONFIG_INPUT, PIPELINE_INPUT, STAGE_INPUT, STAGE_REASON_INPUT } from './pipelines.schema.js';
import { STAGE_STATES, type KnownIds, type PipelineConfigInput, type StageState } from './pipelines.types.js';

type PipelineInput = PipelineConfigInput['pipelines'][number];
type StageInput = PipelineInput['stages'][number];
type ReasonInput = PipelineConfigInput['stageReasons'][number];

/** What one pass needs beyond the body: the ids it may keep, the reason keys stages may list. */
interface Pass {
  f: Failures;
  known: KnownIds;
  seenIds: Set<string>;
  reasonKeys: ReadonlySet<string>;
  primarySeen: boolean;
}

/**
 * Reads a whole pipeline configuration (operator-interface "Pipeline configuration" and
 * decisions.md "Pipelines"). Collects every failure in body order and throws one 400; answers
 * the configuration ready to store, ids kept where sent and absent where new.
 */
export function readPipelineConfig(body: unknown, known: KnownIds): PipelineConfigInput {
  if (!isPlainObject(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const pass: Pass = { f: new Failures(), known, seenIds: new Set(), reasonKeys: declaredReasonKeys(body.stageReasons), primarySeen: false };
  const config: PipelineConfigInput = { pipelines: [], stageReasons: [] };
  readMembers(body, '', PIPELINE_CONFIG_INPUT, {
    pipelines: (value, path) => readArray(value, path, LIMITS.pipelines, pass.f, (item, at) => {
      const pipeline = readPipeline(item, at, pass);
      if (pipeline) config.pipelines.push(pipeline);
    }),
    stageReasons: (value, path) => {
      const seenKeys = new Set<string>();
      readArray(value, path, LIMITS.stageReasons, pass.f, (item, at) => {
        const reason = readReason(item, at, seenKeys, pass.f);
        if (reason) config.stageReasons.push(reason);
      });
    },
  }, pass.f);
  if (pass.f.list.length > 0) throw AppError.fromFieldErrors(pass.f.list);
  return config;
}

/** Reason keys are checked against the catalog wherever it appears in the body, so it is read first. */
function declaredReasonKeys(reasons: unknown): Set<string> {
  const keys = new Set<string>();
  if (Array.isArray(reasons)) for (const r of reasons) if (isPlainObject(r) && typeof r.key === 'string') keys.add(r.key);
  return keys;
}

function readPipeline(item: unknown, at: string, pass: Pass): PipelineInput | undefined {
  const { f } = pass;
  if (!isPlainObject(item)) return void f.wrongType(at, 'an object');
  const p: Partial<PipelineInput> = { isPrimary: false, isArchived: false, stages: [] };
  readMembers(item, at, PIPELINE_INPUT, {
    id: (v, path) => (p.id = readId(v, path, pass.known.pipelines, pass)),
    name: (v, path) => (p.name = readText(v, path, LIMITS.name, f)),
    description: (v, path) => {
      // An all-blank description is "no description": 2.1 omits unset values.
      if (typeof v !== 'string' || v.trim() !== '') p.description = readText(v, path, LIMITS.description, f);
    },
    isPrimary: (v, path) => {
      p.isPrimary = readBoolean(v, path, f) ?? false;
      if (p.isPrimary && pass.primarySeen) f.add(path, `${path}: only one pipeline can be primary`);
      pass.primarySeen ||= p.isPrimary;
    },
    isArchived: (v, path) => (p.isArchived = readBoolean(v, path, f) ?? false),
    stages: (v, path) => readArray(v, path, LIMITS.stagesPerPipeline, f, (s, sAt) => {
      const stage = readStage(s, sAt, pass);
      if (stage) p.stages!.push(stage);
    }),
  }, f);
  // The primary pipeline is where new leads go: archived, the public list would have none.
  if (p.isPrimary && p.isArchived) {
    f.add(`${at}.isArchived`, `${at}.isArchived cannot be true for the primary pipeline: make another pipeline primary first, then archive this one`);
  }
  if (p.id === undefined) delete p.id;
  if (p.description === undefined) delete p.description;
  return p as PipelineInput;
}

function readStage(item: unknown, at: string, pass: Pass): StageInput | undefined {
  const { f } = pass;
  if (!isPlainObject(item)) return void f.wrongType(at, 'an object');
  const s: Partial<StageInput> = { reasons: [], labels: [], isArchived: false };
  readMembers(item, at, STAGE_INPUT, {
    id: (v, path) => (s.id = readId(v, path, pass.known.stages, pass)),
    name: (v, path) => (s.name = readText(v, path, LIMITS.name, f)),
    state: (v, path) => (s.state = readState(v, path, f)),
    reasons: (v, path) => readArray(v, path, LIMITS.stageReasons, f, (key, keyAt) => {
      if (typeof key !== 'string') return f.wrongType(keyAt, 'a string');
      if (!pass.reasonKeys.has(key)) return f.add(keyAt, `${keyAt} is not the key of an entry in stageReasons`);
      if (s.reasons!.includes(key)) return f.add(keyAt, `${keyAt} lists the same reason twice`);
      s.reasons!.push(key);
    }),
    labels: (v, path) => readArray(v, path, LIMITS.labelsPerStage, f, (label, labelAt) => {
      const text = readText(label, labelAt, LIMITS.stageLabel, f);
      if (text !== undefined) s.labels!.push(text);
    }),
    closure: (v, path) => (s.closure = readNumber(v, path, 0, 100, f)),
    decayThresholdHours: (v, path) => (s.decayThresholdHours = readNumber(v, path, 0, Number.MAX_VALUE, f)),
    isArchived: (v, path) => (s.isArchived = readBoolean(v, path, f) ?? false),
  }, f);
  for (const key of ['id', 'closure', 'decayThresholdHours'] as const) if (s[key] === undefined) delete s[key];
  return s as StageInput;
}

function readReason(item: unknown, at: string, seenKeys: Set<string>, f: Failures): ReasonInput | undefined {
  if (!isPlainObject(item)) return void f.wrongType(at, 'an object');
  const r: Partial<ReasonInput> = { isArchived: false };
  readMembers(item, at, STAGE_REASON_INPUT, {
    key: (v, path) => {
      const key = readText(v, path, LIMITS.reasonKey, f, { exact: true });
      if (key !== undefined && seenKeys.has(key)) f.add(path, `${path} ${JSON.stringify(key)} is already the key of another stage reason; keys must be unique`);
      if (key !== undefined) seenKeys.add(key);
      r.key = key;
    },
    label: (v, path) => (r.label = readText(v, path, LIMITS.reasonLabel, f)),
    isArchived: (v, path) => (r.isArchived = readBoolean(v, path, f) ?? false),
  }, f);
  return r as ReasonInput;
}

/** An id is kept only if it is one of this business's current ids of that kind, and only once. */
function readId(value: unknown, path: string, ids: ReadonlySet<string>, pass: Pass): string | undefined {
  if (typeof value !== 'string') return void pass.f.wrongType(path, 'a string');
  if (!ids.has(value)) return void pass.f.add(path, `${path} is not an id of this business's configuration`);
  if (pass.seenIds.has(value)) return void pass.f.add(path, `${path} appears twice`);
  pass.seenIds.add(value);
  return value;
}

function readState(value: unknown, path: string, f: Failures): StageState | undefined {
  if (typeof value !== 'string') return void f.wrongType(path, 'a string');
  if (!(STAGE_STATES as readonly string[]).includes(value)) return void f.add(path, `${path} must be one of ${STAGE_STATES.join(', ')}`);
  return value as StageState;
}
