import type { ErrorCode } from '../errors/codes.js';
import { ref, success, type DocSection, type OperationDoc } from '../openapi/operation.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { STAGE_STATES } from '../pipelines/pipelines.types.js';
import { entryInputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { ACTIVITIES_PAGE } from './leads.service.js';
import { ADMIN_LEADS, LEAD_REFUSALS, LEADS } from './leads.routes.js';
import { BUDGET_SPEC, CONTACT_SPEC, CREATE_SPEC, CUSTOMER_SPEC, NOTES_SPEC, OPERATOR_CREATE_SPEC, PATCH_SPEC } from './lead.schema.js';

/** Leads in the OpenAPI document: request bodies from lead.schema.ts's table, answers as lead.present.ts shapes them. */

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
    if (member.$ref) properties[key] = { oneOf: [{ $ref: member.$ref }, { type: 'null' }], description: member.description };
  }
  return { ...schema, properties };
}

const CUSTOMER: JsonSchema = closedObject({
  clientId: text('The linked client\'s clientId (`lead-<leadId>` for a client the lead created).'), name: text(''), country: text('ISO 3166-1 alpha-2.'),
  phone: text('When set.'), address: text('When set.'), city: text('When set.'), state: text('When set.'), pincode: text('When set.'),
}, ['clientId', 'name', 'country'], { description: 'The lead\'s snapshot of its customer.' });

const CONTACT: JsonSchema = closedObject({
  contactId: text('Server-assigned, opaque.'), name: text(''), email: text('Lower case, when set.'), phone: text('When set.'),
  country: text('ISO 3166-1 alpha-2.'), designation: text('When set.'),
}, ['contactId', 'name', 'country'], { description: 'The lead\'s snapshot of its contact.' });

const LEAD_PROPERTIES: Record<string, JsonSchema> = {
  leadId: text('Server-assigned, opaque, at most 64 characters.'),
  externalId: text('As created; absent for a lead created in the dashboard.'),
  customer: ref('LeadCustomerSnapshot'),
  contact: ref('LeadContactSnapshot'),
  subject: text('Absent when unset.'),
  details: text('Absent when unset.'),
  budget: closedObject({ amount: { type: 'number' }, currency: text('ISO 4217.') }, ['amount', 'currency'], { description: 'Absent when unset.' }),
  leadSource: { type: ['string', 'null'], description: 'The lead source\'s key.' },
  followUpDate: { type: ['string', 'null'], description: 'YYYY-MM-DDT00:00:00.000Z (the date at midnight UTC).' },
  pipeline: text('Current name of the lead\'s pipeline.'),
  stage: text('Current name of the lead\'s stage.'),
  status: { enum: [...STAGE_STATES], description: 'The stage\'s state.' },
  stageReasons: { type: 'array', items: { type: 'string' }, description: 'Current labels, in the order set.' },
  assignedTo: { type: ['string', 'null'], description: 'The member\'s e-mail (lower case).' },
  tags: { type: 'array', items: { type: 'string' }, description: 'Current tag names, ordered by name.' },
  customFields: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: 'By display name; absent when none is set.' },
  source: { enum: ['API', 'DASHBOARD'] },
  createdAt: instant('ISO 8601 UTC with milliseconds.'),
  updatedAt: instant('Changes only when a stored value changes.'),
};
const LEAD_REQUIRED: string[] = ['leadId', 'customer', 'contact', 'leadSource', 'followUpDate', 'pipeline', 'stage', 'status', 'stageReasons', 'assignedTo', 'tags', 'source', 'createdAt', 'updatedAt'];

const ACTIVITY: JsonSchema = closedObject({
  activityId: text('Opaque.'), type: { enum: ['CREATED', 'STAGE_CHANGE', 'COMMENT', 'INTERNAL_NOTE'] }, body: text('COMMENT and INTERNAL_NOTE.'),
  fromStage: text(''), toStage: text(''), fromPipeline: text(''), toPipeline: text(''),
  reasons: { type: 'array', items: { type: 'string' }, description: 'Reason labels after the change.' },
  author: text('API, or the operator\'s e-mail.'), createdAt: instant(''),
}, ['activityId', 'type', 'author', 'createdAt'], { description: 'An activity entry.' });

