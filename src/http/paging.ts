import { AppError } from '../errors/app-error.js';

/** Paged lists' query parameters (audit log, webhook delivery log): whole numbers from 1 to `max`. */
export const PAGING = { page: { fallback: 1, max: 1_000_000 }, pageSize: { fallback: 50, max: 200 } } as const;

export function readPaging(query: Record<string, string>): { page: number; pageSize: number } {
  for (const key of Object.keys(query)) {
    if (!Object.hasOwn(PAGING, key))
      throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
  }
  const number = (key: keyof typeof PAGING) => {
    const { fallback, max } = PAGING[key];
    const raw = query[key];
    if (raw === undefined) return fallback;
    if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      throw new AppError('INVALID_QUERY_VALUE', `${key} must be a whole number from 1 to ${max}`);
    }
    return Number(raw);
  };
  return { page: number('page'), pageSize: number('pageSize') };
}
