import { AppError } from '../errors/app-error.js';
import type { ClientListRequest, ClientSummary } from '../storage/client-lists.store.js';
import type { Store } from '../storage/store.js';

/** The operator's list of clients (GET /admin/v1/businesses/:urlKey/clients): paging as the leads list. */
export const CLIENT_LIST_LIMITS = { defaultLimit: 20, maxLimit: 50, maxSkip: 100_000, maxQ: 200 } as const;

const ACCEPTED = ['q', '$limit', '$skip'];

function whole(
  raw: unknown,
  name: string,
  min: number,
  max: number,
  fallback: number,
  code: 'INVALID_PAGINATION_LIMIT' | 'INVALID_PAGINATION_SKIP',
): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,7}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new AppError(code, `${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** Query → a list request, or the first problem as a 400 naming the parameter as sent. */
export function readClientListQuery(query: Record<string, unknown>): ClientListRequest {
  for (const key of Object.keys(query)) {
    if (!ACCEPTED.includes(key)) throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
  }
  const q = query.q;
  if (q !== undefined && (typeof q !== 'string' || q.length > CLIENT_LIST_LIMITS.maxQ)) {
    throw new AppError('INVALID_QUERY_VALUE', `q must be one text of at most ${CLIENT_LIST_LIMITS.maxQ} characters`);
  }
  const contains = typeof q === 'string' && q.trim() !== '' ? q.trim().toLowerCase() : null;
  return {
    contains,
    limit: whole(
      query.$limit,
      '$limit',
      1,
      CLIENT_LIST_LIMITS.maxLimit,
      CLIENT_LIST_LIMITS.defaultLimit,
      'INVALID_PAGINATION_LIMIT',
    ),
    skip: whole(query.$skip, '$skip', 0, CLIENT_LIST_LIMITS.maxSkip, 0, 'INVALID_PAGINATION_SKIP'),
  };
}

/** Every field listed: what a list row needs to recognise a client, its status, never an internal id. */
export function presentClientSummary(c: ClientSummary): Record<string, unknown> {
  const v = c.data as Record<string, unknown>;
  return {
    clientId: c.clientId,
    name: v.name ?? null,
    email: v.email ?? null,
    phone: v.phone ?? null,
    city: v.city ?? null,
    country: v.country ?? null,
    status: c.status,
    source: c.source,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

export async function listClients(store: Store, urlKey: string, request: ClientListRequest) {
  const { items, total } = await store.clientLists.list(urlKey, request);
  return [{ items: items.map(presentClientSummary), total, limit: request.limit, skip: request.skip }];
}
