import type { ErrorCode, FieldError } from '../errors/codes.js';
import { codePointLength, isStorableString } from './strings.js';
import { FORMATS, type FormatContext } from './formats.js';
import type {
  EntrySpec,
  FieldSpec,
  IntegerSpec,
  ListSpec,
  NumberSpec,
  StringListSpec,
  StringSpec,
} from './field-spec.js';

/**
 * Reads a JSON body against the schema descriptors in one pass: no coercion, no key removal, every
 * failure collected in body order. Name errors (unknown key, wrong JSON type) are INVALID_FIELD, value
 * errors INVALID_FIELD_VALUE. Rules spanning several fields plug in through EntryRules, called at the
 * member's own turn so their errors keep body order too.
 */

export type ReadValues = Map<string, unknown>;

export interface EntryRules {
  /** A message when this key is refused by name (server-owned, or not accepted in this mode). */
  refuseKey?(key: string): string | null;
  /** Called after a member was read and set (not null, no error), with the raw entry for peeking at siblings. */
  afterMember?(key: string, value: unknown, path: string, entry: Record<string, unknown>): void;
  /** Called once the whole entry was read, for rules that need several members (or a missing one). */
  afterEntry?(values: ReadValues, path: string, entry: Record<string, unknown>): void;
}

export interface ReaderHooks {
  /** Rules for one list occurrence (fresh state per list, e.g. duplicate codes). */
  rulesForList?(spec: ListSpec, reader: FieldReader): EntryRules | undefined;
  readCustomFields?(raw: unknown, path: string, reader: FieldReader): unknown;
}

/** For bodies without formats that depend on the business (operator bodies, pipelines, custom field definitions). */
const NO_BUSINESS: FormatContext = { businessCountry: '', enforceGstinChecksum: true };

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const memberPath = (parent: string, key: string): string => (parent === '' ? key : `${parent}.${key}`);

export class FieldReader {
  readonly errors: FieldError[] = [];

  constructor(
    private readonly formatContext: FormatContext = NO_BUSINESS,
    private readonly hooks: ReaderHooks = {},
  ) {}

  fail(field: string, code: ErrorCode, message: string): void {
    this.errors.push({ field, message, code });
  }

  nameError(field: string, message: string): void {
    this.fail(field, 'INVALID_FIELD', message);
  }

  valueError(field: string, message: string): void {
    this.fail(field, 'INVALID_FIELD_VALUE', message);
  }

  /** The set members of an object entry (null and invalid members absent); undefined when raw is not an object. */
  readEntry(spec: EntrySpec, raw: unknown, path: string, rules?: EntryRules): ReadValues | undefined {
    if (!isJsonObject(raw)) {
      this.nameError(path, `${path} must be an object`);
      return undefined;
    }
    this.reportMissingRequired(spec, raw, path);
    const values: ReadValues = new Map();
    for (const key of Object.keys(raw)) {
      const at = memberPath(path, key);
      const refusal = rules?.refuseKey?.(key) ?? null;
      const field = spec.fields.get(key);
      if (refusal !== null || field === undefined) {
        this.nameError(at, refusal ?? `${at} is not an accepted field`);
        continue;
      }
      const value = this.readMember(field, raw[key], at);
      if (value === undefined) continue;
      values.set(key, value);
      rules?.afterMember?.(key, value, at, raw);
    }
    rules?.afterEntry?.(values, path, raw);
    return values;
  }

  private reportMissingRequired(spec: EntrySpec, raw: Record<string, unknown>, path: string): void {
    for (const [key, field] of spec.fields) {
      if (field.required && !Object.hasOwn(raw, key)) {
        const at = memberPath(path, key);
        this.valueError(at, `${at} is required`);
      }
    }
  }

  /** The read value, or undefined when the member is not set (null) or failed. */
  readMember(field: FieldSpec, raw: unknown, path: string): unknown {
    // undefined cannot come from JSON; a programmatic caller's undefined means the same as omitting the key.
    if (raw === null || raw === undefined) {
      if (field.required) this.valueError(path, `${path} is required`);
      return undefined;
    }
    switch (field.type) {
      case 'string':
        return this.readString(field, raw, path);
      case 'boolean':
        if (typeof raw === 'boolean') return raw;
        this.nameError(path, `${path} must be a boolean`);
        return undefined;
      case 'integer':
        return this.readInteger(field, raw, path);
      case 'number':
        return this.readNumber(field, raw, path);
      case 'array':
        return this.readList(field, raw, path);
      case 'strings':
        return this.readStrings(field, raw, path);
      case 'object':
        return this.readEntry(field.entry, raw, path);
      case 'customFields':
        if (this.hooks.readCustomFields) return this.hooks.readCustomFields(raw, path, this);
        return void this.nameError(path, `${path} is not an accepted field`);
    }
  }

  readString(field: StringSpec, raw: unknown, path: string): string | undefined {
    if (typeof raw !== 'string') return void this.nameError(path, `${path} must be a string`);
    if (!isStorableString(raw))
      return void this.valueError(path, `${path} must not contain NUL characters or unpaired surrogates`);
    const value = field.trim ? raw.trim() : raw;
    const problem = this.stringProblem(field, value);
    if (problem !== null) return void this.valueError(path, `${path} ${problem}`);
    if (!field.format) return value;
    const result = FORMATS[field.format].check(value, this.formatContext);
    if (!result.ok) return void this.valueError(path, `${path} ${result.reason}`);
    return result.value;
  }

