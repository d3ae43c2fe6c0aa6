import { readCustomFieldValues } from '../clients/client.custom-fields.js';
import type { CustomFieldValue } from '../storage/records.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { StoredPipeline, StoredStage } from '../pipelines/pipelines.types.js';
import { FieldReader, isJsonObject } from '../validation/field-reader.js';
import type { EntrySpec } from '../validation/field-spec.js';
import { codePointLength, isStorableString } from '../validation/strings.js';
import type { LeadContext } from './lead-context.js';
import { readBudget, readCreateBlock, readEditBlock, type BlockValues, type BudgetValues } from './lead.blocks.js';
import { parseFollowUpDate } from './lead.dates.js';
import { requireReason } from './lead.required-reason.js';
import {
  resolveLeadSource,
  resolveMember,
  resolvePipeline,
  resolveReasons,
  resolveStage,
  resolveTags,
} from './lead.resolve.js';
import {
  ANSWER_ONLY_KEYS,
  CLEARABLE_KEYS,
  CREATE_SPEC,
  LIMITS,
  OPERATOR_CREATE_SPEC,
  PATCH_SPEC,
} from './lead.schema.js';

/**
 * Lead bodies (docs/leads.md "Create" and "Edit") in one pass: shapes through the one body
 * reader, names resolved through lead.resolve.ts against the cached context, every failure collected
 * and ordered by the body key it belongs to (missing fields first). What depends on the lead's state
 * (a stage of its current pipeline, reasons of its current stage) is decided by lead.edit.ts.
 */

/** What both bodies share, read and resolved. `undefined`: not sent; `null`: cleared (PATCH). */
export interface LeadFields {
  subject?: string | null;
  details?: string | null;
  budget?: BudgetValues | null;
  leadSourceKey?: string | null;
  assigneeId?: string | null;
  followUpDate?: string | null;
  pipeline?: StoredPipeline;
  /** The stage name sent, and when the pipeline was sent too, the stage it resolved to. */
  stageName?: string;
  stage?: StoredStage;
  /** Reason labels sent; keys when they could be resolved here (a stage was resolved). */
  reasonLabels?: string[];
  reasonKeys?: string[];
  tagIds?: string[];
  customFields?: Record<string, CustomFieldValue>;
  clearedCustomFields?: string[];
}

export interface CreateInput extends LeadFields {
  externalId: string | null;
  customer: BlockValues;
  contact: BlockValues;
  pipeline: StoredPipeline;
  stage: StoredStage;
  reasonKeys: string[];
}

export interface NotesInput {
  bodies: string[];
  clientRequestId: string | null;
}

export interface PatchInput extends LeadFields {
  tagsAdd?: string[];
  tagsRemove?: string[];
  customer?: BlockValues;
  contact?: BlockValues;
  comments?: NotesInput;
  notes?: NotesInput;
}

interface Pass {
  reader: FieldReader;
  context: LeadContext;
  today: string;
  body: Record<string, unknown>;
}

function newPass(body: unknown, context: LeadContext, today: string): Pass {
  if (!isJsonObject(body))
    throw new AppError('INVALID_FIELD', 'The request body must be a JSON object', [
      { field: 'body', code: 'INVALID_FIELD', message: 'The request body must be a JSON object' },
    ]);
  const reader = new FieldReader(
    { businessCountry: context.business.country, enforceGstinChecksum: false },
    {
      rulesForList: () => undefined,
      readCustomFields: (raw, path, r) => {
        const result = readCustomFieldValues(raw, path, {
          customFieldsEnabled: context.business.customFieldsEnabled,
          customFields: context.settings.customFields,
        });
        r.errors.push(...result.errors);
        return result.errors.length === 0 ? result.values : undefined;
      },
    },
  );
  return { reader, context, today, body };
}

/** A create body (API: with externalId; operator: without). Throws the 400 listing every failure. */
export function validateCreate(
  raw: unknown,
  context: LeadContext,
  today: string,
  mode: 'api' | 'operator',
): CreateInput {
  const pass = newPass(raw, context, today);
  const { reader, body } = pass;
  const spec = mode === 'api' ? CREATE_SPEC : OPERATOR_CREATE_SPEC;
  const input: Partial<CreateInput> = { externalId: null };
  forEachKey(pass, spec, (key, value) => {
    if (key === 'externalId') input.externalId = readExternalId(value, reader) ?? null;
    // null is "not sent": reported once, as missing, below.
    else if (key === 'customer')
      input.customer = value === null ? undefined : readCreateBlock('customer', value, reader);
    else if (key === 'contact') input.contact = value === null ? undefined : readCreateBlock('contact', value, reader);
    else readCommon(pass, key, value, input, 'create');
  });
  const missing = (key: string, code: FieldError['code'], message: string) => {
    if (body[key] === undefined || body[key] === null) reader.fail(key, code, message);
  };
  if (mode === 'api') missing('externalId', 'EXTERNAL_ID_REQUIRED', 'externalId is required');
  missing('customer', 'INVALID_CUSTOMER', 'customer is required');
  missing('contact', 'INVALID_CONTACT', 'contact is required');
  missing('pipeline', 'INVALID_PIPELINE', 'pipeline is required');
  if (body.pipeline !== undefined && body.pipeline !== null) missing('stage', 'INVALID_STAGE', 'stage is required');
  if (input.budget && input.budget.amount === undefined)
    reader.valueError('budget.amount', 'budget.amount is required');
  resolvePlace(pass, input);
  if (input.stage)
    requireReason(input.stage, input.reasonLabels, (field, code, message) => pass.reader.fail(field, code, message));
  finish(pass);
  if (input.budget) input.budget.currency ??= context.business.currency;
  return input as CreateInput;
}

