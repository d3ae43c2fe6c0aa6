import { AppError } from '../errors/app-error.js';
import { STAGE_STATES, type StageState } from '../pipelines/pipelines.types.js';
import { normalisePhone } from '../validation/phone.js';
import { searchWords } from '../validation/search-words.js';
import { SORT_FIELDS, type LeadListQuery, type SortField } from '../storage/lead-lists.records.js';
import { decodeSyncCursor, encodeSyncCursor, type SyncCursor } from '../storage/sync-pages.js';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_SKIP,
  MAX_TEXT,
  MAX_WORDS,
  parameterNames,
  type ParameterName,
} from './leads-list.parameters.js';

/**
 * GET /leads's query string (docs/decisions.md "Lead lists") → a typed query, or the exact error. Fastify's
 * parser keeps brackets literal (`tags[$in][]` is one key) and gives a repeated key as an array, so
 * every rule here sees what the caller sent. Names are left for the service to resolve.
 */

const STRUCTURED = parameterNames('names', 'status');
type Structured = ParameterName<'names' | 'status'>;
const EXACT = parameterNames('exact');
/** One plain value each (`$sort` has its own form, the structured filters theirs). */
const SINGLE = parameterNames('page', 'exact', 'instant', 'date', 'none', 'amount', 'words', 'cursor');

export { MAX_LIMIT, MAX_SKIP };

export interface ParsedLeadList {
  /** Names and values of the structured filters, as sent (comma-split), to resolve. */
  names: Partial<Record<Exclude<Structured, 'status'>, string[]>>;
  statuses?: StageState[];
  query: LeadListQuery;
}

const invalidValue = (message: string) => new AppError('INVALID_QUERY_VALUE', message);

