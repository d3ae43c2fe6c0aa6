import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError, NotAuthenticatedError } from '../errors/app-error.js';
import type { AppRecord } from '../storage/records.js';
import { bearerToken } from './bearer.js';
import type { LastUsedRecorder } from './last-used.js';
import type { OperatorRegistry } from './operator-registry.js';
import type { OperatorSession, TokenService, VerifiedAppToken } from './token.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    callerApp?: AppRecord;
    operator?: OperatorSession;
  }
}

/** Attached, and the business not archived (an archived business refuses apps like a detached one). */
export function appMayUse(app: AppRecord, urlKey: string): boolean {
  return app.attachedUrlKeys.includes(urlKey) && !app.archivedUrlKeys.includes(urlKey);
}

/**
 * Business endpoints: a valid app token (either kind) whose app is attached to `:urlKey`.
 * An unknown business answers 403 like an unattached one, so business keys cannot be probed.
 */
export function appGuard(tokens: TokenService, lastUsed: LastUsedRecorder) {
  const admit = (request: FastifyRequest, verified: VerifiedAppToken | undefined): Error | undefined => {
    if (!verified) return new NotAuthenticatedError();
    const { urlKey } = request.params as { urlKey?: string };
    if (!urlKey || !appMayUse(verified.app, urlKey)) {
      return new AppError('PERMISSION_DENIED', 'This app is not allowed to access this business');
    }
    request.callerApp = verified.app;
    return undefined;
  };
  const finish = (
    request: FastifyRequest,
    verified: VerifiedAppToken | undefined,
    done: HookHandlerDoneFunction,
  ): void => {
    const refused = admit(request, verified);
    // Once a minute per app and process: every other request goes on in the same turn.
    const write = refused ? undefined : lastUsed.note(verified!.app.appId);
    if (write) write.then(() => done(), done);
    else done(refused);
  };
  // Callback style: a token seen before is checked without a promise, and the request goes on in the same turn.
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = bearerToken(request);
    const verified = token ? tokens.verifyAppToken(token) : undefined;
    if (verified instanceof Promise) verified.then((found) => finish(request, found, done), done);
    else finish(request, verified, done);
  };
}

/**
 * Operator endpoints: a user session token, and nothing else; its operator must still exist and its
 * session version be current (a password change ends the operator's older sessions).
 */
export function operatorGuard(tokens: TokenService, operators: OperatorRegistry) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    const session = token ? await tokens.verifyOperatorSession(token) : undefined;
    const operator = session && (await operators.get(session.operatorId));
    if (!session || !operator || operator.sessionVersion !== session.sessionVersion) throw new NotAuthenticatedError();
    request.operator = session;
  };
}
