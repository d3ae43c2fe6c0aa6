import { opaqueId } from '../auth/secrets.js';
import { canonical } from '../clients/client.compare.js';
import type { FieldChange, StoredActivity, StoredLead } from '../storage/leads.records.js';

/** The customer and contact members an edit can change, in the order the lead answers them. */
const CUSTOMER_MEMBERS = ['clientId', 'name', 'country', 'phone', 'address', 'city', 'state', 'pincode'] as const;
const CONTACT_MEMBERS = ['contactId', 'name', 'email', 'phone', 'country', 'designation'] as const;

/**
 * The field history rule (docs/leads.md "Field history"): one change per field whose stored value
 * differs, in the lead's answer order; nothing for a field that is equal after normalisation (tags are a
 * sorted set, custom values compare canonically). Stage, pipeline and reasons are not here: their
 * STAGE_CHANGE entry says them.
 */
export function fieldChanges(before: StoredLead, after: StoredLead): FieldChange[] {
  const changes: FieldChange[] = [];
  const a = before.data;
  const b = after.data;
  const add = (field: string, from: unknown, to: unknown) => {
    if (canonical(from ?? null) !== canonical(to ?? null)) changes.push({ field, from: from ?? null, to: to ?? null });
  };
  for (const member of CUSTOMER_MEMBERS) add(`customer.${member}`, a.customer[member], b.customer[member]);
  for (const member of CONTACT_MEMBERS) add(`contact.${member}`, a.contact[member], b.contact[member]);
  add('subject', a.subject, b.subject);
  add('details', a.details, b.details);
  add('budget', a.budget, b.budget);
  add('leadSource', before.leadSourceKey, after.leadSourceKey);
  add('followUpDate', before.followUpDate, after.followUpDate);
  add('assignedTo', before.assigneeId, after.assigneeId);
  add('tags', a.tagIds, b.tagIds);
  const ids = new Set([...Object.keys(a.customFields), ...Object.keys(b.customFields)]);
  for (const id of [...ids].sort()) add(`customFields.${id}`, a.customFields[id], b.customFields[id]);
  return changes;
}

/** The FIELD_CHANGE entries of an edit, stamped like its other entries. */
export function fieldChangeEntries(changes: FieldChange[], author: string, now: number): StoredActivity[] {
  return changes.map((change) => ({
    activityId: opaqueId('ac_'),
    type: 'FIELD_CHANGE',
    author,
    body: null,
    fromPipelineId: null,
    toPipelineId: null,
    fromStageId: null,
    toStageId: null,
    reasonKeys: null,
    change,
    createdAt: now,
  }));
}
