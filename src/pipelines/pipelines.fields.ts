import type { ErrorCode, FieldError } from '../errors/codes.js';
import type { ObjectSchema } from '../validation/json-schema.js';

/**
 * Small strict readers for the pipeline PUT body. Every failure is collected (never thrown) and
 * named by the path the caller sent, so one 400 lists them all in body order.
 */
export class Failures {
  readonly list: FieldError[] = [];

  add(field: string, message: string, code: ErrorCode = 'INVALID_FIELD_VALUE'): void {
    this.list.push({ field, message, code });
  }

  /** A wrong JSON type is a name-level failure (decisions.md: INVALID_FIELD). */
  wrongType(field: string, type: string): void {
    this.add(field, `${field} must be ${type}`, 'INVALID_FIELD');
  }
}

export type MemberReader = (value: unknown, path: string) => void;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Visits an object's members in body order: unknown keys fail as INVALID_FIELD, `null` means
 * "not sent", and a required member that is missing or null fails once, after the others. The
 * readers are typed by the schema's members, so a member cannot be read without being described.
 */
export function readMembers<K extends string>(entry: Record<string, unknown>, at: string, schema: ObjectSchema<K>, readers: Record<K, MemberReader>, f: Failures): void {
  const required: readonly string[] = schema.required;
  for (const [key, value] of Object.entries(entry)) {
    const path = at ? `${at}.${key}` : key;
    const reader = Object.hasOwn(readers, key) ? readers[key as K] : undefined;
    if (!reader) f.add(path, `${path} is not an accepted field`, 'INVALID_FIELD');
    else if (value !== null) reader(value, path);
  }
  for (const key of required) {
    const path = at ? `${at}.${key}` : key;
    if (entry[key] === undefined || entry[key] === null) f.add(path, `${path} is required`);
  }
}

// Lone surrogates and NUL cannot be stored faithfully in both stores (decisions.md).
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string of 1..max code points after trimming (or as sent, with `exact`); undefined when it fails. */
export function readText(value: unknown, path: string, max: number, f: Failures, options: { exact?: boolean } = {}): string | undefined {
  if (typeof value !== 'string') return void f.wrongType(path, 'a string');
  if (UNSTORABLE.test(value)) return void f.add(path, `${path} contains characters that cannot be stored`);
  const text = options.exact ? value : value.trim();
  if (text.trim().length === 0) return void f.add(path, `${path} must not be empty`);
  if (options.exact && text !== value.trim()) return void f.add(path, `${path} must not start or end with whitespace`);
  if ([...text].length > max) return void f.add(path, `${path} must be at most ${max} characters`);
  return text;
}

export function readBoolean(value: unknown, path: string, f: Failures): boolean | undefined {
  if (typeof value !== 'boolean') return void f.wrongType(path, 'a boolean');
  return value;
}

export function readNumber(value: unknown, path: string, min: number, max: number, f: Failures): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return void f.wrongType(path, 'a number');
  if (value < min || value > max) {
    return void f.add(path, max === Number.MAX_VALUE ? `${path} must be at least ${min}` : `${path} must be from ${min} to ${max}`);
  }
  return value === 0 ? 0 : value; // -0 is stored as 0
}

/** An array of at most `max` entries; each entry goes to `each`. */
export function readArray(value: unknown, path: string, max: number, f: Failures, each: (item: unknown, itemPath: string) => void): void {
  if (!Array.isArray(value)) return void f.wrongType(path, 'an array');
  if (value.length > max) f.add(path, `${path} must hold at most ${max} entries`);
  value.forEach((item, i) => each(item, `${path}[${i}]`));
}
