import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { isStorableString } from '../validation/strings.js';

/** A rule for one body member: answers an error message for a bad value, or nothing. */
export type MemberRule = { type: 'string' | 'boolean' | 'number' | 'array' | 'object'; required?: boolean; check?: (value: never) => string | undefined };

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
    const message = rule.check?.(value as never);
    if (message) errors.push({ field: key, message, code: 'INVALID_FIELD_VALUE' });
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
  value.trim().length === 0 ? 'must not be empty'
    : [...value].length > max ? `must be at most ${max} characters`
      : !isStorableString(value) ? 'must not contain NUL characters or unpaired surrogates' : undefined;
