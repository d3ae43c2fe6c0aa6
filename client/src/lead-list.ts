import type { LeadPage } from './api-types.js';

/** A status a stage carries. */
export type LeadStatus = 'NEW' | 'OPEN' | 'CLOSED' | 'DROPPED' | 'REJECTED';
export type LeadSortField = 'createdAt' | 'updatedAt' | 'followUpDate' | 'budget.amount';

/**
 * GET /leads's parameters (docs/decisions.md "Lead lists"). A list of names is sent as `F[$in][]=...` repeated,
 * so a name holding a comma stays whole. Instants may be given as Date.
 */
export interface LeadListQuery {
  $limit?: number;
  $skip?: number;
  /** Applied in key order; leads without the value come last either way. */
  $sort?: Partial<Record<LeadSortField, 1 | -1>>;
  pipeline?: string | string[];
  /** Needs `pipeline`; `UNSTAGED` for leads whose stage is no longer in it. */
  stage?: string | string[];
  tags?: string | string[];
  leadSource?: string | string[];
  /** Member e-mails, or `UNASSIGNED`. */
  assignedTo?: string | string[];
  status?: LeadStatus | LeadStatus[];
  externalId?: string;
  clientId?: string;
  contactId?: string;
  contactName?: string;
  contactEmail?: string;
  contactPhone?: string;
  createdAtFrom?: string | Date;
  createdAtTo?: string | Date;
  followUpDateFrom?: string;
  followUpDateTo?: string;
  followUpDate?: 'none';
  budgetMin?: number;
  budgetMax?: number;
  /** Free text: every word a whole word or a word's beginning, ignoring case and accents. */
  q?: string;
  subject?: string;
  details?: string;
}

/** A sync: pages by updatedAt, from an instant or from where a previous sync stopped (a page's nextCursor). */
export type LeadSyncQuery = Omit<LeadListQuery, '$skip' | '$sort'> & { updatedAtFrom?: string | Date; after?: string };

/** One page of a sync, and where to resume (null once the last page is read). */
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

/** Every page of a sync, following nextCursor until the last; stop early and keep the cursor to resume. */
export async function* syncPages(
  read: (query: LeadSyncQuery) => Promise<LeadSyncPage>,
  query: LeadSyncQuery,
): AsyncGenerator<LeadSyncPage> {
  let next: LeadSyncQuery =
    query.after === undefined && query.updatedAtFrom === undefined ? { ...query, updatedAtFrom: new Date(0) } : query;
  for (;;) {
    const page = await read(next);
    yield page;
    if (!page.nextCursor) return;
    const { updatedAtFrom: _from, ...rest } = next;
    next = { ...rest, after: page.nextCursor };
  }
}
