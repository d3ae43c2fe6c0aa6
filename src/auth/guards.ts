import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError, NotAuthenticatedError } from '../errors/app-error.js';
import type { AppRecord } from '../storage/records.js';
import { bearerToken } from './bearer.js';
import type { OperatorSession, TokenService, VerifiedAppToken } from './token.service.js';

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
  const admit = (request: FastifyRequest, verified: VerifiedAppToken | undefined): Error | undefined => {
    if (!verified) return new NotAuthenticatedError();
    const { urlKey } = request.params as { urlKey?: string };
    if (!urlKey || !verified.app.attachedUrlKeys.includes(urlKey)) {
      return new AppError('PERMISSION_DENIED', 'This app is not allowed to access this business');
    }
    request.callerApp = verified.app;
    return undefined;
  };
  // Callback style: a token seen before is checked without a promise, and the request goes on in the same turn.
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = bearerToken(request);
    const verified = token ? tokens.verifyAppToken(token) : undefined;
    if (verified instanceof Promise) verified.then((found) => done(admit(request, found)), done);
    else done(admit(request, verified));
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
