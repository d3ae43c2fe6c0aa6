import { FORMATS, type FormatName } from './formats.js';
import { closedObject, nullableUnless, type JsonSchema, type ObjectSchema } from './json-schema.js';

/**
 * Descriptors of accepted body fields: the one body reader (field-reader.ts) checks a body against
 * them, and the OpenAPI document's schemas are generated from them (entryInputSchema,
 * entryOutputSchema), so the check and the document cannot drift.
 */

/**
 * How an idempotent retry compares a member (docs/derivation.md "Idempotency"): `exact` values; `email` ignoring
 * case; `multiset` lists regardless of order (nested lists too); `liveCustomFields` only values of
 * fields still live; `never` not at all. Absent: lists `multiset`, custom fields `liveCustomFields`,
 * anything else `exact` (see comparisonOf), so a new field is compared unless it says otherwise.
 */
export type CompareMode = 'exact' | 'email' | 'multiset' | 'liveCustomFields' | 'never';

interface Member {
  description: string;
  /** Missing or null is INVALID_FIELD_VALUE "is required"; reported before the entry's other failures. */
  required?: boolean;
  compare?: CompareMode;
}
export interface StringSpec extends Member {
  type: 'string';
  /** Clients trim only clientId and name; limits then apply to the trimmed text. */
  trim?: boolean;
  minLength?: number;
  maxLength?: number;
  enum?: readonly string[];
  pattern?: RegExp;
  format?: FormatName;
  default?: string;
  /** Replaces the generated text after the path for a length, enum or pattern failure ("must be an ISO 4217 code"). */
  message?: string;
}
export interface BooleanSpec extends Member {
  type: 'boolean';
  default?: boolean;
}
export interface IntegerSpec extends Member {
  type: 'integer';
  minimum: number;
  maximum: number;
}
export interface ListSpec extends Member {
  type: 'array';
  items: EntrySpec;
  maxItems?: number;
}
export interface CustomFieldsSpec extends Member {
  type: 'customFields';
}
/** A finite number within the bounds given, with at most `maxDecimals` decimal places. */
export interface NumberSpec extends Member {
  type: 'number';
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  maxDecimals?: number;
  /** Replaces the generated text after the path for an out-of-bounds value. */
  message?: string;
}
/** An array of strings, each read by `items` (which are required: a null item is an error). */
export interface StringListSpec extends Member {
  type: 'strings';
  items: StringSpec;
  maxItems?: number;
  minItems?: number;
  /** The same string twice is INVALID_FIELD_VALUE, named at the repeat. */
  unique?: boolean;
  /** Item failures are reported once, at the list's own path (as the custom-field options always were). */
  errorsAtList?: boolean;
}
/** A nested object read member by member. */
export interface ObjectSpec extends Member {
  type: 'object';
  entry: EntrySpec;
}
export type FieldSpec =
  | StringSpec
  | BooleanSpec
  | IntegerSpec
  | NumberSpec
  | ListSpec
  | StringListSpec
  | ObjectSpec
  | CustomFieldsSpec;

export interface EntrySpec {
  title: string;
  description: string;
  fields: ReadonlyMap<string, FieldSpec>;
}

export const entry = (title: string, description: string, fields: [string, FieldSpec][]): EntrySpec => ({
  title,
  description,
  fields: new Map(fields),
});

export function comparisonOf(field: FieldSpec): CompareMode {
  if (field.compare) return field.compare;
  if (field.type === 'array' || field.type === 'strings') return 'multiset';
  return field.type === 'customFields' ? 'liveCustomFields' : 'exact';
}

/** What an unsent member is stored as: its default, an empty list or map, else null (unset is null). */
export function defaultOf(field: FieldSpec): unknown {
  switch (field.type) {
    case 'boolean':
    case 'string':
      return field.default ?? null;
    case 'array':
    case 'strings':
      return [];
    case 'customFields':
      return {};
    default:
      return null;
  }
}

/** How a list's entry schema is written into its parent: the OpenAPI document names entries and writes a $ref. */
export type EntrySchemaWriter = (entry: EntrySpec, role: 'input' | 'output') => JsonSchema;

/** What a body may carry: optional members accept null ("not set"); required strings do not. */
export function entryInputSchema(spec: EntrySpec, writer: EntrySchemaWriter): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of spec.fields) properties[name] = fieldInputSchema(field, writer);
  const required = [...spec.fields].filter(([, field]) => field.required).map(([name]) => name);
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
      return stringSchema(field, !field.required, field.minLength ?? (field.required ? 1 : undefined));
    case 'boolean':
      return {
        type: nullableUnless(field.required, 'boolean'),
        ...(field.default !== undefined && { default: field.default }),
        description: field.description,
      };
    case 'integer':
      return {
        type: nullableUnless(field.required, 'integer'),
        minimum: field.minimum,
        maximum: field.maximum,
        description: field.description,
      };
    case 'number':
      return { type: nullableUnless(field.required, 'number'), ...numberBounds(field), description: field.description };
    case 'array':
      return {
        type: nullableUnless(field.required, 'array'),
        items: writer(field.items, 'input'),
        ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
        description: field.description,
      };
    case 'strings':
      return {
        type: nullableUnless(field.required, 'array'),
        items: stringSchema(field.items, false, field.items.minLength ?? 1),
        ...listBounds(field),
        description: field.description,
      };
    case 'object':
      return { ...writer(field.entry, 'input'), description: field.description };
    case 'customFields':
      return {
        type: ['object', 'null'],
        additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
        description: field.description,
      };
  }
}

function fieldOutputSchema(field: FieldSpec, writer: EntrySchemaWriter): JsonSchema {
  switch (field.type) {
    case 'string':
      return stringSchema(field, !field.required && field.default === undefined);
    case 'boolean':
      return { type: 'boolean', description: field.description };
    case 'integer':
      return {
        type: ['integer', 'null'],
        minimum: field.minimum,
        maximum: field.maximum,
        description: field.description,
      };
    case 'number':
      return { type: ['number', 'null'], ...numberBounds(field), description: field.description };
    case 'array':
      return { type: 'array', items: writer(field.items, 'output'), description: field.description };
    case 'strings':
      return { type: 'array', items: stringSchema(field.items, false), description: field.description };
    case 'object':
      return { ...writer(field.entry, 'output'), description: field.description };
    case 'customFields':
      return {
        type: 'object',
        additionalProperties: { type: ['string', 'number', 'boolean'] },
        description: field.description,
      };
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
  if (field.pattern) schema.pattern = field.pattern.source;
  if (field.default !== undefined) schema.default = field.default;
  return schema;
}

function numberBounds(field: NumberSpec): JsonSchema {
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = field;
  return Object.fromEntries(
    Object.entries({ minimum, exclusiveMinimum, maximum, exclusiveMaximum }).filter(([, v]) => v !== undefined),
  );
}

function listBounds(field: StringListSpec): JsonSchema {
  return {
    ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
    ...(field.minItems !== undefined && { minItems: field.minItems }),
    ...(field.unique && { uniqueItems: true }),
  };
}
