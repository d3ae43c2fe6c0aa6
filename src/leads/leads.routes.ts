import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { feature, type FeatureEnv } from '../feature.js';
import { noBody, ok, refuseBare, rejectQuery } from '../http/replies.js';
import {
  operationsOf,
  ref,
  success,
  type ApiSection,
  type Operation,
  type OperationDoc,
} from '../openapi/operation.js';
import type { Services } from '../services.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import {
  BODY_CODES,
  EDIT_CODES,
  EXAMPLE_CREATE,
  EXAMPLE_LEAD,
  LEAD_SCHEMAS,
  leadKey,
  urlKey,
  withoutExternalId,
} from './leads.openapi.js';
import { ACTIVITIES_PAGE, LeadsService, type Author } from './leads.service.js';

export const LEADS = '/api/v1/businesses/:urlKey/leads';
export const ADMIN_LEADS = '/admin/v1/businesses/:urlKey/leads';

const API: Author = { origin: 'API', author: 'API' };
const operatorOf = (request: FastifyRequest): Author => ({
  origin: 'DASHBOARD',
  author: request.operator?.email ?? '',
});

const INCLUDE_FIELD_CHANGES = 'fieldChanges';

/**
 * 4.5: `after`, sent once, and the addition `include=fieldChanges` (docs/leads.md "Field history"),
 * the only two query parameters.
 */
function activitiesQueryOf(request: FastifyRequest): { after: string | null; fieldChanges: boolean } {
  const query = request.query as Record<string, unknown>;
  const other = Object.keys(query).find((key) => key !== 'after' && key !== 'include');
  if (other !== undefined) throw new AppError('INVALID_QUERY_FIELD', `${other} is not an accepted query parameter`);
  if (query.include !== undefined && query.include !== INCLUDE_FIELD_CHANGES)
    throw new AppError('INVALID_QUERY_VALUE', `include must be ${INCLUDE_FIELD_CHANGES}`);
  const fieldChanges = query.include !== undefined;
  if (query.after === undefined) return { after: null, fieldChanges };
  if (typeof query.after !== 'string' || query.after.length === 0)
    throw new AppError('INVALID_QUERY_VALUE', 'after must be one nextCursor value');
  return { after: query.after, fieldChanges };
}

interface LeadsContext {
  leads: LeadsService;
  services: Services;
}

const leadsContext = ({ deps, services }: FeatureEnv): LeadsContext => ({
  leads: new LeadsService(deps.store, services.leadContexts, () => deps.clock.now(), services.events),
  services,
});

const operation = operationsOf<LeadsContext>();
const activitiesQuery = [
  { name: 'after', description: 'The nextCursor of the previous page.', schema: { type: 'string' } },
  {
    name: 'include',
    description:
      'Addition: `fieldChanges` adds the FIELD_CHANGE entries (one per field an edit changed: field, from, to). ' +
      "Without it the answer is the specification's.",
    schema: { type: 'string', enum: [INCLUDE_FIELD_CHANGES] },
  },
];

