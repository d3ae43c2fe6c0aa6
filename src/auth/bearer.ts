import type { FastifyRequest } from 'fastify';

/**
 * The token of `Authorization: Bearer <token>`; anything else (other schemes, two tokens, blanks) is no
 * token. Node keeps the first of two Authorization headers and drops the other; two credentials are
 * ambiguous (a proxy may read the other one), so then neither counts.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || authorizationHeaders(request.raw.rawHeaders) > 1) return undefined;
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(header.trim());
  return match?.[1];
}

function authorizationHeaders(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.length === 13 && rawHeaders[i]!.toLowerCase() === 'authorization') count++;
  return count;
}
