import type { StoredPipeline, StoredReason, StoredStage } from '../pipelines/pipelines.types.js';
import type { LeadContext } from './lead-context.js';
import type { LeadSource, Member, Tag } from '../storage/lead-settings.records.js';

/**
 * Names to configuration (docs/leads.md "Create": names, not ids), in one place for create, edit and the
 * list filters. Writes resolve live entries only; list filters pass `withArchived` so that old leads
 * can still be found by the names they carry.
 */
export interface Resolve {
  withArchived?: boolean;
}

const usable = (entry: { isArchived: boolean }, options: Resolve) => options.withArchived === true || !entry.isArchived;

/** 3.1: the first pipeline in configured order whose name equals the value after trimming (case-sensitive). */
export function resolvePipeline(context: LeadContext, name: string, options: Resolve = {}): StoredPipeline | undefined {
  const wanted = name.trim();
  return context.pipelines.pipelines.find((p) => usable(p, options) && p.name === wanted);
}

/** 3.2: only inside the resolved pipeline; the first stage of that name. */
export function resolveStage(pipeline: StoredPipeline, name: string, options: Resolve = {}): StoredStage | undefined {
  const wanted = name.trim();
  return pipeline.stages.find((s) => usable(s, options) && s.name === wanted);
}

/**
 * 3.4: each label to the first live catalog entry with that exact label (after trimming) whose key the
 * destination stage lists. Answers the keys in the order sent (a label sent twice counts once), and
 * the labels that did not resolve.
 */
export function resolveReasons(
  context: LeadContext,
  stage: StoredStage,
  labels: readonly string[],
): { keys: string[]; unknown: string[] } {
  const allowed = new Set(stage.reasons);
  const keys: string[] = [];
  const unknown: string[] = [];
  for (const label of labels) {
    const wanted = label.trim();
    const reason = context.pipelines.stageReasons.find(
      (r) => !r.isArchived && r.label === wanted && allowed.has(r.key),
    );
    if (!reason) unknown.push(label);
    else if (!keys.includes(reason.key)) keys.push(reason.key);
  }
  return { keys, unknown };
}

/** 2.5: the source whose key equals the value ignoring case, else the first whose label equals it after trimming. */
export function resolveLeadSource(context: LeadContext, value: string, options: Resolve = {}): LeadSource | undefined {
  const sources = context.settings.sources.filter((s) => usable(s, options));
  const upper = value.trim().toUpperCase();
  return sources.find((s) => s.key === upper) ?? sources.find((s) => s.label === value.trim());
}

/** 2.5: tag names ignoring case; duplicates count once. Answers the ids and every name that did not resolve. */
export function resolveTags(
  context: LeadContext,
  names: readonly string[],
  options: Resolve = {},
): { ids: string[]; unknown: string[] } {
  const byName = new Map<string, Tag>();
  for (const tag of context.settings.tags) {
    const key = tag.name.toLowerCase();
    if (usable(tag, options) && !byName.has(key)) byName.set(key, tag);
  }
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const tag = byName.get(name.trim().toLowerCase());
    if (!tag) unknown.push(name);
    else if (!ids.includes(tag.id)) ids.push(tag.id);
  }
  return { ids, unknown };
}

/** 2.5: the member with that e-mail, ignoring case. */
export function resolveMember(context: LeadContext, email: string, options: Resolve = {}): Member | undefined {
  const wanted = email.trim().toLowerCase();
  return context.settings.members.find((m) => usable(m, options) && m.email === wanted);
}

/** Current names for stored ids (answers follow renames; archived entries still name old leads). */
export function pipelineById(context: LeadContext, id: string): StoredPipeline | undefined {
  return context.pipelines.pipelines.find((p) => p.id === id);
}

export function stageById(
  context: LeadContext,
  id: string,
): { pipeline: StoredPipeline; stage: StoredStage } | undefined {
  for (const pipeline of context.pipelines.pipelines) {
    const stage = pipeline.stages.find((s) => s.id === id);
    if (stage) return { pipeline, stage };
  }
  return undefined;
}

export function reasonByKey(context: LeadContext, key: string): StoredReason | undefined {
  return context.pipelines.stageReasons.find((r) => r.key === key);
}
