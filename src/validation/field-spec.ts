import { FORMATS, type FormatName } from './formats.js';
import { closedObject, type JsonSchema, type ObjectSchema } from './json-schema.js';

/**
 * Descriptors of accepted body fields: the one body reader (field-reader.ts) checks a body against
 * them, and the OpenAPI document's schemas are generated from them (entryInputSchema,
 * entryOutputSchema), so the check and the document cannot drift.
 */

export interface StringSpec {
  type: 'string';
  description: string;
  required?: boolean;
  /** Clients trim only clientId and name (decisions.md); limits then apply to the trimmed text. */
  trim?: boolean;
  maxLength?: number;
  enum?: readonly string[];
  format?: FormatName;
  default?: string;
}
export interface BooleanSpec { type: 'boolean'; description: string; default: boolean }
export interface IntegerSpec { type: 'integer'; description: string; minimum: number; maximum: number }
export interface ListSpec { type: 'array'; description: string; items: EntrySpec; maxItems?: number }
export interface CustomFieldsSpec { type: 'customFields'; description: string }
/** A finite number above `exclusiveMinimum` and at most `maximum`, with at most `maxDecimals` decimal places. */
export interface NumberSpec { type: 'number'; description: string; exclusiveMinimum: number; maximum: number; maxDecimals?: number }
/** An array of strings, each read by `items`. */
export interface StringListSpec { type: 'strings'; description: string; items: StringSpec; maxItems: number }
/** A nested object read member by member. */
export interface ObjectSpec { type: 'object'; description: string; entry: EntrySpec }
export type FieldSpec = StringSpec | BooleanSpec | IntegerSpec | NumberSpec | ListSpec | StringListSpec | ObjectSpec | CustomFieldsSpec;

export interface EntrySpec {
  title: string;
  description: string;
  fields: ReadonlyMap<string, FieldSpec>;
}

export const entry = (title: string, description: string, fields: [string, FieldSpec][]): EntrySpec => ({ title, description, fields: new Map(fields) });

/** How a list's entry schema is written into its parent: the OpenAPI document names entries and writes a $ref. */
export type EntrySchemaWriter = (entry: EntrySpec, role: 'input' | 'output') => JsonSchema;

/** What a body may carry: optional members accept null ("not set", decisions.md); required strings do not. */
export function entryInputSchema(spec: EntrySpec, writer: EntrySchemaWriter): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of spec.fields) properties[name] = fieldInputSchema(field, writer);
  const required = [...spec.fields].filter(([, field]) => field.type === 'string' && field.required).map(([name]) => name);
  return closedObject(properties, required, { title: spec.title, description: spec.description });
}

/**
 * What an answer carries for an entry (presenters list every field): every member present, unset
 * scalars null, booleans and defaulted strings never null, lists always arrays.
 */
export function entryOutputSchema(spec: EntrySpec, writer: EntrySchemaWriter): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of spec.fields) properties[name] = fieldOutputSchema(field, writer);
  return closedObject(properties, [...spec.fields.keys()], { description: spec.description });
}

function fieldInputSchema(field: FieldSpec, writer: EntrySchemaWriter): JsonSchema {
  switch (field.type) {
    case 'string':
      return stringSchema(field, !field.required, field.required ? 1 : undefined);
    case 'boolean':
      return { type: ['boolean', 'null'], default: field.default, description: field.description };
    case 'integer':
      return { type: ['integer', 'null'], minimum: field.minimum, maximum: field.maximum, description: field.description };
    case 'number':
      return { type: ['number', 'null'], exclusiveMinimum: field.exclusiveMinimum, maximum: field.maximum, description: field.description };
    case 'array':
      return { type: ['array', 'null'], items: writer(field.items, 'input'), ...(field.maxItems !== undefined && { maxItems: field.maxItems }), description: field.description };
    case 'strings':
      return { type: ['array', 'null'], items: stringSchema(field.items, false), maxItems: field.maxItems, description: field.description };
    case 'object':
      return { ...writer(field.entry, 'input'), description: field.description };
    case 'customFields':
      return { type: ['object', 'null'], additionalProperties: { type: ['string', 'number', 'boolean', 'null'] }, description: field.description };
  }
}

function fieldOutputSchema(field: FieldSpec, writer: EntrySchemaWriter): JsonSchema {
  switch (field.type) {
    case 'string':
      return stringSchema(field, !field.required && field.default === undefined);
    case 'boolean':
      return { type: 'boolean', description: field.description };
    case 'integer':
      return { type: ['integer', 'null'], minimum: field.minimum, maximum: field.maximum, description: field.description };
    case 'number':
      return { type: ['number', 'null'], exclusiveMinimum: field.exclusiveMinimum, maximum: field.maximum, description: field.description };
    case 'array':
      return { type: 'array', items: writer(field.items, 'output'), description: field.description };
    case 'strings':
      return { type: 'array', items: stringSchema(field.items, false), description: field.description };
    case 'object':
      return { ...writer(field.entry, 'output'), description: field.description };
    case 'customFields':
      return { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: field.description };
  }
}

function stringSchema(field: StringSpec, nullable: boolean, minLength?: number): JsonSchema {
  const schema: JsonSchema = { type: nullable ? ['string', 'null'] : 'string', description: field.description };
  if (minLength !== undefined) schema.minLength = minLength;
  if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
  const format = field.format ? FORMATS[field.format] : undefined;
  const choices = field.enum ?? format?.jsonEnum;
  if (choices) schema.enum = nullable ? [...choices, null] : [...choices];
  if (format?.jsonPattern) schema.pattern = format.jsonPattern;
  if (field.default !== undefined) schema.default = field.default;
  return schema;
}
