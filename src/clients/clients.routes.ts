import type { FastifyRequest } from 'fastify';
import { CustomFieldsService } from '../custom-fields/custom-fields.service.js';
import { feature, type FeatureEnv } from '../feature.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { Services } from '../services.js';
import type { Store } from '../storage/store.js';
import { readBody } from '../validation/read-body.js';
import { businessContextCache } from './business-context.js';
import { clientCsvApi } from './client-csv.routes.js';
import { DOCUMENT_RULES } from './client.documents.js';
import { bareRefusal, bodyless, CLIENT_SCHEMAS, clientKey, urlKey, VALIDATION_CODES } from './clients.openapi.js';
import { exampleClientAnswer, EXAMPLE_CLIENT } from './clients.openapi-examples.js';
import { ClientsService } from './clients.service.js';
import { CLIENT_LIST_LIMITS, listClients, readClientListQuery } from './clients-list.js';

export const CLIENTS = '/api/v1/businesses/:urlKey/clients';
export const ADMIN_CLIENTS = '/admin/v1/businesses/:urlKey/clients';

/** What the clients' handlers call, made once per app. */
export interface ClientsContext {
  clients: ClientsService;
  customFields: CustomFieldsService;
  services: Services;
  store: Store;
}

function clientsContext({ deps, services }: FeatureEnv): ClientsContext {
  const now = () => deps.clock.now();
  const contexts = businessContextCache(deps.store, deps.config);
  services.caches.businessContext = () => contexts;
  return {
    clients: new ClientsService(deps.store, contexts, deps.config, now, services.events),
    customFields: new CustomFieldsService(deps.store, now),
    services,
    store: deps.store,
  };
}

const operation = operationsOf<ClientsContext>();
/** The operator's audit line, handed to the service: the store writes it in the change's own transaction. */
const audit = (
  c: ClientsContext,
  request: FastifyRequest<{ Params: { urlKey: string } }>,
  action: string,
  detail: Record<string, unknown>,
) => c.services.audit.entryOf(request, action, request.params.urlKey, detail);

