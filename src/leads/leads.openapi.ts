import type { ErrorCode } from '../errors/codes.js';
import { ref } from '../openapi/operation.js';
import { stageStateSchema } from '../pipelines/pipelines.types.js';
import { entryInputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import {
  BUDGET_SPEC,
  CONTACT_SPEC,
  CREATE_SPEC,
  CUSTOMER_SPEC,
  NOTES_SPEC,
  OPERATOR_CREATE_SPEC,
  PATCH_SPEC,
} from './lead.schema.js';

/** The leads' named schemas in the OpenAPI document: request bodies from lead.schema.ts's table, answers as lead.present.ts shapes them (operations: leads.routes.ts). */

const byName: EntrySchemaWriter = (entry) => ref(`${entry.title}Input`);
const text = (description: string): JsonSchema => ({ type: 'string', description });
const instant = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });

/** Required members take no null (the reader's null means "not sent"). */
function withRequired(schema: JsonSchema, required: string[]): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const key of required) {
    const type = properties[key]!.type;
    if (Array.isArray(type)) properties[key] = { ...properties[key], type: type.filter((t) => t !== 'null') };
  }
  return { ...schema, properties, required };
}

/** In a PATCH, null clears a block (budget) or is "not sent" (the others): every object member accepts it. */
function nullableObjects(schema: JsonSchema): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const [key, member] of Object.entries(properties)) {
    if (member.$ref)
      properties[key] = { oneOf: [{ $ref: member.$ref }, { type: 'null' }], description: member.description };
  }
  return { ...schema, properties };
}

const CUSTOMER: JsonSchema = closedObject(
  {
    clientId: text("The linked client's clientId (`lead-<leadId>` for a client the lead created)."),
    name: text(''),
    country: text('ISO 3166-1 alpha-2.'),
    phone: text('When set.'),
    address: text('When set.'),
    city: text('When set.'),
    state: text('When set.'),
    pincode: text('When set.'),
  },
  ['clientId', 'name', 'country'],
  { description: "The lead's snapshot of its customer." },
);

const CONTACT: JsonSchema = closedObject(
  {
    contactId: text('Server-assigned, opaque.'),
    name: text(''),
    email: text('Lower case, when set.'),
    phone: text("Always present: the empty string when unset, as the vendor's answers show (requests still omit it)."),
    country: text('ISO 3166-1 alpha-2.'),
    designation: text('When set.'),
  },
  ['contactId', 'name', 'phone', 'country'],
  { description: "The lead's snapshot of its contact." },
);

const LEAD_PROPERTIES: Record<string, JsonSchema> = {
  leadId: text('Server-assigned, opaque, at most 64 characters.'),
  externalId: text('As created; absent for a lead created in the dashboard.'),
  customer: ref('LeadCustomerSnapshot'),
  contact: ref('LeadContactSnapshot'),
  subject: text('Absent when unset.'),
  details: text('Absent when unset.'),
  budget: closedObject({ amount: { type: 'number' }, currency: text('ISO 4217.') }, ['amount', 'currency'], {
    description: 'Absent when unset.',
  }),
  leadSource: { type: ['string', 'null'], description: "The lead source's key." },
  followUpDate: { type: ['string', 'null'], description: 'YYYY-MM-DDT00:00:00.000Z (the date at midnight UTC).' },
  pipeline: text("Current name of the lead's pipeline."),
  stage: text("Current name of the lead's stage."),
  status: stageStateSchema("The stage's state."),
  stageReasons: { type: 'array', items: { type: 'string' }, description: 'Current labels, in the order set.' },
  assignedTo: { type: ['string', 'null'], description: "The member's e-mail (lower case)." },
  tags: { type: 'array', items: { type: 'string' }, description: 'Current tag names, ordered by name.' },
  customFields: {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean'] },
    description: 'By display name; absent when none is set.',
  },
  source: { enum: ['API', 'DASHBOARD'] },
  createdAt: instant('ISO 8601 UTC with milliseconds.'),
  updatedAt: instant('Changes only when a stored value changes.'),
};
const LEAD_REQUIRED: string[] = [
  'leadId',
  'customer',
  'contact',
  'leadSource',
  'followUpDate',
  'pipeline',
  'stage',
  'status',
  'stageReasons',
  'assignedTo',
  'tags',
  'source',
  'createdAt',
  'updatedAt',
];

const ACTIVITY: JsonSchema = closedObject(
  {
    activityId: text('Opaque.'),
    type: {
      enum: ['CREATED', 'STAGE_CHANGE', 'COMMENT', 'INTERNAL_NOTE', 'FIELD_CHANGE'],
      description: 'FIELD_CHANGE (an addition) only with `include=fieldChanges`.',
    },
    body: text('COMMENT and INTERNAL_NOTE.'),
    field: text(
      'FIELD_CHANGE: the field as the lead answers it: subject, details, budget, leadSource, followUpDate, ' +
        'assignedTo, tags, customFields.<name>, customer.<member>, contact.<member>.',
    ),
    from: { description: 'FIELD_CHANGE: the value before, as the lead answers it; null when unset.' },
    to: { description: 'FIELD_CHANGE: the value after, as the lead answers it; null when unset.' },
    fromStage: text(''),
    toStage: text(''),
    fromPipeline: text(''),
    toPipeline: text(''),
    reasons: { type: 'array', items: { type: 'string' }, description: 'Reason labels after the change.' },
    author: text("API, or the operator's e-mail."),
    createdAt: instant(''),
  },
  ['activityId', 'type', 'author', 'createdAt'],
  { description: 'An activity entry.' },
);

