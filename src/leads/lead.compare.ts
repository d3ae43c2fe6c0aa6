import { canonical } from '../clients/client.compare.js';
import type { AppError } from '../errors/app-error.js';
import { isJsonObject } from '../validation/field-reader.js';
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

export function createRequestOf(
  input: CreateInput,
  linked: { client: boolean; contact: boolean },
  context: LeadContext,
): CreateRequest {
  return {
    customer: block(input.customer, linked.client),
    contact: block(input.contact, linked.contact),
    pipelineId: input.pipeline.id,
    stageId: input.stage.id,
    reasonKeys: input.reasonKeys,
    subject: input.subject ?? null,
    details: input.details ?? null,
    budget: input.budget
      ? { amount: input.budget.amount, currency: input.budget.currency ?? context.business.currency }
      : null,
    leadSourceKey: input.leadSourceKey ?? null,
    assigneeId: input.assigneeId ?? null,
    tagIds: [...(input.tagIds ?? [])].sort(),
    customFields: input.customFields ?? {},
    followUpDate: input.followUpDate ?? null,
  };
}

/** A block as sent: an omitted country is IN unless a linked record supplies it (compared as IN either way: sameCreateRequest). */
function block(values: BlockValues, linked: boolean): Record<string, string> {
  const out = Object.fromEntries(values.values);
  if (out.country === undefined && !linked) out.country = 'IN';
  return out;
}

/**
 * Whether a retry is the create that made the lead. Custom fields count only while live (decisions.md:
 * values under an archived or removed field, or all of them once custom fields are off, take no part);
 * a block's country compares as IN when omitted, linked record or not (4.1: a defaulted value equals its
 * omission), so requests stored before that rule compare too.
 */
export function sameCreateRequest(stored: unknown, candidate: CreateRequest, context: LeadContext): boolean {
  return canonical(comparable(stored, context)) === canonical(comparable(candidate, context));
}

function comparable(request: unknown, context: LeadContext): unknown {
  if (!isJsonObject(request)) return request;
  const live = new Set(
    context.business.customFieldsEnabled
      ? context.settings.customFields.filter((f) => !f.isArchived).map((f) => f.id)
      : [],
  );
  const fields = isJsonObject(request.customFields) ? request.customFields : {};
  const withCountry = (b: unknown) => (isJsonObject(b) ? { ...b, country: b.country ?? 'IN' } : b);
  return {
    ...request,
    customer: withCountry(request.customer),
    contact: withCountry(request.contact),
    customFields: Object.fromEntries(Object.entries(fields).filter(([id]) => live.has(id))),
  };
}

/**
 * A create refused only for custom field names that are no longer live, or for custom fields being off
 * (the retry of a create made before an operator archived, removed or turned them off): the body
 * without those names, to validate again and compare with the stored lead. Undefined for any other refusal.
 */
export function withoutGoneCustomFields(
  body: unknown,
  error: unknown,
  context: LeadContext,
): Record<string, unknown> | undefined {
  const errors = (error as AppError | undefined)?.fieldErrors;
  if (!errors?.length || !isJsonObject(body) || !isJsonObject(body.customFields)) return undefined;
  if (
    !errors.every(
      (e) =>
        e.field === 'customFields' && (e.code === 'INVALID_CUSTOM_FIELD' || e.code === 'CUSTOM_FIELDS_NOT_ENABLED'),
    )
  )
    return undefined;
  const live = new Set(context.settings.customFields.filter((f) => !f.isArchived).map((f) => f.name.toLowerCase()));
  const kept = context.business.customFieldsEnabled
    ? Object.entries(body.customFields).filter(([name]) => live.has(name.toLowerCase()))
    : [];
  return { ...body, customFields: Object.fromEntries(kept) };
}