/** A PATCH body: its shape and every name that does not depend on the lead's state. */
export function validatePatch(raw: unknown, context: LeadContext, today: string): PatchInput {
  const pass = newPass(raw, context, today);
  const { reader, body } = pass;
  const keys = Object.keys(body);
  if (keys.length === 0) reader.nameError('body', 'The request body must name at least one field to change');
  const input: PatchInput = {};
  forEachKey(
    pass,
    PATCH_SPEC,
    (key, value) => {
      if (key === 'customer' || key === 'contact')
        input[key] = value === null ? undefined : readEditBlock(key, value, reader);
      else if (key === 'tagsAdd' || key === 'tagsRemove')
        input[key] = readTagNames(pass, key, value, key === 'tagsRemove');
      else if (key === 'addComments') input.comments = readNotes(pass, key, value);
      else if (key === 'addInternalNotes') input.notes = readNotes(pass, key, value);
      else readCommon(pass, key, value, input, 'edit');
    },
    (key) => {
      if (key === 'externalId') return 'externalId cannot be changed';
      return null;
    },
  );
  if (input.pipeline !== undefined && body.stage === undefined)
    reader.nameError('pipeline', 'pipeline requires stage in the same request');
  if (body.tags !== undefined && (body.tagsAdd !== undefined || body.tagsRemove !== undefined)) {
    reader.nameError('tags', 'tags cannot be sent with tagsAdd or tagsRemove');
  }
  const both = (input.tagsAdd ?? []).filter((id) => (input.tagsRemove ?? []).includes(id));
  if (both.length > 0) reader.nameError('tagsRemove', 'tagsRemove names a tag that tagsAdd adds');
  if (input.pipeline) resolvePlace(pass, input);
  finish(pass);
  return input;
}

/** Walks the body in order: answer-only and unknown keys are INVALID_FIELD; null is handled by the caller's rules. */
function forEachKey(
  pass: Pass,
  spec: EntrySpec,
  read: (key: string, value: unknown) => void,
  refuse?: (key: string) => string | null,
): void {
  for (const [key, value] of Object.entries(pass.body)) {
    const refusal =
      refuse?.(key) ?? (ANSWER_ONLY_KEYS.has(key) ? `${key} is set by the server and cannot be sent` : null);
    if (refusal !== null || !spec.fields.has(key)) {
      pass.reader.nameError(key, refusal ?? `${key} is not an accepted field`);
      continue;
    }
    read(key, value);
  }
}

function readExternalId(raw: unknown, reader: FieldReader): string | undefined {
  if (raw === null) return undefined;
  if (typeof raw !== 'string') return void reader.nameError('externalId', 'externalId must be a string');
  if (!isStorableString(raw))
    return void reader.valueError('externalId', 'externalId must not contain NUL characters or unpaired surrogates');
  const value = raw.trim();
  if (value.length === 0 || codePointLength(value) > LIMITS.externalId) {
    return void reader.fail(
      'externalId',
      'EXTERNAL_ID_REQUIRED',
      `externalId must be 1 to ${LIMITS.externalId} characters after trimming`,
    );
  }
  return value;
}

/** Fields both bodies take. In a PATCH null clears a clearable field; elsewhere null means "not sent". */
function readCommon(pass: Pass, key: string, raw: unknown, input: LeadFields, mode: 'create' | 'edit'): void {
  const { reader, context } = pass;
  if (raw === null) {
    if (mode === 'edit' && CLEARABLE_KEYS.has(key)) (input as Record<string, unknown>)[fieldOf(key)] = null;
    return;
  }
  if (key === 'budget') return void (input.budget = readBudget(raw, reader));
  if (key === 'tags') return void (input.tagIds = readTagNames(pass, key, raw, false));
  const value = reader.readMember(PATCH_SPEC.fields.get(key)!, raw, key);
  if (value === undefined) return;
  switch (key) {
    case 'subject':
    case 'details':
      input[key] = value as string;
      return;
    case 'leadSource': {
      const source = resolveLeadSource(context, value as string);
      if (source) input.leadSourceKey = source.key;
      else reader.fail(key, 'INVALID_LEAD_SOURCE', `leadSource ${JSON.stringify(value)} is not a live lead source`);
      return;
    }
    case 'assignedTo': {
      const member = resolveMember(context, value as string);
      if (member) input.assigneeId = member.id;
      else reader.fail(key, 'INVALID_ASSIGNEE', 'assignedTo is not a live member of this business');
      return;
    }
    case 'followUpDate':
      input.followUpDate = readDate(pass, value as string);
      return;
    case 'pipeline': {
      const pipeline = resolvePipeline(context, value as string);
      if (pipeline) input.pipeline = pipeline;
      else reader.fail(key, 'INVALID_PIPELINE', `pipeline ${JSON.stringify(value)} is not a live pipeline`);
      return;
    }
    case 'stage':
      input.stageName = value as string;
      return;
    case 'stageReasons':
      input.reasonLabels = value as string[];
      return;
    case 'customFields':
      input.customFields = value as Record<string, CustomFieldValue>;
      input.clearedCustomFields = clearedFields(pass, raw, mode);
      return;
  }
}

