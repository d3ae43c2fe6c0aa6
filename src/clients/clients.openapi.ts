import { CUSTOM_FIELD_TYPES, CUSTOM_FIELDS_BODY_SCHEMA } from '../custom-fields/custom-fields.schema.js';
import { ref, success, type ApiSection, type OperationDoc } from '../openapi/operation.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { DOCUMENT_RULES } from './client.documents.js';
import { exampleClientAnswer, EXAMPLE_CLIENT } from './clients.openapi-examples.js';
import { BALANCE_MEMBERS } from './client.present.js';
import {
  ADDITIONAL_ID_SPEC, BANK_ACCOUNT_SPEC, CLIENT_SPEC, CUSTOM_HEADER_SPEC, OPERATOR_CLIENT_SPEC, SHIPPING_DETAIL_SPEC,
} from './client.schema.js';
import { entryInputSchema, entryOutputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import { OPERATOR_SOURCES } from './client.types.js';
import { ADMIN_CLIENTS, CLIENTS } from './clients.routes.js';

/** Clients in the OpenAPI document: bodies and answers generated from client.schema.ts's descriptors. */

/** List entries become named schemas: `AdditionalIdInput` in bodies, `AdditionalId` in answers. */
const byName: EntrySchemaWriter = (entry, role) => ref(role === 'input' ? `${entry.title}Input` : entry.title);

function entrySchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const entry of [ADDITIONAL_ID_SPEC, CUSTOM_HEADER_SPEC, SHIPPING_DETAIL_SPEC, BANK_ACCOUNT_SPEC]) {
    schemas[`${entry.title}Input`] = { ...entryInputSchema(entry, byName), title: `${entry.title}Input` };
    schemas[entry.title] = { ...entryOutputSchema(entry, byName), title: entry.title };
  }
  return schemas;
}

const timestamp = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });

/** What every answer adds to the accepted fields (2.4 "Server-set fields"). */
const SERVER_SET: Record<string, JsonSchema> = {
  source: { enum: ['API', ...OPERATOR_SOURCES], description: 'API for a client created through this interface; otherwise its origin.' },
  createdAt: timestamp('ISO 8601 UTC with milliseconds.'),
  updatedAt: timestamp('ISO 8601 UTC with milliseconds; unchanged by an identical retry.'),
  balance: ref('Balance'),
};

/** A client answer: the accepted fields as stored (unset scalars null), then the server-set ones. */
function clientAnswer(title: string, description: string, variant: 'api' | 'operator', extra: Record<string, JsonSchema> = {}, optional: string[] = []): JsonSchema {
  const accepted = entryOutputSchema(variant === 'api' ? CLIENT_SPEC : OPERATOR_CLIENT_SPEC, byName).properties;
  const head: Record<string, JsonSchema> = variant === 'operator'
    ? { clientId: { type: ['string', 'null'], description: 'The caller\'s reference; null for a client made in the dashboard.' } }
    : {};
  const properties = { ...head, ...accepted, ...SERVER_SET, ...extra };
  return closedObject(properties, Object.keys(properties).filter((key) => !optional.includes(key)), { title, description });
}

const balanceMembers: Record<string, JsonSchema> = {
  ...Object.fromEntries(BALANCE_MEMBERS.map((m) => [m, { type: 'number' }])), currency: { type: 'string', description: 'The business currency.' },
};
const balance: JsonSchema = closedObject(
  balanceMembers,
  Object.keys(balanceMembers),
  { description: 'Read-only summary of the client\'s documents and payments; changes as the client transacts.' },
);

