import { opaqueId } from '../auth/secrets.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { StoredPipeline, StoredStage } from '../pipelines/pipelines.types.js';
import type { ContactRecord, LeadChange, NoteBatch } from '../storage/leads.store.js';
import { canonical } from '../clients/client.compare.js';
import type { LeadContext } from './lead-context.js';
import type { BlockValues } from './lead.blocks.js';
import { pipelineById, resolveStage, stageById } from './lead.resolve.js';
import { LIMITS } from './lead.schema.js';
import type {
  ContactSnapshot,
  CustomerSnapshot,
  LeadData,
  StoredActivity,
  StoredLead,
} from '../storage/leads.records.js';
import { fieldChangeEntries, fieldChanges } from './lead.history.js';
import { requireReason } from './lead.required-reason.js';
import { inBodyOrder, reasonKeysFor, type NotesInput, type PatchInput } from './lead.validate.js';

/** A visible client as a lead's customer block refills from it. */
export interface ClientRef {
  clientId: string;
  name: string;
  country: string;
  phone: string | null;
}

/** The records a PATCH's `clientId` / `contactId` name, looked up before the lead is locked. */
export interface EditRefs {
  client?: ClientRef;
  contact?: ContactRecord;
}

export interface EditFacts {
  context: LeadContext;
  author: string;
  now: number;
  /** The body's keys in order, so that errors found here keep body order too. */
  order: string[];
}

const EDITABLE_STATES = new Set(['NEW', 'OPEN']);

/**
 * A PATCH against the lead as read (written only if it is still that version): the destination stage and its reasons (4.2 and
 * section 3), the customer and contact rule, tags, custom fields and budget merged, and the entries
 * it adds. A lead whose stored values would not change is not rewritten (its updatedAt is kept).
 */
export function applyEdit(
  current: StoredLead,
  input: PatchInput,
  refs: EditRefs,
  facts: EditFacts,
): Omit<LeadChange, 'events'> {
  const errors: FieldError[] = [];
  const fail = (field: string, code: FieldError['code'], message: string) => void errors.push({ field, message, code });
  const { context } = facts;
  const place = destination(current, input, context, fail);
  const d = current.data;
  const next: StoredLead = { ...current, data: { ...d } };
  if (place) {
    next.pipelineId = place.pipeline.id;
    next.stageId = place.stage.id;
    const stageChanged = place.stage.id !== current.stageId;
    next.data.reasonKeys =
      input.reasonLabels !== undefined
        ? reasonKeysFor(context, place.stage, input.reasonLabels, { fail })
        : stageChanged
          ? []
          : d.reasonKeys;
    if (stageChanged || input.reasonLabels !== undefined) requireReason(place.stage, input.reasonLabels, fail);
    const blocks = input.customer && touches(input.customer) ? ['customer'] : [];
    if (input.contact && touches(input.contact)) blocks.push('contact');
    for (const block of blocks) {
      if (!EDITABLE_STATES.has(place.stage.state))
        fail(block, 'CUSTOMER_CONTACT_NOT_EDITABLE', `${block} can be changed only while the lead is NEW or OPEN`);
    }
  }
  if (input.customer) next.data.customer = editCustomer(d.customer, input.customer, refs.client);
  if (input.contact) next.data.contact = editContact(d.contact, input.contact, refs.contact);
  next.data.tagIds = editTags(d.tagIds, input, fail);
  next.data.customFields = editCustomFields(d.customFields, input);
  if (input.budget !== undefined) {
    const amount = input.budget?.amount ?? d.budget?.amount;
    if (input.budget === null) next.data.budget = null;
    else if (amount === undefined)
      fail('budget.amount', 'INVALID_FIELD_VALUE', 'budget.amount is required: the lead has no budget yet');
    else
      next.data.budget = { amount, currency: input.budget.currency ?? d.budget?.currency ?? context.business.currency };
  }
  if (input.subject !== undefined) next.data.subject = input.subject;
  if (input.details !== undefined) next.data.details = input.details;
  if (input.leadSourceKey !== undefined) next.leadSourceKey = input.leadSourceKey;
  if (input.assigneeId !== undefined) next.assigneeId = input.assigneeId;
  if (input.followUpDate !== undefined) next.followUpDate = input.followUpDate;
  if (errors.length > 0) throw AppError.fromFieldErrors(inBodyOrder(errors, facts.order));

  const activities: StoredActivity[] = [];
  if (next.stageId !== current.stageId || next.data.reasonKeys.join() !== d.reasonKeys.join()) {
    activities.push(stageChange(current, next, facts));
  }
  const notes = [noteBatch('COMMENT', input.comments, facts), noteBatch('INTERNAL_NOTE', input.notes, facts)];
  const changed = canonical(comparable(next)) !== canonical(comparable(current));
  if (changed) activities.push(...fieldChangeEntries(fieldChanges(current, next), facts.author, facts.now));
  return {
    lead: changed ? { ...next, updatedAt: facts.now } : null,
    activities,
    notes: notes.filter((batch) => batch !== undefined),
  };
}