const SCHEMAS: Record<string, JsonSchema> = {
  LeadCustomerInput: entryInputSchema(CUSTOMER_SPEC, byName),
  LeadContactInput: entryInputSchema(CONTACT_SPEC, byName),
  LeadBudgetInput: entryInputSchema(BUDGET_SPEC, byName),
  LeadNotesInput: withRequired(entryInputSchema(NOTES_SPEC, byName), ['body']),
  LeadCreate: withRequired(entryInputSchema(CREATE_SPEC, byName), ['externalId', 'customer', 'contact', 'pipeline', 'stage']),
  OperatorLeadCreate: withRequired(entryInputSchema(OPERATOR_CREATE_SPEC, byName), ['customer', 'contact', 'pipeline', 'stage']),
  LeadPatch: { ...nullableObjects(entryInputSchema(PATCH_SPEC, byName)), minProperties: 1 },
  LeadCustomerSnapshot: CUSTOMER,
  LeadContactSnapshot: CONTACT,
  Lead: closedObject(LEAD_PROPERTIES, LEAD_REQUIRED, { title: 'Lead', description: 'A lead.' }),
  LeadCreated: closedObject<string>({ ...LEAD_PROPERTIES, idempotent: { const: true, description: 'Only on an identical retry.' } }, LEAD_REQUIRED,
    { description: 'The created lead; the lead as it is now with `idempotent: true` on an identical retry.' }),
  LeadActivity: ACTIVITY,
  LeadActivityPage: closedObject({ items: { type: 'array', items: ref('LeadActivity') }, nextCursor: { type: ['string', 'null'] } }, ['items', 'nextCursor']),
  LeadRemoved: closedObject({ leadId: text(''), removed: { const: true } }, ['leadId', 'removed']),
};

const urlKey = { urlKey: 'The business key.' };
const leadKey = { ...urlKey, leadId: 'The leadId the create answered.' };

/** Body errors of a create or edit; CLIENT_NOT_FOUND is one of them here (a 400). */
const BODY_CODES: ErrorCode[] = [
  'INVALID_FIELD_VALUE', 'INVALID_CUSTOMER', 'INVALID_CONTACT', 'CLIENT_NOT_FOUND', 'CONTACT_NOT_FOUND', 'INVALID_PIPELINE', 'INVALID_STAGE',
  'INVALID_STAGE_REASON', 'INVALID_LEAD_SOURCE', 'INVALID_TAG', 'INVALID_ASSIGNEE', 'CUSTOM_FIELDS_NOT_ENABLED', 'INVALID_CUSTOM_FIELD', 'INVALID_CUSTOM_FIELD_VALUE',
];
const EDIT_CODES: ErrorCode[] = [...BODY_CODES.filter((c) => c !== 'INVALID_CUSTOMER' && c !== 'INVALID_CONTACT'), 'CUSTOMER_CONTACT_NOT_EDITABLE'];

const EXAMPLE_CREATE = {
  externalId: 'web-form-000123', customer: { name: 'Asha Traders', phone: '+91 98200 00000' }, contact: { name: 'Asha Rao', email: 'asha@example.com' },
  pipeline: 'Sales', stage: 'New', subject: 'Bulk order enquiry', budget: { amount: 250000 }, leadSource: 'WEBSITE', tags: ['hot'],
};

const EXAMPLE_LEAD = {
  leadId: 'ld_3kTq9xWm2Lp8Rz4Y', externalId: 'web-form-000123',
  customer: { clientId: 'lead-ld_3kTq9xWm2Lp8Rz4Y', name: 'Asha Traders', country: 'IN', phone: '+919820000000' },
  contact: { contactId: 'ct_Hx7pQ2mN9vK4sL1e', name: 'Asha Rao', email: 'asha@example.com', country: 'IN' },
  subject: 'Bulk order enquiry', budget: { amount: 250000, currency: 'INR' }, leadSource: 'WEBSITE', followUpDate: null,
  pipeline: 'Sales', stage: 'New', status: 'NEW', stageReasons: [], assignedTo: null, tags: ['hot'], source: 'API',
  createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z',
};

function withoutExternalId<T extends { externalId: string }>(value: T): Omit<T, 'externalId'> {
  const { externalId: _, ...rest } = value;
  return rest;
}

function bareRefusal(method: OperationDoc['method'], path: string, pathParams: Record<string, string>): OperationDoc {
  return {
    method, path, operationId: `${method}${path.endsWith('activities') ? 'LeadActivities' : path.endsWith(':leadId') ? 'Lead' : 'Leads'}Refused`,
    guard: 'open', pathParams, refusal: 'bare', summary: 'Not supported (405)',
    description: 'Not offered by the leads interface; answered 405, the status alone, before any authentication.',
  };
}

const activitiesQuery = [{ name: 'after', description: 'The nextCursor of the previous page.', schema: { type: 'string' } }];