const SCHEMAS: Record<string, JsonSchema> = {
  ...entrySchemas(),
  ClientCreate: entryInputSchema(CLIENT_SPEC, byName),
  OperatorClientCreate: entryInputSchema(OPERATOR_CLIENT_SPEC, byName),
  Balance: balance,
  Client: clientAnswer('Client', 'A client as stored: every accepted field (unset scalars null, unset lists empty) and the server-set fields.', 'api'),
  ClientCreated: clientAnswer('ClientCreated', 'The created client; `idempotent: true` when the request was an identical retry.', 'api', {
    idempotent: { const: true, description: 'Present (and true) only on an identical retry.' },
  }, ['idempotent']),
  OperatorClient: clientAnswer('OperatorClient', 'A client as the operator sees it, with its status.', 'operator', {
    status: { enum: ['active', 'archived', 'deleted'], description: 'Archived and deleted clients are hidden from the public get.' },
  }, ['status']),
  ClientStatus: closedObject({ clientId: { type: 'string' }, status: { enum: ['active', 'archived', 'deleted'] } }, ['clientId', 'status']),
  DocumentInput: bodyJsonSchema(DOCUMENT_RULES, 'A document adding an amount to one member of the client\'s balance.'),
  DocumentAdded: closedObject({ type: { enum: [...BALANCE_MEMBERS] }, amount: { type: 'number' }, balance: ref('Balance') }, ['type', 'amount', 'balance']),
  CustomFieldsInput: CUSTOM_FIELDS_BODY_SCHEMA,
  CustomFieldDefinition: closedObject({
    id: { type: 'string', description: 'Opaque; send it back to keep the field across a rename.' },
    name: { type: 'string' }, type: { enum: [...CUSTOM_FIELD_TYPES] },
    options: { type: ['array', 'null'], items: { type: 'string' }, description: 'SELECT only; null otherwise.' },
    isArchived: { type: 'boolean' },
  }, ['id', 'name', 'type', 'options', 'isArchived']),
};

const urlKey = { urlKey: 'The business key.' };
const clientKey = { ...urlKey, clientId: 'The clientId the create sent, percent-encoded in the path.' };

const VALIDATION_CODES = ['INVALID_FIELD_VALUE', 'CUSTOM_FIELDS_NOT_ENABLED', 'INVALID_CUSTOM_FIELD', 'INVALID_CUSTOM_FIELD_VALUE'] as const;

function bareRefusal(method: OperationDoc['method'], path: string, operationId: string, pathParams: Record<string, string>): OperationDoc {
  return {
    method, path, operationId, guard: 'open', pathParams, refusal: 'bare', summary: 'Not supported (405)',
    description: 'Listing, editing and deleting clients are not offered through the public interface; answered 405, the status alone, before any authentication.',
  };
}

const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };

export const clientsApi: ApiSection = {
  tag: { name: 'Clients', description: 'Idempotent client create and get by the caller\'s clientId; list, edit and delete are not offered (405).' },
  schemas: SCHEMAS,
  operations: [
    {
      method: 'post', path: CLIENTS, operationId: 'createClient', guard: 'app', pathParams: urlKey,
      summary: 'Create a client (idempotent by clientId)',
      description: 'Validation first: a body that fails answers 400 listing every failure, whether or not the clientId is taken. '
        + 'The same clientId with the same details (after normalisation and derivation) answers 201 with `idempotent: true`; '
        + 'with different details, or held by an archived or deleted client, 409. Safe to retry after a lost answer.',
      body: { required: true, schema: ref('ClientCreate'), examples: { indianCompany: { summary: 'A company in India with a GSTIN (panNumber and gstState are derived)', value: EXAMPLE_CLIENT } } },
      answers: [{ status: 201, description: 'The client as stored; `idempotent: true` on an identical retry.', schema: success(ref('ClientCreated')), example: { success: true, data: exampleClientAnswer() } }],
      errors: ['INVALID_QUERY_FIELD', ...VALIDATION_CODES, 'IDEMPOTENCY_CONFLICT'],
      errorExamples: {
        INVALID_FIELD_VALUE: {
          message: 'gstin must be a valid 15-character GSTIN',
          errors: [
            { field: 'gstin', message: 'gstin must be a valid 15-character GSTIN', code: 'INVALID_FIELD_VALUE' },
            { field: 'bankAccounts[0].sortCode', message: 'bankAccounts[0].sortCode is accepted only when bankCountry is GB or IE', code: 'INVALID_FIELD_VALUE' },
          ],
        },
      },
    },
    {
      method: 'get', path: `${CLIENTS}/:clientId`, operationId: 'getClient', guard: 'app', pathParams: clientKey,
      summary: 'Get a client by clientId',
      description: 'Unknown, archived, deleted and other businesses\' clients all answer the same 404. No query parameters.',
      answers: [{ status: 200, description: 'The client, in the shape of create without `idempotent`.', schema: success(ref('Client')) }],
      errors: ['INVALID_QUERY_FIELD', 'CLIENT_NOT_FOUND'],
    },
    bareRefusal('get', CLIENTS, 'listClientsRefused', urlKey),
    ...(['patch', 'put', 'delete'] as const).map((m) => bareRefusal(m, `${CLIENTS}/:clientId`, `${m}ClientRefused`, clientKey)),
  ],
};