export const LEAD_SCHEMAS: Record<string, JsonSchema> = {
  LeadCustomerInput: entryInputSchema(CUSTOMER_SPEC, byName),
  LeadContactInput: entryInputSchema(CONTACT_SPEC, byName),
  LeadBudgetInput: entryInputSchema(BUDGET_SPEC, byName),
  LeadNotesInput: withRequired(entryInputSchema(NOTES_SPEC, byName), ['body']),
  LeadCreate: withRequired(entryInputSchema(CREATE_SPEC, byName), [
    'externalId',
    'customer',
    'contact',
    'pipeline',
    'stage',
  ]),
  OperatorLeadCreate: withRequired(entryInputSchema(OPERATOR_CREATE_SPEC, byName), [
    'customer',
    'contact',
    'pipeline',
    'stage',
  ]),
  LeadPatch: { ...nullableObjects(entryInputSchema(PATCH_SPEC, byName)), minProperties: 1 },
  LeadCustomerSnapshot: CUSTOMER,
  LeadContactSnapshot: CONTACT,
  Lead: closedObject(LEAD_PROPERTIES, LEAD_REQUIRED, { title: 'Lead', description: 'A lead.' }),
  LeadCreated: closedObject<string>(
    { ...LEAD_PROPERTIES, idempotent: { const: true, description: 'Only on an identical retry.' } },
    LEAD_REQUIRED,
    { description: 'The created lead; the lead as it is now with `idempotent: true` on an identical retry.' },
  ),
  LeadActivity: ACTIVITY,
  LeadActivityPage: closedObject(
    { items: { type: 'array', items: ref('LeadActivity') }, nextCursor: { type: ['string', 'null'] } },
    ['items', 'nextCursor'],
  ),
  LeadRemoved: closedObject({ leadId: text(''), removed: { const: true } }, ['leadId', 'removed']),
};

export const urlKey = { urlKey: 'The business key.' };
export const leadKey = { ...urlKey, leadId: 'The leadId the create answered.' };

/** Body errors of a create or edit; CLIENT_NOT_FOUND is one of them here (a 400). */
export const BODY_CODES: ErrorCode[] = [
  'INVALID_FIELD_VALUE',
  'INVALID_CUSTOMER',
  'INVALID_CONTACT',
  'CLIENT_NOT_FOUND',
  'CONTACT_NOT_FOUND',
  'INVALID_PIPELINE',
  'INVALID_STAGE',
  'INVALID_STAGE_REASON',
  'STAGE_REASON_REQUIRED',
  'INVALID_LEAD_SOURCE',
  'INVALID_TAG',
  'INVALID_ASSIGNEE',
  'CUSTOM_FIELDS_NOT_ENABLED',
  'INVALID_CUSTOM_FIELD',
  'INVALID_CUSTOM_FIELD_VALUE',
];
export const EDIT_CODES: ErrorCode[] = [
  ...BODY_CODES.filter((c) => c !== 'INVALID_CUSTOMER' && c !== 'INVALID_CONTACT'),
  'CUSTOMER_CONTACT_NOT_EDITABLE',
];

export const EXAMPLE_CREATE = {
  externalId: 'web-form-000123',
  customer: { name: 'Asha Traders', phone: '+91 98200 00000' },
  contact: { name: 'Asha Rao', email: 'asha@example.com' },
  pipeline: 'Sales',
  stage: 'New',
  subject: 'Bulk order enquiry',
  budget: { amount: 250000 },
  leadSource: 'WEBSITE',
  tags: ['hot'],
};

export const EXAMPLE_LEAD = {
  leadId: 'ld_3kTq9xWm2Lp8Rz4Y',
  externalId: 'web-form-000123',
  customer: { clientId: 'lead-ld_3kTq9xWm2Lp8Rz4Y', name: 'Asha Traders', country: 'IN', phone: '+919820000000' },
  contact: { contactId: 'ct_Hx7pQ2mN9vK4sL1e', name: 'Asha Rao', email: 'asha@example.com', phone: '', country: 'IN' },
  subject: 'Bulk order enquiry',
  budget: { amount: 250000, currency: 'INR' },
  leadSource: 'WEBSITE',
  followUpDate: null,
  pipeline: 'Sales',
  stage: 'New',
  status: 'NEW',
  stageReasons: [],
  assignedTo: null,
  tags: ['hot'],
  source: 'API',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
};

export function withoutExternalId<T extends { externalId: string }>(value: T): Omit<T, 'externalId'> {
  const { externalId: _, ...rest } = value;
  return rest;
}
