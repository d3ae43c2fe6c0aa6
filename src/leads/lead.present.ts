import type { Lead, LeadActivity, LeadContactSnapshot, LeadCustomerSnapshot } from '../openapi/answer-types.js';
import type { LeadContext } from './lead-context.js';
import { reasonByKey, stageById } from './lead.resolve.js';
import type { ContactSnapshot, CustomerSnapshot, StoredActivity, StoredLead } from '../storage/leads.records.js';

export type { StoredLead } from '../storage/leads.records.js';

/** `YYYY-MM-DD` → the date at midnight UTC, as answers carry it (docs/leads.md). */
export const followUpInstant = (date: string): string => `${date}T00:00:00.000Z`;

/**
 * The public lead (docs/leads.md "Read"): every field listed explicitly, configuration by its current
 * name (renames show through; archived entries still name old leads), no internal id. `externalId`,
 * `subject`, `details`, `budget` and `customFields` are omitted when unset, as the spec says; the
 * other optional values are null. Used for every answer that carries a lead, lists included.
 */
export function presentLead(stored: StoredLead, context: LeadContext): Lead {
  const d = stored.data;
  const customFields = customFieldsByName(d.customFields, context);
  return {
    leadId: stored.leadId,
    ...(stored.externalId !== null && { externalId: stored.externalId }),
    customer: presentCustomer(d.customer),
    contact: presentContact(d.contact),
    ...(d.subject !== null && { subject: d.subject }),
    ...(d.details !== null && { details: d.details }),
    ...(d.budget !== null && { budget: { amount: d.budget.amount, currency: d.budget.currency } }),
    leadSource: stored.leadSourceKey,
    followUpDate: stored.followUpDate === null ? null : followUpInstant(stored.followUpDate),
    ...presentPlace(stored, context),
    stageReasons: d.reasonKeys.map((key) => reasonByKey(context, key)?.label ?? key),
    assignedTo:
      stored.assigneeId === null
        ? null
        : (context.settings.members.find((m) => m.id === stored.assigneeId)?.email ?? null),
    tags: tagNames(d.tagIds, context),
    ...(customFields && { customFields }),
    source: stored.source,
    createdAt: new Date(stored.createdAt).toISOString(),
    updatedAt: new Date(stored.updatedAt).toISOString(),
  } satisfies Lead;
}

/** Where the lead is: pipeline, stage and status (the stage's state) by current name. */
export function presentPlace(stored: StoredLead, context: LeadContext): Pick<Lead, 'pipeline' | 'stage' | 'status'> {
  const place = stageById(context, stored.stageId);
  return { pipeline: place?.pipeline.name ?? '', stage: place?.stage.name ?? '', status: place?.stage.state ?? 'OPEN' };
}

function presentCustomer(c: CustomerSnapshot): LeadCustomerSnapshot {
  return {
    clientId: c.clientId,
    name: c.name,
    country: c.country,
    ...(c.phone !== null && { phone: c.phone }),
    ...(c.address !== null && { address: c.address }),
    ...(c.city !== null && { city: c.city }),
    ...(c.state !== null && { state: c.state }),
    ...(c.pincode !== null && { pincode: c.pincode }),
  } satisfies LeadCustomerSnapshot;
}

function presentContact(c: ContactSnapshot): LeadContactSnapshot {
  return {
    contactId: c.contactId,
    name: c.name,
    ...(c.email !== null && { email: c.email }),
    // The vendor's published answers carry "" for a contact without a phone (docs/decisions.md).
    phone: c.phone ?? '',
    country: c.country,
    ...(c.designation !== null && { designation: c.designation }),
  } satisfies LeadContactSnapshot;
}

/** Current names, ordered by name; a tag removed from the configuration altogether is no longer shown. */
function tagNames(ids: readonly string[], context: LeadContext): string[] {
  const names: string[] = [];
  for (const id of ids) {
    const tag = context.settings.tags.find((t) => t.id === id);
    if (tag) names.push(tag.name);
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Live fields only, by current display name (as clients answer); undefined when none is set. */
function customFieldsByName(values: Record<string, unknown>, context: LeadContext): Lead['customFields'] {
  let out: Lead['customFields'];
  for (const field of context.settings.customFields) {
    if (!field.isArchived && Object.hasOwn(values, field.id))
      (out ??= {})[field.name] = values[field.id] as NonNullable<Lead['customFields']>[string];
  }
  return out;
}

/** An activity entry (docs/leads.md "Read"): stage and pipeline by current name, reasons by label. */
export function presentActivity(a: StoredActivity, context: LeadContext): LeadActivity {
  const stageName = (id: string | null) => (id === null ? undefined : stageById(context, id)?.stage.name);
  const pipelineName = (id: string | null) =>
    id === null ? undefined : context.pipelines.pipelines.find((p) => p.id === id)?.name;
  const fromStage = stageName(a.fromStageId);
  const toStage = stageName(a.toStageId);
  const fromPipeline = pipelineName(a.fromPipelineId);
  const toPipeline = pipelineName(a.toPipelineId);
  return {
    activityId: a.activityId,
    type: a.type,
    ...(a.body !== null && { body: a.body }),
    ...(fromStage !== undefined && { fromStage }),
    ...(toStage !== undefined && { toStage }),
    ...(fromPipeline !== undefined && { fromPipeline }),
    ...(toPipeline !== undefined && { toPipeline }),
    ...(a.reasonKeys !== null && { reasons: a.reasonKeys.map((key) => reasonByKey(context, key)?.label ?? key) }),
    author: a.author,
    createdAt: new Date(a.createdAt).toISOString(),
  } satisfies LeadActivity;
}
