// Writes client/src/api-types.ts, the types of the TypeScript client, from the OpenAPI document
// (`npm run generate:client`). A unit test regenerates it in memory and fails when the file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { testConfig } from '../src/config.js';
import { openApiDocument } from '../src/features.js';
import type { JsonSchema } from '../src/validation/json-schema.js';

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

/** Enums longer than this (countries, currencies) are typed as string: a union of hundreds helps nobody. */
const MAX_UNION = 30;

export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../client/src/api-types.ts', import.meta.url));

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

const refName = (schema: Schema): string | undefined => schema.$ref?.split('/').pop();

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

function closure(schemas: Record<string, Schema>): string[] {
  const names = new Set<string>();
  const pending = [...ROOTS];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (names.has(name)) continue;
    if (!schemas[name]) throw new Error(`client types: no schema ${name} in the document`);
    names.add(name);
    const refs = new Set<string>();
    referencedNames(schemas[name], refs);
    pending.push(...refs);
  }
  return [...names].sort();
}

const literal = (value: unknown): string => JSON.stringify(value);
const comment = (text: string | undefined, indent: string): string =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';

function typeOf(schema: Schema, indent: string): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.oneOf) return schema.oneOf.map((s) => typeOf(s, indent)).join(' | ');
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null);
    const base = values.length > MAX_UNION ? 'string' : values.map(literal).join(' | ');
    return schema.enum.includes(null) ? `${base} | null` : base;
  }
  const types = [schema.type ?? 'unknown'].flat();
  return types.map((type) => primitive(type, schema, indent)).join(' | ');
}

function primitive(type: string, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = schema.items ? typeOf(schema.items, indent) : 'unknown';
      return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(
    ([name, member]) =>
      `${comment(member.description, inner)}${inner}${name}${required.has(name) ? '' : '?'}: ${typeOf(member, inner)};\n`,
  );
  const extra = schema.additionalProperties;
  if (typeof extra === 'object') members.push(`${inner}[key: string]: ${typeOf(extra, inner)};\n`);
  else if (!schema.properties) members.push(`${inner}[key: string]: unknown;\n`);
  return `{\n${members.join('')}${indent}}`;
}

/** The whole file, from the document the server serves. */
export function renderClientTypes(document: JsonSchema): string {
  const schemas = (document.components as { schemas: Record<string, Schema> }).schemas;
  const blocks = closure(schemas).map((name) => {
    const schema = schemas[name]!;
    const type = typeOf(schema, '');
    const head = comment(schema.description, '');
    return schema.type === 'object' && !schema.oneOf
      ? `${head}export interface ${name} ${type}\n`
      : `${head}export type ${name} = ${type};\n`;
  });
  return [
    '// Generated by `npm run generate:client` from the OpenAPI document of the crmkit server',
    `// (version ${(document.info as { version: string }).version}). Do not edit: change the server's schemas and regenerate.`,
    '',
    blocks.join('\n'),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CLIENT_TYPES_FILE, renderClientTypes(openApiDocument({ config: testConfig() })));
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}
