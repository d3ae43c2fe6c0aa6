import type { FastifyRequest } from 'fastify';
import { AppError, NotAuthenticatedError } from '../errors/app-error.js';
import type { AppRecord } from '../storage/records.js';
import { bearerToken } from './bearer.js';
import type { OperatorSession, TokenService } from './token.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    callerApp?: AppRecord;
    operator?: OperatorSession;
  }
}

/**
 * Business endpoints: a valid app token (either kind) whose app is attached to `:urlKey`.
 * An unknown business answers 403 like an unattached one, so business keys cannot be probed.
 */
export function appGuard(tokens: TokenService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    const verified = token ? await tokens.verifyAppToken(token) : undefined;
    if (!verified) throw new NotAuthenticatedError();
    const { urlKey } = request.params as { urlKey?: string };
    if (!urlKey || !verified.app.attachedUrlKeys.includes(urlKey)) {
      throw new AppError('PERMISSION_DENIED', 'This app is not allowed to access this business');
    }
    request.callerApp = verified.app;
  };
}

/** Operator endpoints: a user session token, and nothing else. */
export function operatorGuard(tokens: TokenService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    const session = token ? await tokens.verifyOperatorSession(token) : undefined;
    if (!session) throw new NotAuthenticatedError();
    request.operator = session;
  };
}