const fieldOf = (key: string) =>
  (({ leadSource: 'leadSourceKey', assignedTo: 'assigneeId' }) as Record<string, string>)[key] ?? key;

function readDate(pass: Pass, value: string): string | undefined {
  const date = parseFollowUpDate(value);
  if (date === undefined)
    return void pass.reader.valueError('followUpDate', 'followUpDate must be a date YYYY-MM-DD or an ISO 8601 instant');
  if (date < pass.today)
    return void pass.reader.valueError(
      'followUpDate',
      `followUpDate must not be before today (${pass.today}) in the business's time zone`,
    );
  return date;
}

function readTagNames(pass: Pass, key: string, raw: unknown, withArchived: boolean): string[] | undefined {
  if (raw === null) return undefined;
  const names = pass.reader.readMember(PATCH_SPEC.fields.get(key)!, raw, key) as string[] | undefined;
  if (names === undefined) return undefined;
  const { ids, unknown } = resolveTags(pass.context, names, { withArchived });
  if (unknown.length > 0)
    pass.reader.fail(
      key,
      'INVALID_TAG',
      `${key} has no live tag named ${unknown.map((n) => JSON.stringify(n)).join(', ')}`,
    );
  return ids;
}

/** PATCH: names sent with null clear that field only (the name must still resolve to a live field). */
function clearedFields(pass: Pass, raw: unknown, mode: 'create' | 'edit'): string[] {
  if (mode === 'create' || !isJsonObject(raw)) return [];
  const live = pass.context.settings.customFields.filter((f) => !f.isArchived);
  return Object.keys(raw)
    .filter((name) => raw[name] === null)
    .map((name) => live.find((f) => f.name.toLowerCase() === name.toLowerCase())?.id)
    .filter((id): id is string => id !== undefined);
}

function readNotes(pass: Pass, key: string, raw: unknown): NotesInput | undefined {
  if (raw === null) return undefined;
  const read = pass.reader.readMember(PATCH_SPEC.fields.get(key)!, raw, key) as Map<string, unknown> | undefined;
  if (!read) return undefined;
  const bodies = read.get('body') as string[] | undefined;
  // A body the reader refused is already reported.
  if (bodies === undefined && isJsonObject(raw) && raw.body !== undefined && raw.body !== null) return undefined;
  if (!bodies || bodies.length === 0)
    return void pass.reader.valueError(`${key}.body`, `${key}.body must hold 1 to ${LIMITS.entries} entries`);
  return { bodies, clientRequestId: (read.get('clientRequestId') as string | undefined) ?? null };
}

/** Section 3: the stage inside the resolved pipeline, then the reasons against that stage. */
function resolvePlace(pass: Pass, input: LeadFields): void {
  const { reader, context } = pass;
  if (!input.pipeline || input.stageName === undefined) return;
  const stage = resolveStage(input.pipeline, input.stageName);
  if (!stage)
    return void reader.fail(
      'stage',
      'INVALID_STAGE',
      `stage ${JSON.stringify(input.stageName)} is not a live stage of pipeline ${JSON.stringify(input.pipeline.name)}`,
    );
  input.stage = stage;
  input.reasonKeys = reasonKeysFor(context, stage, input.reasonLabels ?? [], reader);
}

/** Each label must resolve on the stage; failures are named by their index. */
export function reasonKeysFor(
  context: LeadContext,
  stage: StoredStage,
  labels: readonly string[],
  reader: { fail: FieldReader['fail'] },
): string[] {
  const keys: string[] = [];
  labels.forEach((label, index) => {
    const { keys: found } = resolveReasons(context, stage, [label]);
    if (found.length === 0)
      reader.fail(
        `stageReasons[${index}]`,
        'INVALID_STAGE_REASON',
        `stageReasons[${index}] ${JSON.stringify(label)} is not a reason of stage ${JSON.stringify(stage.name)}`,
      );
    else if (!keys.includes(found[0]!)) keys.push(found[0]!);
  });
  return keys;
}

/** The 400 of a pass that found failures. */
function finish(pass: Pass): void {
  if (pass.reader.errors.length > 0)
    throw AppError.fromFieldErrors(inBodyOrder(pass.reader.errors, Object.keys(pass.body)));
}

/** Errors in body order, by the top-level key each belongs to (fields not sent first), stable otherwise. */
export function inBodyOrder(errors: FieldError[], order: string[]): FieldError[] {
  const rank = (e: FieldError) => order.indexOf(e.field.split(/[.[]/)[0]!);
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}
