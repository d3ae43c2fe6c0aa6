import type { FastifyRequest } from 'fastify';
import { AppError, BareMethodNotAllowedError } from '../errors/app-error.js';
import { EMPTY_BODY, readBody } from '../validation/read-body.js';

/** The success envelope of every answer (docs/decisions.md "Foundation"). */
export const ok = <T>(data: T) => ({ success: true as const, data });

/** For operations that take no query parameters: the first one sent is named in the error. */
export function rejectQuery(request: FastifyRequest): void {
  const keys = Object.keys(request.query as object);
  if (keys.length > 0) throw new AppError('INVALID_QUERY_FIELD', `${keys[0]} is not an accepted query parameter`);
}

/** Bodyless actions accept no body, an empty body or `{}`. */
export function noBody(request: FastifyRequest): void {
  readBody(request.body, EMPTY_BODY, { allowEmpty: true });
}

/** The handler of an unsupported operation that answers 405 with the status alone, before any auth (clients and leads 4.6). */
export async function refuseBare(): Promise<never> {
  throw new BareMethodNotAllowedError();
}