  /** What is wrong with a storable string of this field, as the text after its path; null when nothing. */
  private stringProblem(field: StringSpec, value: string): string | null {
    const after = field.trim ? ' after trimming' : '';
    if (field.required && value.length === 0) return `must not be empty${after}`;
    // Counting code points walks the string: only for fields with a length limit.
    const length = field.minLength !== undefined || field.maxLength !== undefined ? codePointLength(value) : 0;
    if (field.minLength !== undefined && length < field.minLength) {
      return (
        field.message ??
        (field.minLength === 1 ? `must not be empty${after}` : `must be at least ${field.minLength} characters${after}`)
      );
    }
    if (field.maxLength !== undefined && length > field.maxLength)
      return field.message ?? `must be at most ${field.maxLength} characters${after}`;
    if (field.enum && !field.enum.includes(value)) return field.message ?? `must be one of ${field.enum.join(', ')}`;
    if (field.pattern && !field.pattern.test(value)) return field.message ?? `must match ${field.pattern.source}`;
    return null;
  }

  private readInteger(field: IntegerSpec, raw: unknown, path: string): number | undefined {
    if (typeof raw !== 'number') return void this.nameError(path, `${path} must be a number`);
    if (!Number.isInteger(raw) || raw < field.minimum || raw > field.maximum) {
      return void this.valueError(path, `${path} must be a whole number from ${field.minimum} to ${field.maximum}`);
    }
    return raw;
  }

  private readNumber(field: NumberSpec, raw: unknown, path: string): number | undefined {
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return void this.nameError(path, `${path} must be a number`);
    const {
      minimum = -Infinity,
      exclusiveMinimum = -Infinity,
      maximum = Infinity,
      exclusiveMaximum = Infinity,
    } = field;
    if (raw < minimum || raw <= exclusiveMinimum || raw > maximum || raw >= exclusiveMaximum) {
      return void this.valueError(path, `${path} ${field.message ?? boundsText(field)}`);
    }
    if (field.maxDecimals !== undefined && !hasAtMostDecimals(raw, field.maxDecimals)) {
      return void this.valueError(path, `${path} must have at most ${field.maxDecimals} decimal places`);
    }
    return raw;
  }

  /** Strings of a list: a null entry or a failed one is an error of its own, named by index. */
  private readStrings(field: StringListSpec, raw: unknown, path: string): string[] | undefined {
    if (!Array.isArray(raw)) return void this.nameError(path, `${path} must be an array`);
    if (field.maxItems !== undefined && raw.length > field.maxItems)
      return void this.valueError(path, `${path} must hold at most ${field.maxItems} entries`);
    if (field.minItems !== undefined && raw.length < field.minItems) {
      return void this.valueError(
        path,
        `${path} must hold at least ${field.minItems} ${field.minItems === 1 ? 'entry' : 'entries'}`,
      );
    }
    const before = this.errors.length;
    const values: string[] = [];
    raw.forEach((item, index) => {
      const at = `${path}[${index}]`;
      const value = this.readString({ ...field.items, required: true }, item, at);
      if (value !== undefined && field.unique && values.includes(value))
        this.valueError(at, `${at} repeats an earlier entry`);
      if (value !== undefined) values.push(value);
    });
    if (this.errors.length === before) return values;
    // The message still names the item ("options[2] must be a string"); the error is filed under the list.
    if (field.errorsAtList) {
      const [first] = this.errors.splice(before);
      this.fail(path, first!.code, first!.message);
    }
    return undefined;
  }

  private readList(field: ListSpec, raw: unknown, path: string): ReadValues[] | undefined {
    if (!Array.isArray(raw)) return void this.nameError(path, `${path} must be an array`);
    if (field.maxItems !== undefined && raw.length > field.maxItems)
      return void this.valueError(path, `${path} must hold at most ${field.maxItems} entries`);
    const rules = this.hooks.rulesForList?.(field, this);
    const entries: ReadValues[] = [];
    for (let index = 0; index < raw.length; index += 1) {
      const entry = this.readEntry(field.items, raw[index], `${path}[${index}]`, rules);
      if (entry) entries.push(entry);
    }
    return entries;
  }
}

/** "must be from 0 to 100", "must be greater than 0 and at most 9999": the bounds a NumberSpec sets. */
function boundsText(field: NumberSpec): string {
  if (field.minimum !== undefined && field.maximum !== undefined)
    return `must be from ${field.minimum} to ${field.maximum}`;
  const parts = [
    field.minimum !== undefined && `at least ${field.minimum}`,
    field.exclusiveMinimum !== undefined && `greater than ${field.exclusiveMinimum}`,
    field.maximum !== undefined && `at most ${field.maximum}`,
    field.exclusiveMaximum !== undefined && `less than ${field.exclusiveMaximum}`,
  ].filter(Boolean);
  return `must be ${parts.join(' and ')}`;
}

/** Decimal places as written in the shortest round-trip form (1e-7 has seven). */
function hasAtMostDecimals(value: number, places: number): boolean {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const decimals = (mantissa.split('.')[1] ?? '').length - Number(exponent);
  return decimals <= places;
}
