import { AppError } from '../errors/app-error.js';
import type { SavedFilterRow } from '../storage/lead-saved-filters.store.js';
import type { Store } from '../storage/store.js';
import { readBody } from '../validation/read-body.js';
import { entry } from '../validation/field-spec.js';
import { parseLeadListQuery } from './leads.query.js';

/** Saved filters an operator may keep per business: a page of them fits the dashboard's menu. */
export const MAX_SAVED_FILTERS = 100;
/** The list's parameters a saved filter may not hold: they are a position in a walk, not a filter. */
export const NOT_SAVED = ['$skip', 'after', 'updatedAtFrom'] as const;
const MAX_QUERY = 4000;
export const MAX_FILTER_NAME = 100;

export const SAVED_FILTER_RULES = entry('LeadSavedFilterInput', 'A named lead list filter of the operator.', [
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      minLength: 1,
      maxLength: MAX_FILTER_NAME,
      message: `must be 1 to ${MAX_FILTER_NAME} characters`,
      description: 'What the operator calls it; unique per operator and business (a taken name is replaced).',
    },
  ],
  [
    'query',
    {
      type: 'string',
      required: true,
      maxLength: MAX_QUERY,
      message: `must be at most ${MAX_QUERY} characters`,
      description: `The lead list's query string (as GET …/leads takes it, without "?"), minus ${NOT_SAVED.join(', ')}; may be empty.`,
    },
  ],
]);

export interface SavedFilter {
  id: string;
  name: string;
  query: string;
  updatedAt: string;
}

const present = (row: SavedFilterRow): SavedFilter => ({
  id: row.id,
  name: row.name,
  query: row.query,
  updatedAt: new Date(row.updatedAt).toISOString(),
});

/** A query string as Fastify's parser gives it to the list: a repeated key becomes an array. */
export function queryObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** Saved lead filters (docs/decisions.md "Saved lead filters"): each operator's own, per business. */
export class LeadSavedFiltersService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async list(urlKey: string, operatorId: string): Promise<SavedFilter[]> {
    const rows = await this.store.leadSavedFilters.list(urlKey, operatorId);
    if (!rows) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return rows.map(present);
  }

  async save(urlKey: string, operatorId: string, body: unknown): Promise<SavedFilter> {
    const input = readBody<{ name: string; query: string }>(body, SAVED_FILTER_RULES);
    const query = input.query.replace(/^\?/, '');
    const params = queryObject(query);
    const position = Object.keys(params).find((key) => (NOT_SAVED as readonly string[]).includes(key));
    if (position) throw fieldError(`query: ${position} is a position in the list, not a filter; leave it out`);
    try {
      // The list's own parser: a saved filter is a query the list accepts (names resolve when it runs).
      parseLeadListQuery(params, urlKey);
    } catch (error) {
      if (error instanceof AppError) throw fieldError(`query: ${error.message}`);
      throw error;
    }
    const existing = await this.list(urlKey, operatorId);
    if (existing.length >= MAX_SAVED_FILTERS && !existing.some((f) => f.name === input.name))
      throw new AppError('INVALID_FIELD_VALUE', `You keep ${MAX_SAVED_FILTERS} saved filters: delete one first`, [
        { field: 'name', code: 'INVALID_FIELD_VALUE', message: `at most ${MAX_SAVED_FILTERS} saved filters` },
      ]);
    const row = await this.store.leadSavedFilters.save(urlKey, operatorId, { name: input.name, query }, this.now());
    if (!row) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return present(row);
  }

  async remove(urlKey: string, operatorId: string, id: string): Promise<{ id: string; removed: true }> {
    if (!(await this.store.leadSavedFilters.remove(urlKey, operatorId, id))) {
      await this.list(urlKey, operatorId); // an unknown business first
      throw new AppError('SAVED_FILTER_NOT_FOUND', 'No saved filter of yours with this id');
    }
    return { id, removed: true };
  }
}

const fieldError = (message: string) =>
  new AppError('INVALID_FIELD_VALUE', message, [{ field: 'query', code: 'INVALID_FIELD_VALUE', message }]);