/** Create, get, edit and activity: the same four for apps and operators (whose writes are audited and authored by them). */
function leadOperations(
  base: typeof LEADS | typeof ADMIN_LEADS,
  guard: 'app' | 'operator',
  prefix: string,
): Operation<LeadsContext>[] {
  const operator = guard === 'operator';
  return [
    operation({
      method: 'post',
      path: base,
      operationId: `${prefix}createLead`,
      guard,
      pathParams: urlKey,
      summary: operator
        ? 'Create a lead in the dashboard (source DASHBOARD, no externalId)'
        : 'Create a lead (idempotent by externalId)',
      description:
        'Names resolve to the live configuration (pipeline first, then the stage inside it; reasons by label on that stage). A customer or contact given by name is created with the lead, in one transaction. ' +
        'A lead that is stored sends the `lead.created` webhook event. ' +
        (operator
          ? ''
          : 'The same externalId with the same details (normalised) answers 201 with the lead as it is now and `idempotent: true`; with different details 409 with `data.error.existingLeadId`; a body that fails is 400 first.'),
      body: {
        required: true,
        schema: ref(operator ? 'OperatorLeadCreate' : 'LeadCreate'),
        examples: {
          byName: {
            summary: 'A new customer and contact, by name',
            value: operator ? withoutExternalId(EXAMPLE_CREATE) : EXAMPLE_CREATE,
          },
        },
      },
      answers: [
        {
          status: 201,
          description: 'The lead.',
          schema: success(ref(operator ? 'Lead' : 'LeadCreated')),
          example: {
            success: true,
            data: operator ? { ...withoutExternalId(EXAMPLE_LEAD), source: 'DASHBOARD' } : EXAMPLE_LEAD,
          },
        },
      ],
      errors: [
        'INVALID_QUERY_FIELD',
        ...(operator ? [] : ['EXTERNAL_ID_REQUIRED' as const, 'IDEMPOTENCY_CONFLICT' as const]),
        ...BODY_CODES,
        ...(operator ? ['BUSINESS_NOT_FOUND' as const] : []),
      ],
      bodyErrors: ['CLIENT_NOT_FOUND'],
      handler: ({ leads, services }) =>
        operator
          ? async (request, reply) => {
              rejectQuery(request);
              const audit = services.audit.entryOf(request, 'lead.create', request.params.urlKey);
              const { lead } = await leads.create(request.params.urlKey, request.body, operatorOf(request), audit);
              reply.code(201);
              return ok(lead);
            }
          : async (request, reply) => {
              rejectQuery(request);
              const { lead, idempotent } = await leads.create(request.params.urlKey, request.body, API);
              reply.code(201);
              return ok(idempotent ? { ...lead, idempotent: true } : lead);
            },
    }),
    operation({
      method: 'get',
      path: `${base}/:leadId`,
      operationId: `${prefix}getLead`,
      guard,
      compress: false,
      pathParams: leadKey,
      summary: 'Get a lead',
      description: "Unknown, removed and other businesses' leads all answer the same 404. No query parameters.",
      answers: [{ status: 200, description: 'The lead.', schema: success(ref('Lead')) }],
      errors: ['INVALID_QUERY_FIELD', 'LEAD_NOT_FOUND', ...(operator ? ['BUSINESS_NOT_FOUND' as const] : [])],
      handler:
        ({ leads }) =>
        async (request) => {
          rejectQuery(request);
          return ok(await leads.get(request.params.urlKey, request.params.leadId));
        },
    }),
    operation({
      method: 'patch',
      path: `${base}/:leadId`,
      operationId: `${prefix}updateLead`,
      guard,
      pathParams: leadKey,
      summary: 'Edit a lead (partial)',
      description:
        'Only the fields sent change; null clears. Concurrent edits apply one after the other. A request that changes nothing keeps updatedAt and adds no entry. ' +
        'A stored change sends the `lead.updated` webhook event, and `lead.stage_changed` after it when the lead moved to another pipeline or stage; a request that changes nothing sends none.',
      body: {
        required: true,
        schema: ref('LeadPatch'),
        examples: {
          move: {
            summary: 'Move to another stage with a reason',
            value: { stage: 'Won', stageReasons: ['Good price'] },
          },
        },
      },
      answers: [{ status: 200, description: 'The whole lead.', schema: success(ref('Lead')) }],
      errors: [
        'INVALID_QUERY_FIELD',
        ...EDIT_CODES,
        'LEAD_NOT_FOUND',
        ...(operator ? ['BUSINESS_NOT_FOUND' as const] : []),
      ],
      bodyErrors: ['CLIENT_NOT_FOUND'],
      handler: ({ leads, services }) =>
        operator
          ? async (request) => {
              rejectQuery(request);
              const { urlKey, leadId } = request.params;
              const audit = services.audit.entryOf(request, 'lead.edit', urlKey, { leadId });
              return ok(await leads.edit(urlKey, leadId, request.body, operatorOf(request), audit));
            }
          : async (request) => {
              rejectQuery(request);
              return ok(await leads.edit(request.params.urlKey, request.params.leadId, request.body, API));
            },
    }),
    operation({
      method: 'get',
      path: `${base}/:leadId/activities`,
      operationId: `${prefix}listLeadActivities`,
      guard,
      pathParams: leadKey,
      query: activitiesQuery,
      summary: "A lead's activity, oldest first",
      description:
        `${ACTIVITIES_PAGE} entries a page; \`after\` continues. ` +
        'With `include=fieldChanges` (an addition) the page also holds the FIELD_CHANGE entries of edits.',
      answers: [
        {
          status: 200,
          description: 'One page.',
          schema: success({ type: 'array', minItems: 1, maxItems: 1, items: ref('LeadActivityPage') }),
        },
      ],
      errors: [
        'INVALID_QUERY_FIELD',
        'INVALID_QUERY_VALUE',
        'LEAD_NOT_FOUND',
        ...(operator ? ['BUSINESS_NOT_FOUND' as const] : []),
      ],
      handler:
        ({ leads }) =>
        async (request) => {
          const { after, fieldChanges } = activitiesQueryOf(request);
          return ok([await leads.activities(request.params.urlKey, request.params.leadId, after, fieldChanges)]);
        },
    }),
  ];
}

