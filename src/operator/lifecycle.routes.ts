import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { AppError } from '../errors/app-error.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import type { AppsService } from './apps.service.js';
import type { AuditService } from './audit.service.js';
import { entry } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';
import type { BusinessesService } from './businesses.service.js';
import { MIN_PASSWORD_LENGTH, type OperatorsService } from './operators.service.js';

type UrlKeyParams = { urlKey: string };
type AppParams = { appId: string };

/** POST /admin/v1/operators/me/password. */
export const PASSWORD_CHANGE_RULES = entry('PasswordChange', 'The current password and the new one.', [
  ['currentPassword', { type: 'string', required: true, minLength: 1, maxLength: 1024, message: 'must not be empty', description: 'The password this account signs in with now.' }],
  ['newPassword', {
    type: 'string', required: true, minLength: MIN_PASSWORD_LENGTH, maxLength: 1024,
    message: `must be ${MIN_PASSWORD_LENGTH} to 1024 characters`, description: `${MIN_PASSWORD_LENGTH} to 1024 characters, different from the current one.`,
  }],
]);

/** `includeArchived=true|false`, the only query parameter of the operator lists. */
export function readIncludeArchived(query: unknown): boolean {
  const params = (query ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(params)) {
    if (key !== 'includeArchived') throw new AppError('INVALID_QUERY_FIELD', `${key} is not an accepted query parameter`);
  }
  const value = params.includeArchived;
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false') throw new AppError('INVALID_QUERY_VALUE', 'includeArchived must be true or false');
  return value === 'true';
}

export interface LifecycleServices {
  businesses: BusinessesService;
  apps: AppsService;
  operators: OperatorsService;
  audit: AuditService;
  auth: AuthService;
}

/** Archive and restore of businesses and apps; operator accounts (list, own password). Every change is audited. */
export async function registerLifecycleRoutes(app: FastifyInstance, s: LifecycleServices): Promise<void> {
  for (const [verb, archived] of [['archive', true], ['restore', false]] as const) {
    app.post<{ Params: UrlKeyParams }>(`/admin/v1/businesses/:urlKey/${verb}`, async (request) => {
      noBody(request);
      const business = await s.businesses.setArchived(request.params.urlKey, archived);
      await s.audit.record(request, `business.${verb}`, business.urlKey);
      return ok(business);
    });
    app.post<{ Params: AppParams }>(`/admin/v1/apps/:appId/${verb}`, async (request) => {
      noBody(request);
      const listed = await s.apps.setArchived(request.params.appId, archived);
      await s.audit.record(request, `app.${verb}`, null, { appId: listed.appId });
      return ok(listed);
    });
  }

  app.get('/admin/v1/operators', async (request) => {
    rejectQuery(request);
    return ok(await s.operators.list(request.operator!.operatorId));
  });
  app.post('/admin/v1/operators/me/password', async (request, reply) => {
    const { currentPassword, newPassword } = readBody<{ currentPassword: string; newPassword: string }>(request.body, PASSWORD_CHANGE_RULES);
    const session = await s.auth.changeOperatorPassword(request.operator!.operatorId, currentPassword, newPassword, request.ip);
    await s.audit.record(request, 'operator.change-password', null, { email: session.user.email });
    return reply.header('cache-control', 'no-store').send(ok(session));
  });
}
