/**
 * A JSON Schema (2020-12, the dialect of OpenAPI 3.1) fragment. Validators publish their field tables
 * in this form so that the OpenAPI document is generated from the rules that answer requests.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Optional members accept null ("not sent"); required ones do not. */
export function nullableUnless(required: boolean | undefined, type: string | string[]): string | string[] {
  const types = Array.isArray(type) ? type : [type];
  return required ? type : [...types, 'null'];
}

/** An object schema whose member names a validator can be typed against (its readers, one per key). */
export interface ObjectSchema<K extends string = string> extends JsonSchema {
  properties: Record<K, JsonSchema>;
  required: K[];
}

/** A closed object: every member named, unknown keys refused (the validators answer INVALID_FIELD). */
export function closedObject<K extends string>(
  properties: Record<K, JsonSchema>,
  required: readonly NoInfer<K>[],
  extra: JsonSchema = {},
): ObjectSchema<K> {
  return { type: 'object', ...extra, additionalProperties: false, required: [...required], properties };
}