export const clientsOperatorApi: ApiSection = {
  tag: { name: 'Operator: clients and custom fields', description: 'The dashboard\'s client actions and the client custom field definitions; needs an operator session.' },
  operations: [
    {
      method: 'get', path: '/admin/v1/businesses/:urlKey/custom-fields', operationId: 'listCustomFields', guard: 'operator', pathParams: urlKey,
      summary: 'List the client custom field definitions',
      answers: [{ status: 200, description: 'The definitions, archived ones included.', schema: success({ type: 'array', items: ref('CustomFieldDefinition') }) }],
      errors: ['BUSINESS_NOT_FOUND'],
    },
    {
      method: 'put', path: '/admin/v1/businesses/:urlKey/custom-fields', operationId: 'replaceCustomFields', guard: 'operator', pathParams: urlKey,
      summary: 'Replace the client custom field definitions',
      description: 'An entry carrying the id of an existing field keeps that field and the values stored under it, even when renamed. '
        + 'A field\'s type cannot change while clients that are not deleted hold values under it (400 on fields[i].type, naming how many): add a new field and archive the old one.',
      body: { required: true, schema: ref('CustomFieldsInput'), examples: { two: { summary: 'A number and a choice', value: { fields: [{ name: 'Visits', type: 'NUMBER' }, { name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }] } } } },
      answers: [{ status: 200, description: 'The stored definitions, each with its id.', schema: success({ type: 'array', items: ref('CustomFieldDefinition') }) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'post', path: ADMIN_CLIENTS, operationId: 'createDashboardClient', guard: 'operator', pathParams: urlKey,
      summary: 'Create a client from another origin (no clientId)',
      description: 'Such a client can never be read through the public get and never merges with an API client.',
      body: { required: true, schema: ref('OperatorClientCreate'), examples: { invoice: { summary: 'A client made by an invoice', value: { source: 'INVOICE', name: 'Walk-in customer' } } } },
      answers: [{ status: 201, description: 'The client as stored (clientId null).', schema: success(ref('OperatorClient')) }],
      errors: ['BUSINESS_NOT_FOUND', ...VALIDATION_CODES],
    },
    {
      method: 'get', path: `${ADMIN_CLIENTS}/:clientId`, operationId: 'getClientAsOperator', guard: 'operator', pathParams: clientKey,
      summary: 'Get any client by clientId, with its status',
      answers: [{ status: 200, description: 'The client in the public shape plus status.', schema: success(ref('OperatorClient')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
    },
    {
      method: 'post', path: `${ADMIN_CLIENTS}/:clientId/archive`, operationId: 'archiveClient', guard: 'operator', pathParams: clientKey,
      summary: 'Archive a client (reversible)', description: 'Hidden from the public get (404); its clientId stays taken (409). Undone by restore. A deleted client stays deleted.',
      body: bodyless, answers: [{ status: 200, description: 'The resulting status.', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
    },
    {
      method: 'delete', path: `${ADMIN_CLIENTS}/:clientId`, operationId: 'deleteClient', guard: 'operator', pathParams: clientKey,
      summary: 'Delete a client (final)', description: 'Same visibility as archive, but final: a deleted client can never be restored. Nothing is physically erased.',
      body: bodyless, answers: [{ status: 200, description: 'The resulting status.', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
    },
    {
      method: 'post', path: `${ADMIN_CLIENTS}/:clientId/restore`, operationId: 'restoreClient', guard: 'operator', pathParams: clientKey,
      summary: 'Restore an archived client', description: 'The client is active again: the public get finds it. Restoring an active client changes nothing; a deleted client answers 409 CLIENT_DELETED.',
      body: bodyless, answers: [{ status: 200, description: 'The resulting status (active).', schema: success(ref('ClientStatus')) }],
      errors: ['BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND', 'CLIENT_DELETED'],
    },
    {
      method: 'post', path: `${ADMIN_CLIENTS}/:clientId/documents`, operationId: 'addClientDocument', guard: 'operator', pathParams: clientKey,
      summary: 'Record a document against the client\'s balance',
      body: { required: true, schema: ref('DocumentInput'), examples: { invoice: { summary: 'An invoice of 1,180.00', value: { type: 'invoice', amount: 1180 } } } },
      answers: [{ status: 201, description: 'The document and the new balance.', schema: success(ref('DocumentAdded')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND', 'CLIENT_NOT_FOUND'],
    },
  ],
};
