import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`; anything else (other schemes, two tokens, blanks) is no token. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(header.trim());
  return match?.[1];
}
