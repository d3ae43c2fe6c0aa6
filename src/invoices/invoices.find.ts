import { AppError } from '../errors/app-error.js';
import type { InvoiceListQuery, InvoiceSortField } from '../storage/invoices.records.js';
import { decodeSyncCursor, encodeSyncCursor, type SyncCursor } from '../storage/sync-pages.js';
import { parseInvoiceDate, startOfDay } from './invoice.dates.js';
import { isCalendarDate } from '../clients/client.custom-fields.js';
import { INVOICE_STATUSES } from './invoices.openapi.js';

/**
 * GET /invoices's query string (invoices-interface 4.3) → a typed query, or the exact error. Fastify's
 * parser keeps brackets literal (`$sort[createdAt]` is one key) and gives a repeated key as an array.
 */

export const FIND_LIMITS = { defaultLimit: 10, maxLimit: 100 } as const;
export const SORT_FIELDS: readonly InvoiceSortField[] = ['createdAt', 'invoiceNumber', 'invoiceDate'];
const FILTERS = ['client', 'status', 'invoiceNumber', '$limit', '$skip', 'updatedAtFrom', 'after'] as const;
const DATE_BOUNDS = ['invoiceDate[$gte]', 'invoiceDate[$lte]'] as const;

const invalidValue = (message: string) => new AppError('INVALID_QUERY_VALUE', message);
const DAY_MS = 86_400_000;

function one(key: string, value: unknown): string {
  if (typeof value !== 'string') throw invalidValue(`${key} takes one value`);
  return value;
}

function wholeNumber(
  raw: string | undefined,
  fallback: number,
  code: 'INVALID_PAGINATION_LIMIT' | 'INVALID_PAGINATION_SKIP',
  name: string,
): number {
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,15}$/.test(raw)) throw new AppError(code, `${name} must be a whole number of at least 0`);
  return Number(raw);
}

function statusOf(value: string): string {
  const status = value === 'CANCELLED' ? 'CANCELED' : value;
  if (!(INVOICE_STATUSES as readonly string[]).includes(status))
    throw invalidValue(`status ${JSON.stringify(value)} is not one of ${INVOICE_STATUSES.join(', ')}`);
  return status;
}

/** A bound: a date is the start (lower) or end (upper) of that day in the business's zone. */
function bound(key: string, raw: string, timeZone: string, upper: boolean): number {
  const at = parseInvoiceDate(raw, timeZone);
  if (at === undefined) throw invalidValue(`${key} must be a date (YYYY-MM-DD) or an ISO 8601 instant`);
  return upper && isCalendarDate(raw)
    ? startOfDay(new Date(Date.parse(`${raw}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10), timeZone) - 1
    : at;
}

export function parseFindQuery(raw: Record<string, unknown>, timeZone: string, urlKey: string): InvoiceListQuery {
  const single = new Map<string, string>();
  const sort: InvoiceListQuery['sort'] = [];
  for (const [key, value] of Object.entries(raw)) {
    const sortField = /^\$sort\[([^[\]]*)\]$/.exec(key)?.[1];
    if (sortField !== undefined) {
      if (!(SORT_FIELDS as readonly string[]).includes(sortField))
        throw new AppError('INVALID_QUERY_FIELD', `${key}: invoices sort by ${SORT_FIELDS.join(', ')}`);
      const direction = one(key, value);
      if (direction !== '1' && direction !== '-1') throw invalidValue(`${key} must be 1 or -1`);
      sort.push({ field: sortField as InvoiceSortField, direction: direction === '1' ? 1 : -1 });
    } else if ((FILTERS as readonly string[]).includes(key) || (DATE_BOUNDS as readonly string[]).includes(key)) {
      single.set(key, one(key, value));
    } else if (/^(client|status|invoiceNumber|invoiceDate)\[/.test(key)) {
      throw invalidValue(`${key}: this operator is not accepted`);
    } else throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
  }
  const limit = Math.min(
    wholeNumber(single.get('$limit'), FIND_LIMITS.defaultLimit, 'INVALID_PAGINATION_LIMIT', '$limit'),
    FIND_LIMITS.maxLimit,
  );
  const skip = wholeNumber(single.get('$skip'), 0, 'INVALID_PAGINATION_SKIP', '$skip');
  const list = (key: string) =>
    single
      .get(key)
      ?.split(',')
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
  const from = single.has(DATE_BOUNDS[0])
    ? bound(DATE_BOUNDS[0], single.get(DATE_BOUNDS[0])!, timeZone, false)
    : undefined;
  const to = single.has(DATE_BOUNDS[1])
    ? bound(DATE_BOUNDS[1], single.get(DATE_BOUNDS[1])!, timeZone, true)
    : undefined;
  if (from !== undefined && to !== undefined && from > to)
    throw invalidValue('invoiceDate[$gte] is after invoiceDate[$lte]');
  const query: InvoiceListQuery = {
    filter: {
      clientIds: list('client'),
      statuses: list('status')?.map(statusOf),
      invoiceNumber: single.get('invoiceNumber'),
      dateFrom: from,
      dateTo: to,
    },
    sort,
    limit,
    skip,
  };
  if (single.has('updatedAtFrom') || single.has('after'))
    query.sync = { cursor: syncCursorOf(single, sort.length > 0, timeZone, urlKey) };
  return query;
}

/** Sync (leads-interface 4.4): `updatedAtFrom` starts, `after` continues; $skip and $sort are refused. */
function syncCursorOf(single: Map<string, string>, sorted: boolean, timeZone: string, urlKey: string): SyncCursor {
  if (single.has('$skip'))
    throw new AppError(
      'INVALID_QUERY_FIELD',
      '$skip is not accepted in sync mode (updatedAtFrom or after): continue with after',
    );
  if (sorted)
    throw new AppError(
      'INVALID_QUERY_FIELD',
      '$sort is not accepted in sync mode (updatedAtFrom or after): pages come in change order',
    );
  const after = single.get('after');
  if (after !== undefined) {
    const cursor = decodeSyncCursor(after, syncScope(urlKey));
    if (cursor === 'malformed') throw invalidValue('after is not a cursor this service issued');
    if (cursor === 'foreign') throw invalidValue('after is a cursor of another business');
    return cursor;
  }
  const from = parseInvoiceDate(single.get('updatedAtFrom')!, timeZone);
  if (from === undefined) throw invalidValue('updatedAtFrom must be a date or an ISO 8601 instant');
  return { phase: 'catch-up', from, start: null, after: null };
}

/** A cursor is bound to its business's invoices. */
const syncScope = (urlKey: string) => `invoices:${urlKey}`;

export function encodeCursor(cursor: SyncCursor, urlKey: string): string {
  return encodeSyncCursor(cursor, syncScope(urlKey));
}