function destination(
  current: StoredLead,
  input: PatchInput,
  context: LeadContext,
  fail: (f: string, c: FieldError['code'], m: string) => void,
): { pipeline: StoredPipeline; stage: StoredStage } | undefined {
  if (input.pipeline && input.stage) return { pipeline: input.pipeline, stage: input.stage };
  if (input.pipeline) return undefined;
  if (input.stageName !== undefined) {
    const pipeline = pipelineById(context, current.pipelineId);
    if (!pipeline || pipeline.isArchived)
      return void fail('stage', 'INVALID_PIPELINE', "The lead's pipeline is archived: send pipeline with stage");
    const stage = resolveStage(pipeline, input.stageName);
    if (!stage)
      return void fail(
        'stage',
        'INVALID_STAGE',
        `stage ${JSON.stringify(input.stageName)} is not a live stage of pipeline ${JSON.stringify(pipeline.name)}`,
      );
    return { pipeline, stage };
  }
  const here = stageById(context, current.stageId);
  return here ?? undefined;
}

const touches = (block: BlockValues) => block.values.size > 0 || block.cleared.length > 0;

const SNAPSHOT_ONLY = ['address', 'city', 'state', 'pincode'] as const;

function editCustomer(current: CustomerSnapshot, block: BlockValues, client: ClientRef | undefined): CustomerSnapshot {
  const sent = (key: string) => block.values.get(key);
  if (client) {
    // A relink refills the snapshot from the client; what the block sends wins; address fields are the block's alone.
    const next: CustomerSnapshot = {
      clientId: client.clientId,
      name: sent('name') ?? client.name,
      country: sent('country') ?? client.country,
      phone: sent('phone') ?? client.phone,
      address: null,
      city: null,
      state: null,
      pincode: null,
    };
    for (const key of SNAPSHOT_ONLY) next[key] = sent(key) ?? null;
    return next;
  }
  return patched(current, block);
}

function editContact(
  current: ContactSnapshot,
  block: BlockValues,
  contact: ContactRecord | undefined,
): ContactSnapshot {
  const sent = (key: string) => block.values.get(key);
  if (contact) {
    return {
      contactId: contact.contactId,
      name: sent('name') ?? contact.name,
      email: sent('email') ?? contact.email,
      phone: sent('phone') ?? contact.phone,
      country: sent('country') ?? contact.country,
      designation: sent('designation') ?? null,
    };
  }
  return patched(current, block);
}

/** Snapshot members sent replace, members sent as null clear; the reference never changes here. */
function patched<T extends object>(current: T, block: BlockValues): T {
  const next = { ...current } as Record<string, unknown>;
  for (const [key, value] of block.values) if (key !== 'clientId' && key !== 'contactId') next[key] = value;
  for (const key of block.cleared) next[key] = null;
  return next as T;
}

function editTags(
  current: string[],
  input: PatchInput,
  fail: (f: string, c: FieldError['code'], m: string) => void,
): string[] {
  let ids = input.tagIds ?? current;
  if (input.tagsAdd) ids = [...ids, ...input.tagsAdd.filter((id) => !ids.includes(id))];
  if (input.tagsRemove) ids = ids.filter((id) => !input.tagsRemove!.includes(id));
  if (ids.length > LIMITS.tags)
    fail(input.tagsAdd ? 'tagsAdd' : 'tags', 'INVALID_FIELD_VALUE', `A lead carries at most ${LIMITS.tags} tags`);
  // A set: stored in one order, so that the same tags compare equal however they were sent.
  return [...ids].sort();
}

function editCustomFields(current: LeadData['customFields'], input: PatchInput): LeadData['customFields'] {
  if (!input.customFields && !input.clearedCustomFields?.length) return current;
  const next = { ...current, ...input.customFields };
  for (const id of input.clearedCustomFields ?? []) delete next[id];
  return next;
}

/** What "a stored value changes" compares: everything of the lead but its bookkeeping. */
function comparable(lead: StoredLead) {
  const { version: _v, updatedAt: _u, createdAt: _c, ...rest } = lead;
  return { ...rest, data: { ...rest.data, reasonKeys: rest.data.reasonKeys.join('\u0000') } };
}

function stageChange(current: StoredLead, next: StoredLead, facts: EditFacts): StoredActivity {
  return {
    activityId: opaqueId('ac_'),
    type: 'STAGE_CHANGE',
    author: facts.author,
    body: null,
    fromPipelineId: current.pipelineId,
    toPipelineId: next.pipelineId,
    fromStageId: current.stageId,
    toStageId: next.stageId,
    reasonKeys: next.data.reasonKeys,
    createdAt: facts.now,
  };
}

/** The entries of a comment or note batch; the store adds none when its clientRequestId is already used on the lead. */
function noteBatch(
  kind: 'COMMENT' | 'INTERNAL_NOTE',
  batch: NotesInput | undefined,
  facts: EditFacts,
): NoteBatch | undefined {
  if (!batch) return undefined;
  const activities = batch.bodies.map((body) => ({
    activityId: opaqueId('ac_'),
    type: kind,
    author: facts.author,
    body,
    fromPipelineId: null,
    toPipelineId: null,
    fromStageId: null,
    toStageId: null,
    reasonKeys: null,
    createdAt: facts.now,
  }));
  return { kind, clientRequestId: batch.clientRequestId, activities };
}
