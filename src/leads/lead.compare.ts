import { canonical } from '../clients/client.compare.js';
import type { LeadContext } from './lead-context.js';
import type { BlockValues } from './lead.blocks.js';
import type { CreateInput } from './lead.validate.js';

/**
 * Idempotency of create (docs/leads.md "Create": retry safely): the request is compared with the create request that
 * made the lead, both normalised. Strings are already trimmed, e-mails lower-cased, phones normalised,
 * countries and currencies upper-cased by the validator; here defaults are filled in (a country of IN
 * when no client is linked, the business currency), names are replaced by what they resolve to (ids
 * and keys), tags become a set, custom fields are keyed by id. A customer or contact given by name
 * compares as sent, so a retry of a create that made a client or contact matches it and makes none.
 */
export type CreateRequest = Record<string, unknown>;

export function createRequestOf(input: CreateInput, linked: { client: boolean; contact: boolean }, context: LeadContext): CreateRequest {
  return {
    customer: block(input.customer, linked.client),
    contact: block(input.contact, linked.contact),
    pipelineId: input.pipeline.id,
    stageId: input.stage.id,
    reasonKeys: input.reasonKeys,
    subject: input.subject ?? null,
    details: input.details ?? null,
    budget: input.budget ? { amount: input.budget.amount, currency: input.budget.currency ?? context.business.currency } : null,
    leadSourceKey: input.leadSourceKey ?? null,
    assigneeId: input.assigneeId ?? null,
    tagIds: [...(input.tagIds ?? [])].sort(),
    customFields: input.customFields ?? {},
    followUpDate: input.followUpDate ?? null,
  };
}

/** A block as sent: an omitted country is IN unless a linked record supplies it. */
function block(values: BlockValues, linked: boolean): Record<string, string> {
  const out = Object.fromEntries(values.values);
  if (out.country === undefined && !linked) out.country = 'IN';
  return out;
}

export function sameCreateRequest(stored: unknown, candidate: CreateRequest): boolean {
  return canonical(stored) === canonical(candidate);
}
