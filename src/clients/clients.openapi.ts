import { CUSTOM_FIELD_TYPES, CUSTOM_FIELDS_BODY_SCHEMA } from '../custom-fields/custom-fields.schema.js';
import { refuseBare } from '../http/replies.js';
import { ref, type Operation, type OperationDoc } from '../openapi/operation.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { DOCUMENT_RULES } from './client.documents.js';
import { BALANCE_MEMBERS } from './client.present.js';
import {
  ADDITIONAL_ID_SPEC,
  BANK_ACCOUNT_SPEC,
  CLIENT_SPEC,
  CUSTOM_HEADER_SPEC,
  OPERATOR_CLIENT_SPEC,
  SHIPPING_DETAIL_SPEC,
} from './client.schema.js';
import { entryInputSchema, entryOutputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import { OPERATOR_SOURCES } from './client.types.js';

/** The clients' named schemas in the OpenAPI document, generated from client.schema.ts's descriptors (operations: clients.routes.ts). */

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
  source: {
    enum: ['API', ...OPERATOR_SOURCES],
    description: 'API for a client created through this interface; otherwise its origin.',
  },
  createdAt: timestamp('ISO 8601 UTC with milliseconds.'),
  updatedAt: timestamp('ISO 8601 UTC with milliseconds; unchanged by an identical retry.'),
  balance: ref('Balance'),
};

/** A client answer: the accepted fields as stored (unset scalars null), then the server-set ones. */
function clientAnswer(
  title: string,
  description: string,
  variant: 'api' | 'operator',
  extra: Record<string, JsonSchema> = {},
  optional: string[] = [],
): JsonSchema {
  const accepted = entryOutputSchema(variant === 'api' ? CLIENT_SPEC : OPERATOR_CLIENT_SPEC, byName).properties;
  const head: Record<string, JsonSchema> =
    variant === 'operator'
      ? {
          clientId: {
            type: ['string', 'null'],
            description: "The caller's reference; null for a client made in the dashboard.",
          },
        }
      : {};
  const properties = { ...head, ...accepted, ...SERVER_SET, ...extra };
  return closedObject(
    properties,
    Object.keys(properties).filter((key) => !optional.includes(key)),
    { title, description },
  );
}

const balanceMembers: Record<string, JsonSchema> = {
  ...Object.fromEntries(BALANCE_MEMBERS.map((m) => [m, { type: 'number' }])),
  currency: { type: 'string', description: 'The business currency.' },
};
const balance: JsonSchema = closedObject(balanceMembers, Object.keys(balanceMembers), {
  description: "Read-only summary of the client's documents and payments; changes as the client transacts.",
});

export const CLIENT_SCHEMAS: Record<string, JsonSchema> = {
  ...entrySchemas(),
  ClientCreate: entryInputSchema(CLIENT_SPEC, byName),
  OperatorClientCreate: entryInputSchema(OPERATOR_CLIENT_SPEC, byName),
  Balance: balance,
  Client: clientAnswer(
    'Client',
    'A client as stored: every accepted field (unset scalars null, unset lists empty) and the server-set fields.',
    'api',
  ),
  ClientCreated: clientAnswer(
    'ClientCreated',
    'The created client; `idempotent: true` when the request was an identical retry.',
    'api',
    {
      idempotent: { const: true, description: 'Present (and true) only on an identical retry.' },
    },
    ['idempotent'],
  ),
  OperatorClient: clientAnswer(
    'OperatorClient',
    'A client as the operator sees it, with its status.',
    'operator',
    {
      status: {
        enum: ['active', 'archived', 'deleted'],
        description: 'Archived and deleted clients are hidden from the public get.',
      },
    },
    ['status'],
  ),
  ClientSummary: closedObject(
    {
      clientId: {
        type: ['string', 'null'],
        description: "The caller's reference; null for a client made in the dashboard.",
      },
      name: { type: ['string', 'null'] },
      email: { type: ['string', 'null'] },
      phone: { type: ['string', 'null'] },
      city: { type: ['string', 'null'] },
      country: { type: ['string', 'null'] },
      status: { enum: ['active', 'archived', 'deleted'] },
      source: SERVER_SET.source!,
      createdAt: timestamp('ISO 8601 UTC with milliseconds.'),
      updatedAt: timestamp('ISO 8601 UTC with milliseconds.'),
    },
    ['clientId', 'name', 'email', 'phone', 'city', 'country', 'status', 'source', 'createdAt', 'updatedAt'],
    { title: 'ClientSummary', description: "One row of the operator's client list." },
  ),
  ClientPage: closedObject(
    {
      items: { type: 'array', items: ref('ClientSummary') },
      total: { type: 'integer', description: 'Clients matching q, over every page.' },
      limit: { type: 'integer' },
      skip: { type: 'integer' },
    },
    ['items', 'total', 'limit', 'skip'],
    { title: 'ClientPage', description: "One page of the operator's client list." },
  ),
  ClientStatus: closedObject({ clientId: { type: 'string' }, status: { enum: ['active', 'archived', 'deleted'] } }, [
    'clientId',
    'status',
  ]),
  DocumentInput: bodyJsonSchema(DOCUMENT_RULES, "A document adding an amount to one member of the client's balance."),
  DocumentAdded: closedObject(
    { type: { enum: [...BALANCE_MEMBERS] }, amount: { type: 'number' }, balance: ref('Balance') },
    ['type', 'amount', 'balance'],
  ),
  CustomFieldsInput: CUSTOM_FIELDS_BODY_SCHEMA,
  CustomFieldDefinition: closedObject(
    {
      id: { type: 'string', description: 'Opaque; send it back to keep the field across a rename.' },
      name: { type: 'string' },
      type: { enum: [...CUSTOM_FIELD_TYPES] },
      options: { type: ['array', 'null'], items: { type: 'string' }, description: 'SELECT only; null otherwise.' },
      isArchived: { type: 'boolean' },
    },
    ['id', 'name', 'type', 'options', 'isArchived'],
  ),
};

export const urlKey = { urlKey: 'The business key.' };
export const clientKey = { ...urlKey, clientId: 'The clientId the create sent, percent-encoded in the path.' };

export const VALIDATION_CODES = [
  'INVALID_FIELD_VALUE',
  'CUSTOM_FIELDS_NOT_ENABLED',
  'INVALID_CUSTOM_FIELD',
  'INVALID_CUSTOM_FIELD_VALUE',
] as const;

/** 4.6: unsupported client operations answer 405 with the status alone, before any auth. */
export function bareRefusal(
  method: OperationDoc['method'],
  path: string,
  operationId: string,
  pathParams: Record<string, string>,
): Operation {
  return {
    method,
    path,
    operationId,
    guard: 'open',
    pathParams,
    refusal: 'bare',
    summary: 'Not supported (405)',
    handler: () => refuseBare,
    description:
      'Listing, editing and deleting clients are not offered through the public interface; answered 405, the status alone, before any authentication.',
  };
}

export const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };
