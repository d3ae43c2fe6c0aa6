import { AppError } from '../errors/app-error.js';
import { FieldReader, isJsonObject, type ReaderHooks } from './field-reader.js';
import { entry, entryInputSchema, entryOutputSchema, type EntrySchemaWriter, type EntrySpec } from './field-spec.js';
import type { JsonSchema } from './json-schema.js';

/**
 * A whole body read by the one field reader (field-reader.ts): every failure in one 400, a body that is
 * not an object refused as such. For the flat bodies of the operator API, documents and bodyless actions.
 */
export function readBody<T>(body: unknown, spec: EntrySpec, options: { allowEmpty?: boolean } = {}): T {
  if (body === undefined && options.allowEmpty) return {} as T;
  return Object.fromEntries(readBodyValues(body, spec)) as T;
}

/** The read members of a body (nested lists stay Maps), or one 400 listing every failure. */
export function readBodyValues(body: unknown, spec: EntrySpec, hooks?: ReaderHooks): Map<string, unknown> {
  if (!isJsonObject(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const reader = new FieldReader(undefined, hooks);
  const values = reader.readEntry(spec, body, '');
  if (reader.errors.length > 0 || !values) throw AppError.fromFieldErrors(reader.errors);
  return values;
}

/** Nested entries written in place (the OpenAPI document names only the client's entries). */
export const inlineEntries: EntrySchemaWriter = (spec, role) =>
  role === 'input' ? entryInputSchema(spec, inlineEntries) : entryOutputSchema(spec, inlineEntries);

/** The JSON Schema of a body read by `readBody(body, spec)`: generated from the same descriptors. */
export function bodyJsonSchema(spec: EntrySpec, description: string): JsonSchema {
  const { title: _title, ...schema } = entryInputSchema(spec, inlineEntries);
  return { ...schema, description };
}

/** Bodyless actions: no member at all. */
export const EMPTY_BODY = entry('Empty', 'No body, an empty body or {}.', []);