function leadOperations(base: string, guard: 'app' | 'operator', prefix: string): OperationDoc[] {
  const operator = guard === 'operator';
  return [
    {
      method: 'post', path: base, operationId: `${prefix}createLead`, guard, pathParams: urlKey,
      summary: operator ? 'Create a lead in the dashboard (source DASHBOARD, no externalId)' : 'Create a lead (idempotent by externalId)',
      description: 'Names resolve to the live configuration (pipeline first, then the stage inside it; reasons by label on that stage). A customer or contact given by name is created with the lead, in one transaction. '
        + 'A lead that is stored sends the `lead.created` webhook event. '
        + (operator ? '' : 'The same externalId with the same details (normalised) answers 201 with the lead as it is now and `idempotent: true`; with different details 409 with `data.error.existingLeadId`; a body that fails is 400 first.'),
      body: { required: true, schema: ref(operator ? 'OperatorLeadCreate' : 'LeadCreate'), examples: { byName: { summary: 'A new customer and contact, by name', value: operator ? withoutExternalId(EXAMPLE_CREATE) : EXAMPLE_CREATE } } },
      answers: [{ status: 201, description: 'The lead.', schema: success(ref(operator ? 'Lead' : 'LeadCreated')), example: { success: true, data: operator ? { ...withoutExternalId(EXAMPLE_LEAD), source: 'DASHBOARD' } : EXAMPLE_LEAD } }],
      errors: ['INVALID_QUERY_FIELD', ...(operator ? [] : ['EXTERNAL_ID_REQUIRED' as const, 'IDEMPOTENCY_CONFLICT' as const]), ...BODY_CODES, ...(operator ? ['BUSINESS_NOT_FOUND' as const] : [])],
      bodyErrors: ['CLIENT_NOT_FOUND'],
    },
    {
      method: 'get', path: `${base}/:leadId`, operationId: `${prefix}getLead`, guard, pathParams: leadKey,
      summary: 'Get a lead', description: 'Unknown, removed and other businesses\' leads all answer the same 404. No query parameters.',
      answers: [{ status: 200, description: 'The lead.', schema: success(ref('Lead')) }],
      errors: ['INVALID_QUERY_FIELD', 'LEAD_NOT_FOUND', ...(operator ? ['BUSINESS_NOT_FOUND' as const] : [])],
    },
    {
      method: 'patch', path: `${base}/:leadId`, operationId: `${prefix}updateLead`, guard, pathParams: leadKey,
      summary: 'Edit a lead (partial)',
      description: 'Only the fields sent change; null clears. Concurrent edits apply one after the other. A request that changes nothing keeps updatedAt and adds no entry. '
        + 'A stored change sends the `lead.updated` webhook event, and `lead.stage_changed` after it when the lead moved to another pipeline or stage; a request that changes nothing sends none.',
      body: { required: true, schema: ref('LeadPatch'), examples: { move: { summary: 'Move to another stage with a reason', value: { stage: 'Won', stageReasons: ['Good price'] } } } },
      answers: [{ status: 200, description: 'The whole lead.', schema: success(ref('Lead')) }],
      errors: ['INVALID_QUERY_FIELD', ...EDIT_CODES, 'LEAD_NOT_FOUND', ...(operator ? ['BUSINESS_NOT_FOUND' as const] : [])],
      bodyErrors: ['CLIENT_NOT_FOUND'],
    },
    {
      method: 'get', path: `${base}/:leadId/activities`, operationId: `${prefix}listLeadActivities`, guard, pathParams: leadKey, query: activitiesQuery,
      summary: 'A lead\'s activity, oldest first', description: `${ACTIVITIES_PAGE} entries a page; \`after\` continues.`,
      answers: [{ status: 200, description: 'One page.', schema: success({ type: 'array', minItems: 1, maxItems: 1, items: ref('LeadActivityPage') }) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'LEAD_NOT_FOUND', ...(operator ? ['BUSINESS_NOT_FOUND' as const] : [])],
    },
  ];
}

export const leadsApi: DocSection = {
  tag: { name: 'Leads', description: 'Lead create (idempotent by externalId), edit, get and activity.' },
  schemas: SCHEMAS,
  operations: [
    ...leadOperations(LEADS, 'app', ''),
    ...LEAD_REFUSALS.flatMap(([path, methods]) => methods.map((m) => bareRefusal(m.toLowerCase() as OperationDoc['method'], path, path.includes(':leadId') ? leadKey : urlKey))),
  ],
};

export const leadsOperatorApi: DocSection = {
  tag: { name: 'Operator: leads', description: 'The dashboard\'s lead actions: create, edit, get, activity and remove; needs an operator session.' },
  operations: [
    ...leadOperations(ADMIN_LEADS, 'operator', 'operator'),
    {
      method: 'delete', path: `${ADMIN_LEADS}/:leadId`, operationId: 'operatorRemoveLead', guard: 'operator', pathParams: leadKey,
      summary: 'Remove a lead', description: 'Invisible to the interface afterwards (404); its externalId stays taken (409 without existingLeadId).',
      body: { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') },
      answers: [{ status: 200, description: 'Removed.', schema: success(ref('LeadRemoved')) }],
      errors: ['LEAD_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
    },
  ],
};
