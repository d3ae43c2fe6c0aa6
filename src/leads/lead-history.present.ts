import type { FieldChange, StoredActivity, StoredLead } from '../storage/leads.records.js';
import type { LeadActivity } from '../openapi/answer-types.js';
import type { LeadContext } from './lead-context.js';
import { followUpInstant, presentPlace } from './lead.present.js';
import { reasonByKey } from './lead.resolve.js';

/** A field change as answers and audit lines carry it: names where the lead stores ids. */
export interface PresentedChange {
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * A stored change by current names, as the lead answers them (docs/leads.md "Field history"):
 * `assignedTo` an e-mail (null for a member no longer listed), `tags` names (a tag gone from the
 * configuration is left out), `followUpDate` an instant, `customFields.<name>`. A custom field
 * whose definition is gone altogether has no name to show: undefined, and the entry is left out.
 */
export function presentChange(change: FieldChange, context: LeadContext): PresentedChange | undefined {
  const { field, from, to } = change;
  const both = (value: (v: unknown) => unknown) => ({ field, from: value(from), to: value(to) });
  if (field.startsWith('customFields.')) {
    const id = field.slice('customFields.'.length);
    const definition = context.settings.customFields.find((f) => f.id === id);
    return definition && { field: `customFields.${definition.name}`, from, to };
  }
  switch (field) {
    case 'assignedTo':
      return both((id) => (id === null ? null : (context.settings.members.find((m) => m.id === id)?.email ?? null)));
    case 'tags':
      return both((ids) =>
        (ids as string[])
          .map((id) => context.settings.tags.find((t) => t.id === id)?.name)
          .filter((name): name is string => name !== undefined)
          .sort(),
      );
    case 'followUpDate':
      return both((date) => (date === null ? null : followUpInstant(date as string)));
    default:
      return { field, from, to };
  }
}

/** A FIELD_CHANGE entry (read with `include=fieldChanges`); undefined when its field has no name left. */
export function presentFieldChange(a: StoredActivity, context: LeadContext): LeadActivity | undefined {
  const change = a.change && presentChange(a.change, context);
  if (!change) return undefined;
  return {
    activityId: a.activityId,
    type: a.type,
    field: change.field,
    from: change.from,
    to: change.to,
    author: a.author,
    createdAt: new Date(a.createdAt).toISOString(),
  } satisfies LeadActivity;
}

/**
 * What an edit changed, for the operator's `lead.edit` audit line (`detail.changes`): the move by
 * names (pipeline, stage, stageReasons), then every field change. Written with the edit, so names are
 * those of the moment; empty when the edit changed nothing.
 */
export function editChanges(
  before: StoredLead,
  after: StoredLead | null,
  activities: readonly StoredActivity[],
  context: LeadContext,
): PresentedChange[] {
  if (!after) return [];
  const changes: PresentedChange[] = [];
  const from = presentPlace(before, context);
  const to = presentPlace(after, context);
  if (before.pipelineId !== after.pipelineId) changes.push({ field: 'pipeline', from: from.pipeline, to: to.pipeline });
  if (before.stageId !== after.stageId) changes.push({ field: 'stage', from: from.stage, to: to.stage });
  const labels = (keys: string[]) => keys.map((key) => reasonByKey(context, key)?.label ?? key);
  if (before.data.reasonKeys.join() !== after.data.reasonKeys.join())
    changes.push({ field: 'stageReasons', from: labels(before.data.reasonKeys), to: labels(after.data.reasonKeys) });
  for (const a of activities) {
    const change = a.change && presentChange(a.change, context);
    if (change) changes.push(change);
  }
  return changes;
}