export function parseLeadListQuery(raw: Record<string, unknown>, urlKey: string): ParsedLeadList {
  const names: ParsedLeadList['names'] = {};
  const structured = new Map<Structured, string[]>();
  const inForms = new Set<Structured>();
  const single = new Map<string, string>();
  const sort: LeadListQuery['sort'] = [];
  let statuses: StageState[] | undefined;

  for (const [key, value] of Object.entries(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const base = match?.[1] ?? key;
    const suffix = match?.[2] ?? '';
    if ((STRUCTURED as readonly string[]).includes(base)) {
      addStructured(structured, base as Structured, suffix, value, key, inForms);
    } else if ((SINGLE as readonly string[]).includes(base)) {
      if (suffix !== '') throw invalidValue(`${base} takes one plain value; operators like ${key} are not accepted`);
      single.set(base, oneValue(key, value));
    } else if (base === '$sort' && match) {
      const field = /^\[([^[\]]*)\]$/.exec(suffix)?.[1];
      if (field === undefined) throw invalidValue('$sort is written $sort[FIELD]=1 or $sort[FIELD]=-1');
      if (!(SORT_FIELDS as readonly string[]).includes(field))
        throw new AppError('INVALID_QUERY_FIELD', `${key}: leads sort by ${SORT_FIELDS.join(', ')}`);
      const direction = oneValue(key, value);
      if (direction !== '1' && direction !== '-1') throw invalidValue(`${key} must be 1 or -1`);
      sort.push({ field: field as SortField, direction: direction === '1' ? 1 : -1 });
    } else {
      throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
    }
  }

  for (const [name, values] of structured) {
    if (name === 'status') statuses = values.map(statusOf);
    else names[name] = values;
  }
  const limit = wholeNumber(single.get('$limit'), DEFAULT_LIMIT, 1, MAX_LIMIT, 'INVALID_PAGINATION_LIMIT', '$limit');
  const skip = wholeNumber(single.get('$skip'), 0, 0, MAX_SKIP, 'INVALID_PAGINATION_SKIP', '$skip');
  const query: LeadListQuery = { filter: {}, limit, skip, sort };
  readSingles(single, query);
  if (single.has('updatedAtFrom') || single.has('after')) {
    if (single.has('$skip'))
      throw new AppError(
        'INVALID_QUERY_FIELD',
        '$skip is not accepted in sync mode (updatedAtFrom or after): continue with after',
      );
    if (sort.length > 0)
      throw new AppError(
        'INVALID_QUERY_FIELD',
        '$sort is not accepted in sync mode (updatedAtFrom or after): pages come by updatedAt',
      );
    const after = single.get('after');
    if (after === undefined) {
      // The first page: updatedAtFrom is kept in the cursor, for the whole sync.
      query.sync = { cursor: { phase: 'catch-up', from: query.filter.updatedFrom ?? null, start: null, after: null } };
      delete query.filter.updatedFrom;
    } else {
      query.sync = { cursor: decodeCursor(after, urlKey) };
    }
  }
  return { names, ...(statuses && { statuses }), query };
}

/** `F=v`, `F=a,b`, or `F[$in][]=v` / `F[$in][0]=v` / `F[$in]=v` repeated (indexed keys add up); one form per request. */
function addStructured(
  into: Map<Structured, string[]>,
  name: Structured,
  suffix: string,
  value: unknown,
  key: string,
  inForms: Set<Structured>,
): void {
  const repeated = () =>
    invalidValue(
      `${name} is sent more than once; send several values as ${name}=a,b or ${name}[$in][]=a&${name}[$in][]=b`,
    );
  if (suffix === '') {
    if (into.has(name)) throw repeated();
    into.set(
      name,
      oneValue(key, value)
        .split(',')
        .map((v) => v.trim())
        .map((v) => nonEmpty(name, v)),
    );
    return;
  }
  if (!/^\[\$in\](?:\[\d*\])?$/.test(suffix)) throw invalidValue(`${key}: the only operator accepted is $in`);
  if (into.has(name) && !inForms.has(name)) throw repeated();
  inForms.add(name);
  const values = (Array.isArray(value) ? value : [value]).map((v) => nonEmpty(name, String(v).trim()));
  into.set(name, [...(into.get(name) ?? []), ...values]);
}

function nonEmpty(name: string, value: string): string {
  if (value === '') throw invalidValue(`${name} has an empty value`);
  return value;
}

function oneValue(key: string, value: unknown): string {
  if (Array.isArray(value)) throw invalidValue(`${key} is sent more than once; it takes one value`);
  return String(value);
}

function statusOf(value: string): StageState {
  const upper = value.toUpperCase();
  if (!(STAGE_STATES as readonly string[]).includes(upper))
    throw invalidValue(`status "${value}" is not one of ${STAGE_STATES.join(', ')}`);
  return upper as StageState;
}

function wholeNumber(
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
  code: 'INVALID_PAGINATION_LIMIT' | 'INVALID_PAGINATION_SKIP',
  name: string,
): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw new AppError(code, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function readSingles(single: Map<string, string>, query: LeadListQuery): void {
  const f = query.filter;
  const text = (name: string) => {
    const value = single.get(name);
    if (value !== undefined && value.length > MAX_TEXT)
      throw invalidValue(`${name} is longer than ${MAX_TEXT} characters`);
    return value;
  };
  for (const name of EXACT) {
    const value = text(name);
    if (value === undefined) continue;
    if (name === 'contactEmail') f.contactEmail = value.trim().toLowerCase();
    else if (name === 'contactPhone') {
      // A value that is no phone matches no lead: an empty page, as for any exact lookup.
      const phone = normalisePhone(value.trim());
      f.contactPhone = phone.ok ? phone.value : value.trim();
    } else f[name] = value.trim();
  }
  f.createdFrom = instant(single.get('createdAtFrom'), 'createdAtFrom', 'start');
  f.createdTo = instant(single.get('createdAtTo'), 'createdAtTo', 'end');
  f.updatedFrom = instant(single.get('updatedAtFrom'), 'updatedAtFrom', 'start');
  f.followUpFrom = calendarDate(single.get('followUpDateFrom'), 'followUpDateFrom');
  f.followUpTo = calendarDate(single.get('followUpDateTo'), 'followUpDateTo');
  const none = single.get('followUpDate');
  if (none !== undefined) {
    if (none !== 'none')
      throw invalidValue(
        'followUpDate accepts only none (leads without a follow-up date); use followUpDateFrom/To for dates',
      );
    if (f.followUpFrom !== undefined || f.followUpTo !== undefined)
      throw invalidValue('followUpDate=none cannot be combined with followUpDateFrom or followUpDateTo');
    f.followUpNone = true;
  }
  f.budgetMin = amount(single.get('budgetMin'), 'budgetMin');
  f.budgetMax = amount(single.get('budgetMax'), 'budgetMax');
  for (const [low, high, label] of [
    [f.createdFrom, f.createdTo, 'createdAt'],
    [f.followUpFrom, f.followUpTo, 'followUpDate'],
    [f.budgetMin, f.budgetMax, 'budget'],
  ] as const) {
    if (low !== undefined && high !== undefined && low > high)
      throw invalidValue(`${label}: the lower bound is above the upper bound`);
  }
  const words = {
    any: wordsOf(text('q'), 'q'),
    subject: wordsOf(text('subject'), 'subject'),
    details: wordsOf(text('details'), 'details'),
  };
  if (words.any.length + words.subject.length + words.details.length > 0) f.words = words;
  for (const key of Object.keys(f) as (keyof typeof f)[]) if (f[key] === undefined) delete f[key];
}

function wordsOf(value: string | undefined, name: string): string[] {
  if (value === undefined) return [];
  const words = [...new Set(searchWords(value))];
  if (words.length === 0) throw invalidValue(`${name} has no word to search for`);
  if (words.length > MAX_WORDS) throw invalidValue(`${name} has more than ${MAX_WORDS} words`);
  return words;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const DAY = 86_400_000;

function validDate(value: string): number | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().startsWith(value) ? ms : undefined;
}

/** A date is its first millisecond (`start`) or its last (`end`) in UTC; an instant is itself. */
function instant(value: string | undefined, name: string, edge: 'start' | 'end'): number | undefined {
  if (value === undefined) return undefined;
  const day = validDate(value);
  if (day !== undefined) return edge === 'start' ? day : day + DAY - 1;
  const ms = INSTANT.test(value) && validDate(value.slice(0, 10)) !== undefined ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalidValue(`${name} must be an ISO 8601 date (YYYY-MM-DD) or instant`);
  return ms;
}

/** A date, or an instant whose UTC calendar date is taken (as followUpDate is written). */
function calendarDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (validDate(value) !== undefined) return value;
  const ms = INSTANT.test(value) && validDate(value.slice(0, 10)) !== undefined ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalidValue(`${name} must be a date (YYYY-MM-DD)`);
  return new Date(ms).toISOString().slice(0, 10);
}

function amount(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = /^-?\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw invalidValue(`${name} must be a number`);
  return n;
}

/** The sync cursor (src/storage/sync-pages.ts), bound to the business. */
const syncScope = (urlKey: string) => `leads:${urlKey}`;

export function encodeCursor(cursor: SyncCursor, urlKey: string): string {
  return encodeSyncCursor(cursor, syncScope(urlKey));
}

function decodeCursor(text: string, urlKey: string): SyncCursor {
  const cursor = decodeSyncCursor(text, syncScope(urlKey));
  if (cursor === 'malformed') throw invalidValue('after is not a cursor this service issued');
  if (cursor === 'foreign') throw invalidValue('after is a cursor of another business');
  return cursor;
}
