// Writes client/src/api-types.ts, the types of the TypeScript client, src/openapi/answer-types.ts, the
// answer types the server's presenters are checked against, and src/operator/dashboard/operator-api-types.ts,
// the operator API's answers the dashboard's modules read, from the OpenAPI document
// (`npm run generate:client`), with openapi-typescript. A unit test regenerates all three in memory and
// fails when one is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { testConfig } from '../src/config.js';
import { openApiDocument } from '../src/features.js';
import type { JsonSchema } from '../src/validation/json-schema.js';
import { renderListQueryTypes } from './list-query-types.js';

/** The component schemas the client's methods take and return; what they refer to comes along. */
const ROOTS = [
  'ClientCreate',
  'Client',
  'ClientCreated',
  'PipelineConfiguration',
  'AppToken',
  'ErrorCode',
  'FieldError',
  'LeadCreate',
  'LeadPatch',
  'Lead',
  'LeadCreated',
  'LeadPage',
  'InvoiceCreate',
  'Invoice',
  'InvoiceCreated',
  'InvoiceCanceled',
  'InvoicePage',
  'PaymentCreate',
  'Payment',
  'PaymentList',
];

/**
 * The answers the presenters build (the `*.present.ts` files of src/): each presenter's return type is checked against
 * its schema here, so the document cannot drift from what is sent. The server's own copy, since the
 * build (tsconfig.build.json, rootDir src) cannot take a file from client/.
 */
const ANSWER_ROOTS = [
  'Business',
  'Client',
  'OperatorClient',
  'Balance',
  'Invoice',
  'InvoiceCanceled',
  'InvoicePreview',
  'Payment',
  'Lead',
  'LeadActivity',
  'PipelineConfiguration',
  'OperatorPipelineConfiguration',
  'WebhookEndpoint',
  'WebhookAttemptPage',
];

/** Enums longer than this (countries, currencies) are typed as string: a union of hundreds helps nobody. */
const MAX_UNION = 30;

export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../client/src/api-types.ts', import.meta.url));
export const ANSWER_TYPES_FILE = fileURLToPath(new URL('../src/openapi/answer-types.ts', import.meta.url));
export const OPERATOR_TYPES_FILE = fileURLToPath(
  new URL('../src/operator/dashboard/operator-api-types.ts', import.meta.url),
);

type Schema = JsonSchema & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
};

function referencedNames(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const s of schema) referencedNames(s, into);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') into.add(value.split('/').pop()!);
    else referencedNames(value, into);
  }
}

function closure(schemas: Record<string, Schema>, roots: readonly string[]): string[] {
  const names = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (names.has(name)) continue;
    if (!schemas[name]) throw new Error(`generated types: no schema ${name} in the document`);
    names.add(name);
    const refs = new Set<string>();
    referencedNames(schemas[name], refs);
    pending.push(...refs);
  }
  return [...names].sort();
}

/** Enum lists longer than MAX_UNION dropped (the type stays: a string), in a copy. */
function withoutLongUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutLongUnions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' && Array.isArray(value) && value.length > MAX_UNION) {
      // A nullable long enum keeps its null: `type` may not say it when only the enum listed it.
      if (value.includes(null) && !(schema as Schema).type?.includes('null'))
        copy.type = [(schema as Schema).type ?? 'string', 'null'].flat();
      continue;
    }
    copy[key] = withoutLongUnions(value);
  }
  return copy;
}

/**
 * The whole file, from the document the server serves: the client's schemas and what they refer to,
 * as openapi-typescript writes them (`components["schemas"]`), each also exported by its own name.
 */
export async function renderClientTypes(document: JsonSchema): Promise<string> {
  return [header(document), await renderSchemas(document, ROOTS), renderListQueryTypes()].join('\n');
}

/** The presenters' answer types (ANSWER_ROOTS), from the same document as the client's. */
export async function renderAnswerTypes(document: JsonSchema): Promise<string> {
  return [header(document), await renderSchemas(document, ANSWER_ROOTS)].join('\n');
}

/**
 * The operator API's answers, for the dashboard (src/operator/dashboard/public/dashboard-types.js): every
 * operation the operator session guards, reduced to its JSON success answer, with the schemas those refer
 * to, and `Answer<operationId>`, the `data` such an answer carries. No list of names: an operator
 * operation added to the document is typed at the next generation.
 */
export async function renderOperatorTypes(document: JsonSchema): Promise<string> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, OperationObject>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!operation.security?.some((scheme) => 'operatorSession' in scheme)) continue;
      const responses = Object.fromEntries(
        Object.entries(operation.responses).filter(
          ([status, answer]) => status.startsWith('2') && answer.content?.['application/json'],
        ),
      );
      if (Object.keys(responses).length === 0) continue;
      paths[path] = { ...paths[path], [method]: { operationId: operation.operationId, responses } };
    }
  }
  const roots = new Set<string>();
  referencedNames(paths, roots);
  return [header(document), await renderSchemas(document, [...roots], paths), ANSWER_HELPER].join('\n');
}

interface OperationObject {
  operationId: string;
  security?: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const ANSWER_HELPER = `/**
 * The \`data\` of an operator operation's success answer, by operationId: \`Answer<'listCountries'>\`.
 * Written by scripts/client-types.ts beside what openapi-typescript writes.
 */
export type Answer<Id extends keyof operations> =
  SuccessAnswer<Id> extends { content: { 'application/json': { data: infer Data } } } ? Data : never;
/** The operation's one success answer (the file keeps no other). */
type SuccessAnswer<Id extends keyof operations> = operations[Id]['responses'][keyof operations[Id]['responses']];
`;

const header = (document: JsonSchema) =>
  [
    '// Generated by `npm run generate:client` from the OpenAPI document of the crmkit server',
    `// (version ${(document.info as { version: string }).version}) with openapi-typescript. Do not edit: change the server's schemas and regenerate.`,
    '',
  ].join('\n');

async function renderSchemas(
  document: JsonSchema,
  roots: readonly string[],
  paths: Record<string, unknown> = {},
): Promise<string> {
  const schemas = (document.components as { schemas: Record<string, Schema> }).schemas;
  const used = Object.fromEntries(closure(schemas, roots).map((name) => [name, withoutLongUnions(schemas[name])]));
  const ast = await openapiTS(
    {
      openapi: '3.1.0',
      info: document.info as never,
      paths: withoutLongUnions(paths) as never,
      components: { schemas: used as never },
    },
    {
      rootTypes: true,
      rootTypesNoSchemaPrefix: true,
      alphabetize: true,
      // A default is the server's to apply: the field stays optional to send.
      defaultNonNullable: false,
      // An object with no properties listed holds anything (a token's claims), not nothing.
      emptyObjectsUnknown: true,
    },
  );
  return astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const document = openApiDocument({ config: testConfig() });
  writeFileSync(CLIENT_TYPES_FILE, await renderClientTypes(document));
  writeFileSync(ANSWER_TYPES_FILE, await renderAnswerTypes(document));
  writeFileSync(OPERATOR_TYPES_FILE, await renderOperatorTypes(document));
  console.log(`wrote ${CLIENT_TYPES_FILE}, ${ANSWER_TYPES_FILE} and ${OPERATOR_TYPES_FILE}`);
}
