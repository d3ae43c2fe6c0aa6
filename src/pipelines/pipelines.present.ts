import type {
  OperatorPipeline,
  OperatorPipelineConfiguration,
  Pipeline,
  PipelineConfiguration,
  Stage,
  StageReason,
} from '../openapi/answer-types.js';
import type { PipelineConfig, StoredPipeline, StoredReason, StoredStage } from './pipelines.types.js';

/**
 * The public shape of 4.2, built field by field in the order of the spec tables. Without
 * `includeArchived`, archived pipelines, stages and reasons are left out, and a live stage does
 * not list the key of an archived reason (docs/decisions.md "Pipelines").
 */
export function presentConfig(
  config: PipelineConfig,
  includeArchived: boolean,
  audience: Audience = 'public',
): PipelineConfiguration | OperatorPipelineConfiguration {
  const visible = <T extends { isArchived: boolean }>(list: T[]) =>
    includeArchived ? list : list.filter((x) => !x.isArchived);
  const liveKeys = new Set(config.stageReasons.filter((r) => !r.isArchived).map((r) => r.key));
  const reasonFilter = includeArchived ? () => true : (key: string) => liveKeys.has(key);
  return {
    pipelines: visible(config.pipelines).map((p) => presentPipeline(p, visible(p.stages), reasonFilter, audience)),
    stageReasons: visible(config.stageReasons).map(presentReason),
  } satisfies PipelineConfiguration | OperatorPipelineConfiguration;
}

/**
 * `operator` adds each stage's `requiresReason` (issue 39): the public stage shape is the seed's closed
 * table (service-interface 2.2), so public answers never carry it (docs/decisions.md, "Required reasons").
 */
type Audience = 'public' | 'operator';

function presentPipeline(
  p: StoredPipeline,
  stages: StoredStage[],
  reasonFilter: (key: string) => boolean,
  audience: Audience,
): Pipeline | OperatorPipeline {
  return {
    id: p.id,
    name: p.name,
    ...(p.description !== undefined && { description: p.description }),
    isPrimary: p.isPrimary,
    isArchived: p.isArchived,
    stages: stages.map((s) => ({
      ...presentStage(s, reasonFilter),
      ...(audience === 'operator' && { requiresReason: s.requiresReason === true }),
    })),
  } satisfies Pipeline | OperatorPipeline;
}

function presentStage(s: StoredStage, reasonFilter: (key: string) => boolean): Stage {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    reasons: s.reasons.filter(reasonFilter),
    labels: [...s.labels],
    ...(s.closure !== undefined && { closure: s.closure }),
    ...(s.decayThresholdHours !== undefined && { decayThresholdHours: s.decayThresholdHours }),
    isArchived: s.isArchived,
  } satisfies Stage;
}

function presentReason(r: StoredReason): StageReason {
  return { key: r.key, label: r.label, isArchived: r.isArchived } satisfies StageReason;
}

/** The whole 200 body, `data` always one configuration object. */
export function listAnswer(config: PipelineConfig, includeArchived: boolean, audience: Audience = 'public') {
  return { success: true as const, data: [presentConfig(config, includeArchived, audience)] };
}
