import type { FieldError } from '../errors/codes.js';
import { codePointLength, isStorableString } from '../validation/strings.js';
import { isJsonObject } from '../validation/field-reader.js';
import type { CustomFieldDefinition, CustomFieldValue } from '../storage/records.js';

/**
 * Custom field values (docs/decisions.md "Clients"). Names match live fields case-insensitively, exactly as
 * the operator API keeps names unique; the stored record is keyed by field id so a rename keeps values.
 */

export const CUSTOM_TEXT_MAX_LENGTH = 2500;

export interface CustomFieldsContext {
  customFieldsEnabled: boolean;
  customFields: CustomFieldDefinition[];
}

export type CustomFieldsResult = { values: Record<string, CustomFieldValue>; errors: FieldError[] };

const nameKey = (name: string): string => name.toLowerCase();

export function readCustomFieldValues(raw: unknown, path: string, context: CustomFieldsContext): CustomFieldsResult {
  const errors: FieldError[] = [];
  const values: Record<string, CustomFieldValue> = {};
  if (!isJsonObject(raw))
    return { values, errors: [{ field: path, message: `${path} must be an object`, code: 'INVALID_FIELD' }] };
  const names = Object.keys(raw);
  // An empty object asks for nothing, so it is not refused even when custom fields are off.
  if (names.length === 0) return { values, errors };
  if (!context.customFieldsEnabled) {
    return {
      values,
      errors: [
        { field: path, message: 'Custom fields are not enabled for this business', code: 'CUSTOM_FIELDS_NOT_ENABLED' },
      ],
    };
  }
  const live = new Map(context.customFields.filter((f) => !f.isArchived).map((f) => [nameKey(f.name), f]));
  const unknown: string[] = [];
  let unknownAt = -1;
  for (const name of names) {
    const field = live.get(nameKey(name));
    if (!field) {
      if (unknownAt < 0) unknownAt = errors.length;
      unknown.push(name);
      continue;
    }
    const at = `${path}.${name}`;
    if (Object.hasOwn(values, field.id)) {
      errors.push({
        field: at,
        message: `${at} names custom field "${field.name}" a second time`,
        code: 'INVALID_CUSTOM_FIELD',
      });
      continue;
    }
    readOne(field, raw[name], at, values, errors);
  }
  // All unknown or archived names in one error, at the place of the first one (body order).
  if (unknownAt >= 0) errors.splice(unknownAt, 0, unknownNamesError(path, unknown));
  return { values, errors };
}

function unknownNamesError(path: string, names: string[]): FieldError {
  const list = names.map((name) => JSON.stringify(name)).join(', ');
  return { field: path, message: `${path} has no live custom field named ${list}`, code: 'INVALID_CUSTOM_FIELD' };
}

function readOne(
  field: CustomFieldDefinition,
  raw: unknown,
  at: string,
  values: Record<string, CustomFieldValue>,
  errors: FieldError[],
): void {
  // null means "not set", as for every optional field; the name still had to resolve.
  if (raw === null) return;
  const problem = valueProblem(field, raw);
  if (problem) errors.push({ field: at, message: `${at} ${problem}`, code: 'INVALID_CUSTOM_FIELD_VALUE' });
  else values[field.id] = raw as CustomFieldValue;
}

/** Why a value does not fit the field's type, or null when it fits. */
export function valueProblem(field: CustomFieldDefinition, raw: unknown): string | null {
  switch (field.type) {
    case 'TEXT':
      return textProblem(raw);
    case 'NUMBER':
      return typeof raw === 'number' && Number.isFinite(raw) ? null : 'must be a number';
    case 'BOOLEAN':
      return typeof raw === 'boolean' ? null : 'must be true or false';
    case 'DATE':
      return typeof raw === 'string' && isCalendarDate(raw) ? null : 'must be a calendar date YYYY-MM-DD';
    case 'SELECT':
      return typeof raw === 'string' && (field.options ?? []).includes(raw)
        ? null
        : `must be one of the field's options: ${(field.options ?? []).join(', ')}`;
  }
}

function textProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  if (!isStorableString(raw)) return 'must not contain NUL characters or unpaired surrogates';
  return codePointLength(raw) > CUSTOM_TEXT_MAX_LENGTH ? `must be at most ${CUSTOM_TEXT_MAX_LENGTH} characters` : null;
}

/** A real date of the proleptic Gregorian calendar, years 0001 to 9999, e.g. 2024-02-29 but not 2023-02-29. */
export function isCalendarDate(value: string): boolean {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