/** 4.6: the unsupported operations, by path: the status alone, before any authentication, as on clients. */
const LEAD_REFUSALS: [string, OperationDoc['method'][]][] = [
  [LEADS, ['put', 'patch', 'delete']],
  [`${LEADS}/:leadId`, ['put', 'delete', 'post']],
  [`${LEADS}/:leadId/activities`, ['post', 'put', 'patch', 'delete']],
];

function bareRefusal(method: OperationDoc['method'], path: string, pathParams: Record<string, string>): Operation {
  return {
    method,
    path,
    operationId: `${method}${path.endsWith('activities') ? 'LeadActivities' : path.endsWith(':leadId') ? 'Lead' : 'Leads'}Refused`,
    guard: 'open',
    pathParams,
    refusal: 'bare',
    summary: 'Not supported (405)',
    description: 'Not offered by the leads interface; answered 405, the status alone, before any authentication.',
    handler: () => refuseBare,
  };
}

export const leadsApi: ApiSection<LeadsContext> = {
  tag: { name: 'Leads', description: 'Lead create (idempotent by externalId), edit, get and activity.' },
  schemas: LEAD_SCHEMAS,
  operations: [
    ...leadOperations(LEADS, 'app', ''),
    ...LEAD_REFUSALS.flatMap(([path, methods]) =>
      methods.map((m) => bareRefusal(m, path, path.includes(':leadId') ? leadKey : urlKey)),
    ),
  ],
};

export const leadsOperatorApi: ApiSection<LeadsContext> = {
  tag: {
    name: 'Operator: leads',
    description: "The dashboard's lead actions: create, edit, get, activity and remove; needs an operator session.",
  },
  operations: [
    ...leadOperations(ADMIN_LEADS, 'operator', 'operator'),
    operation({
      method: 'delete',
      path: `${ADMIN_LEADS}/:leadId`,
      operationId: 'operatorRemoveLead',
      guard: 'operator',
      pathParams: leadKey,
      summary: 'Remove a lead',
      description:
        'Invisible to the interface afterwards (404); its externalId stays taken (409 without existingLeadId).',
      body: { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') },
      answers: [{ status: 200, description: 'Removed.', schema: success(ref('LeadRemoved')) }],
      errors: ['LEAD_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ leads, services }) =>
        async (request) => {
          noBody(request);
          const { urlKey, leadId } = request.params;
          return ok(
            await leads.remove(urlKey, leadId, services.audit.entryOf(request, 'lead.remove', urlKey, { leadId })),
          );
        },
    }),
  ],
};

/**
 * Leads: public create, edit, get and activity (docs/leads.md), the operator's
 * create, edit, get, activity and remove, and the 405s of 4.6. The lists (GET /leads) are the
 * lead-lists feature's.
 */
export const leadsFeature = feature({ sections: [leadsApi, leadsOperatorApi], context: leadsContext });