export const clientsApi: ApiSection<ClientsContext> = {
  tag: {
    name: 'Clients',
    description:
      "Idempotent client create and get by the caller's clientId; list, edit and delete are not offered (405).",
  },
  schemas: CLIENT_SCHEMAS,
  operations: [
    operation({
      method: 'post',
      path: CLIENTS,
      operationId: 'createClient',
      guard: 'app',
      pathParams: urlKey,
      summary: 'Create a client (idempotent by clientId)',
      description:
        'Validation first: a body that fails answers 400 listing every failure, whether or not the clientId is taken. ' +
        'The same clientId with the same details (after normalisation and derivation) answers 201 with `idempotent: true`; ' +
        'with different details, or held by an archived or deleted client, 409. Safe to retry after a lost answer.',
      body: {
        required: true,
        schema: ref('ClientCreate'),
        examples: {
          indianCompany: {
            summary: 'A company in India with a GSTIN (panNumber and gstState are derived)',
            value: EXAMPLE_CLIENT,
          },
        },
      },
      answers: [
        {
          status: 201,
          description: 'The client as stored; `idempotent: true` on an identical retry.',
          schema: success(ref('ClientCreated')),
          example: { success: true, data: exampleClientAnswer() },
        },
      ],
      errors: ['INVALID_QUERY_FIELD', ...VALIDATION_CODES, 'IDEMPOTENCY_CONFLICT'],
      errorExamples: {
        INVALID_FIELD_VALUE: {
          message: 'gstin must be a valid 15-character GSTIN',
          errors: [
            { field: 'gstin', message: 'gstin must be a valid 15-character GSTIN', code: 'INVALID_FIELD_VALUE' },
            {
              field: 'bankAccounts[0].sortCode',
              message: 'bankAccounts[0].sortCode is accepted only when bankCountry is GB or IE',
              code: 'INVALID_FIELD_VALUE',
            },
          ],
        },
      },
      handler:
        ({ clients }) =>
        async (request, reply) => {
          rejectQuery(request);
          const { client, idempotent } = await clients.create(request.params.urlKey, request.body);
          // The payload is returned, not sent: a returned reply is a thenable that Fastify waits on with a stream-end listener.
          reply.code(201);
          return ok(idempotent ? { ...client, idempotent: true } : client);
        },
    }),
    operation({
      method: 'get',
      path: `${CLIENTS}/:clientId`,
      operationId: 'getClient',
      guard: 'app',
      compress: false,
      pathParams: clientKey,
      summary: 'Get a client by clientId',
      description:
        "Unknown, archived, deleted and other businesses' clients all answer the same 404. No query parameters.",
      answers: [
        {
          status: 200,
          description: 'The client, in the shape of create without `idempotent`.',
          schema: success(ref('Client')),
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'CLIENT_NOT_FOUND'],
      handler:
        ({ clients }) =>
        async (request) => {
          rejectQuery(request);
          return ok(await clients.get(request.params.urlKey, request.params.clientId));
        },
    }),
    bareRefusal('get', CLIENTS, 'listClientsRefused', urlKey),
    ...(['patch', 'put', 'delete'] as const).map((m) =>
      bareRefusal(m, `${CLIENTS}/:clientId`, `${m}ClientRefused`, clientKey),
    ),
  ],
};

export const clientsOperatorApi: ApiSection<ClientsContext> = {
  tag: {
    name: 'Operator: clients and custom fields',
    description: "The dashboard's client actions and the client custom field definitions; needs an operator session.",
  },
  operations: [
    operation({
      method: 'get',
      path: '/admin/v1/businesses/:urlKey/custom-fields',
      operationId: 'listCustomFields',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'List the client custom field definitions',
      answers: [
        {
          status: 200,
          description: 'The definitions, archived ones included.',
          schema: success({ type: 'array', items: ref('CustomFieldDefinition') }),
        },
      ],
      errors: ['BUSINESS_NOT_FOUND'],
      handler:
        ({ services, customFields }) =>
        async (request) => {
          await services.businesses.require(request.params.urlKey);
          return ok(await customFields.list(request.params.urlKey));
        },
    }),
    operation({
      method: 'put',
      path: '/admin/v1/businesses/:urlKey/custom-fields',
      operationId: 'replaceCustomFields',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Replace the client custom field definitions',
      description:
        'An entry carrying the id of an existing field keeps that field and the values stored under it, even when renamed. ' +
        "A field's type cannot change while clients that are not deleted hold values under it (400 on fields[i].type, naming how many): add a new field and archive the old one.",
      body: {
        required: true,
        schema: ref('CustomFieldsInput'),
        examples: {
          two: {
            summary: 'A number and a choice',
            value: {
              fields: [
                { name: 'Visits', type: 'NUMBER' },
                { name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
              ],
            },
          },
        },
      },
      answers: [
        {
          status: 200,
          description: 'The stored definitions, each with its id.',
          schema: success({ type: 'array', items: ref('CustomFieldDefinition') }),
        },
      ],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        await c.services.businesses.require(request.params.urlKey);
        const { urlKey } = request.params;
        const line = c.services.audit.entryOf(request, 'custom-fields.replace', urlKey);
        return ok(await c.customFields.replace(urlKey, request.body, line));
      },
    }),
    operation({
      method: 'post',
      path: ADMIN_CLIENTS,
      operationId: 'createDashboardClient',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Create a client from another origin (no clientId)',
      description: 'Such a client can never be read through the public get and never merges with an API client.',
      body: {
        required: true,
        schema: ref('OperatorClientCreate'),
        examples: {
          invoice: { summary: 'A client made by an invoice', value: { source: 'INVOICE', name: 'Walk-in customer' } },
        },
      },
      answers: [
        { status: 201, description: 'The client as stored (clientId null).', schema: success(ref('OperatorClient')) },
      ],
      errors: ['BUSINESS_NOT_FOUND', ...VALIDATION_CODES],
      handler: (c) => async (request, reply) => {
        const line = audit(c, request, 'client.create', {});
        const client = await c.clients.createFromDashboard(request.params.urlKey, request.body, line);
        reply.code(201);
        return ok(client);
      },
    }),
    operation({
      method: 'get',
      path: ADMIN_CLIENTS,
      operationId: 'listClientsAsOperator',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'List the clients of a business, newest first, searchable by name or clientId',
      description:
        'Every client whatever its status (archived and deleted ones are marked), dashboard clients included. ' +
        '`data` holds exactly one page object, as the leads list does.',
      query: [
        {
          name: 'q',
          description: `Text the client's name or clientId contains, ignoring case; at most ${CLIENT_LIST_LIMITS.maxQ} characters.`,
          schema: { type: 'string', maxLength: CLIENT_LIST_LIMITS.maxQ },
        },
        {
          name: '$limit',
          description: `Page size, 1 to ${CLIENT_LIST_LIMITS.maxLimit}; default ${CLIENT_LIST_LIMITS.defaultLimit}.`,
          schema: { type: 'integer', minimum: 1, maximum: CLIENT_LIST_LIMITS.maxLimit },
        },
        {
          name: '$skip',
          description: `Clients to skip, 0 to ${CLIENT_LIST_LIMITS.maxSkip}; default 0.`,
          schema: { type: 'integer', minimum: 0, maximum: CLIENT_LIST_LIMITS.maxSkip },
        },
      ],
      answers: [
        {
          status: 200,
          description: 'One page.',
          schema: success({ type: 'array', items: ref('ClientPage'), minItems: 1, maxItems: 1 }),
        },
      ],
      errors: [
        'INVALID_QUERY_FIELD',
        'INVALID_QUERY_VALUE',
        'INVALID_PAGINATION_LIMIT',
        'INVALID_PAGINATION_SKIP',
        'BUSINESS_NOT_FOUND',
      ],
      handler:
        ({ services, store }) =>
        async (request) => {
          const query = readClientListQuery(request.query as Record<string, unknown>);
          await services.businesses.require(request.params.urlKey);
          return ok(await listClients(store, request.params.urlKey, query));
        },
    }),
    operation({
      method: 'get',
      path: `${ADMIN_CLIENTS}/:clientId`,
      operationId: 'getClientAsOperator',
      guard: 'operator',
      compress: false,
      pathParams: clientKey,
      summary: 'Get any client by clientId, with its status',
      answers: [
        {
          status: 200,
          description: 'The client in the public shape plus status.',
          schema: success(ref('OperatorClient')),
        },
      ],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
      handler:
        ({ clients }) =>
        async (request) =>
          ok(await clients.getForOperator(request.params.urlKey, request.params.clientId)),
    }),
    operation({
      method: 'post',
      path: `${ADMIN_CLIENTS}/:clientId/archive`,
      operationId: 'archiveClient',
      guard: 'operator',
      pathParams: clientKey,
      summary: 'Archive a client (reversible)',
      description:
        'Hidden from the public get (404); its clientId stays taken (409). Undone by restore. A deleted client stays deleted.',
      body: bodyless,
      answers: [{ status: 200, description: 'The resulting status.', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, clientId } = request.params;
        const line = audit(c, request, 'client.archive', { clientId });
        return ok(await c.clients.setStatus(urlKey, clientId, 'archived', line));
      },
    }),
    operation({
      method: 'delete',
      path: `${ADMIN_CLIENTS}/:clientId`,
      operationId: 'deleteClient',
      guard: 'operator',
      pathParams: clientKey,
      summary: 'Delete a client (final)',
      description:
        'Same visibility as archive, but final: a deleted client can never be restored. Nothing is physically erased.',
      body: bodyless,
      answers: [{ status: 200, description: 'The resulting status.', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, clientId } = request.params;
        const line = audit(c, request, 'client.delete', { clientId });
        return ok(await c.clients.setStatus(urlKey, clientId, 'deleted', line));
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN_CLIENTS}/:clientId/restore`,
      operationId: 'restoreClient',
      guard: 'operator',
      pathParams: clientKey,
      summary: 'Restore an archived client',
      description:
        'The client is active again: the public get finds it. Restoring an active client changes nothing; a deleted client answers 409 CLIENT_DELETED.',
      body: bodyless,
      answers: [{ status: 200, description: 'The resulting status (active).', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND', 'CLIENT_DELETED'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, clientId } = request.params;
        return ok(await c.clients.restore(urlKey, clientId, audit(c, request, 'client.restore', { clientId })));
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN_CLIENTS}/:clientId/documents`,
      operationId: 'addClientDocument',
      guard: 'operator',
      pathParams: clientKey,
      summary: "Record a document against the client's balance",
      body: {
        required: true,
        schema: ref('DocumentInput'),
        examples: { invoice: { summary: 'An invoice of 1,180.00', value: { type: 'invoice', amount: 1180 } } },
      },
      answers: [
        { status: 201, description: 'The document and the new balance.', schema: success(ref('DocumentAdded')) },
      ],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
      handler: (c) => async (request, reply) => {
        const { type, amount } = readBody<{ type: string; amount: number }>(request.body, DOCUMENT_RULES);
        const { urlKey, clientId } = request.params;
        const line = audit(c, request, 'client.document', { clientId, type, amount });
        const balance = await c.clients.addDocument(urlKey, clientId, type, amount, line);
        reply.code(201);
        return ok({ type, amount, balance });
      },
    }),
  ],
};

/** Clients: public create/get and the 405s of 4.6, the dashboard's actions, and custom field definitions. */
export const clientsFeature = feature({
  sections: [clientsApi, clientsOperatorApi, clientCsvApi],
  context: clientsContext,
});
