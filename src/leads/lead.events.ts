import { presentClient } from '../clients/client.present.js';
import { insertedClient } from '../storage/client-batches.js';
import type { OutboxRow } from '../storage/webhooks.store.js';
import type { EventPlan } from '../webhooks/events.js';
import type { LeadContext } from './lead-context.js';
import { presentLead, presentPlace } from './lead.present.js';
import type { StoredLead } from '../storage/leads.records.js';

const NONE: OutboxRow[] = [];

/** lead.created: the lead as the create answers it. Nothing (and no presenting) when nobody subscribes. */
export function createdEvents(plan: EventPlan, lead: StoredLead, context: LeadContext): OutboxRow[] {
  if (!plan.wants('lead.created')) return NONE;
  return plan.rows({ type: 'lead.created', resourceId: lead.leadId, data: presentLead(lead, context) }, lead.createdAt);
}

/**
 * client.created for the client a lead create makes (a customer given by name): the client as GET client
 * will answer it, written with the lead so that it exists exactly when the client does. Such a client
 * carries no custom field values, so the business alone (its currency) completes its presentation.
 */
export function newClientEvents(
  plan: EventPlan,
  clientId: string,
  data: unknown,
  at: number,
  context: LeadContext,
): OutboxRow[] {
  if (!plan.wants('client.created')) return NONE;
  const client = presentClient(insertedClient(clientId, 'API', data, at), {
    business: context.business,
    customFields: [],
    liveFieldIds: new Set(),
  });
  return plan.rows({ type: 'client.created', resourceId: clientId, data: client }, at);
}

/**
 * The events of an edit that rewrites the lead (`next`, as stored after it): `lead.updated` for every
 * change, then `lead.stage_changed` too when the pipeline or stage moved, with where the lead was and
 * where it is. Both carry the lead as it is after the edit; an integrator subscribed to both gets both.
 */
export function editedEvents(
  plan: EventPlan,
  current: StoredLead,
  next: StoredLead,
  context: LeadContext,
): OutboxRow[] {
  const moved = next.stageId !== current.stageId || next.pipelineId !== current.pipelineId;
  const updated = plan.wants('lead.updated');
  const stageChanged = moved && plan.wants('lead.stage_changed');
  if (!updated && !stageChanged) return NONE;
  const lead = presentLead(next, context);
  const event = { resourceId: next.leadId, data: lead };
  const rows = updated ? plan.rows({ type: 'lead.updated', ...event }, next.updatedAt) : [];
  if (stageChanged) {
    const data = { ...lead, previous: presentPlace(current, context), current: presentPlace(next, context) };
    rows.push(...plan.rows({ type: 'lead.stage_changed', ...event, data }, next.updatedAt));
  }
  return rows;
}
