import type { LeadListQuery, LeadPage, LeadSyncQuery } from './api-types.js';

// GET /leads's parameters are generated from the server's table of them (src/leads/leads-list.parameters.ts).
export type { LeadListQuery, LeadSortField, LeadStatus, LeadSyncQuery } from './api-types.js';

/** One page of a sync, and where to resume after it (null only on an empty page: nothing follows yet). */
export type LeadSyncPage = LeadPage & { nextCursor: string | null };

export function leadQueryString(query: LeadListQuery | LeadSyncQuery): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) =>
    parts.push(
      `${encodeURIComponent(key)}=${encodeURIComponent(value instanceof Date ? value.toISOString() : String(value))}`,
    );
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (key === '$sort')
      for (const [field, direction] of Object.entries(value as object)) add(`$sort[${field}]`, direction);
    else if (Array.isArray(value)) for (const item of value) add(`${key}[$in][]`, item);
    else add(key, value);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/**
 * Every page of a sync that brings leads, following nextCursor until an empty page (not yielded): keep the
 * nextCursor of the last page you handled and pass it as `after` to resume, now or later.
 */
export async function* syncPages(
  read: (query: LeadSyncQuery) => Promise<LeadSyncPage>,
  query: LeadSyncQuery,
): AsyncGenerator<LeadSyncPage> {
  let next: LeadSyncQuery =
    query.after === undefined && query.updatedAtFrom === undefined ? { ...query, updatedAtFrom: new Date(0) } : query;
  for (;;) {
    const page = await read(next);
    if (!page.nextCursor) return;
    yield page;
    const { updatedAtFrom: _from, ...rest } = next;
    next = { ...rest, after: page.nextCursor };
  }
}
