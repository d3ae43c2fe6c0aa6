import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { isStorableString } from '../validation/strings.js';
import { closedObject, nullableUnless, type JsonSchema } from '../validation/json-schema.js';

/**
 * A rule for one body member: answers an error message for a bad value, or nothing. `schema` is the
 * JSON Schema rendering of what `check` enforces, built beside it by the factories below so that the
 * OpenAPI document (bodyJsonSchema) and the check cannot drift apart.
 */
export type MemberRule = {
  type: 'string' | 'boolean' | 'number' | 'array' | 'object';
  required?: boolean;
  check?: (value: never) => string | undefined;
  schema?: JsonSchema;
};

/**
 * Reads a small operator body strictly: unknown keys and wrong JSON types are INVALID_FIELD, bad
 * values INVALID_FIELD_VALUE, every failure collected in body order. `null` means "not sent".
 */
export function readBody<T>(body: unknown, rules: Record<string, MemberRule>, options: { allowEmpty?: boolean } = {}): T {
  if (body === undefined && options.allowEmpty) return {} as T;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const record = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const rule = Object.hasOwn(rules, key) ? rules[key]! : undefined;
    if (!rule) {
      errors.push({ field: key, message: `${key} is not an accepted field`, code: 'INVALID_FIELD' });
      continue;
    }
    if (value === null) continue;
    if (jsonType(value) !== rule.type) {
      errors.push({ field: key, message: `${key} must be of type ${rule.type}`, code: 'INVALID_FIELD' });
      continue;
    }
    // One place for every operator body: text that cannot be stored faithfully is refused (decisions.md).
    const message = typeof value === 'string' && !isStorableString(value)
      ? `${key} must not contain NUL characters or unpaired surrogates`
      : rule.check?.(value as never);
    // Every message names its field ("name must not be empty"), however the rule words it.
    if (message) errors.push({ field: key, message: message.startsWith(`${key} `) ? message : `${key} ${message}`, code: 'INVALID_FIELD_VALUE' });
    else result[key] = value;
  }
  for (const [key, rule] of Object.entries(rules)) {
    if (rule.required && (record[key] === undefined || record[key] === null)) {
      errors.push({ field: key, message: `${key} is required`, code: 'INVALID_FIELD_VALUE' });
    }
  }
  if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  return result as T;
}

function jsonType(value: unknown): MemberRule['type'] | 'other' {
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value as 'string' | 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : 'other';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' && value !== null ? 'object' : 'other';
}

export const nonEmptyText = (max: number) => (value: string) =>
  value.trim().length === 0 ? 'must not be empty' : [...value].length > max ? `must be at most ${max} characters` : undefined;

/** Text that is not blank, at most `max` code points. */
export function textRule(max: number, description: string): MemberRule {
  return { type: 'string', check: nonEmptyText(max), schema: { minLength: 1, maxLength: max, description } };
}

/** One of a closed list of values. */
export function choiceRule(values: readonly string[], message: string, description: string): MemberRule {
  const accepted = new Set(values);
  return { type: 'string', check: (v: string) => (accepted.has(v) ? undefined : message), schema: { enum: [...values], description } };
}

/** Text matching `pattern` (when given) and within a length range counted in code points. */
export function stringRule(shape: { pattern?: RegExp; min?: number; max?: number }, message: string, description: string): MemberRule {
  const { pattern, min = 0, max = Infinity } = shape;
  const fits = (v: string) => (!pattern || pattern.test(v)) && [...v].length >= min && [...v].length <= max;
  const schema: JsonSchema = { description };
  if (pattern) schema.pattern = pattern.source;
  if (min > 0) schema.minLength = min;
  if (max !== Infinity) schema.maxLength = max;
  return { type: 'string', check: (v: string) => (fits(v) ? undefined : message), schema };
}

/** A finite number strictly between -bound and bound. */
export function magnitudeRule(bound: number, message: string, description: string): MemberRule {
  return {
    type: 'number',
    check: (v: number) => (Math.abs(v) < bound ? undefined : message),
    schema: { exclusiveMinimum: -bound, exclusiveMaximum: bound, description },
  };
}

/** The JSON Schema of a body read by `readBody(body, rules)`: the same members, types and checks. */
export function bodyJsonSchema(rules: Record<string, MemberRule>, description: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, rule] of Object.entries(rules)) properties[key] = { type: nullableUnless(rule.required, rule.type), ...rule.schema };
  const required = Object.keys(rules).filter((key) => rules[key]!.required);
  return closedObject(properties, required, { description });
}
