import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { noBody, ok } from '../http/replies.js';
import { entry } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';
import { PAGING, readPaging } from '../http/paging.js';
import type { AppsService } from './apps.service.js';
import type { AuditService } from './audit.service.js';
import { readBusinessPatch, readNewBusiness, type BusinessesService } from './businesses.service.js';
import { readNewOperator, type OperatorsService } from './operators.service.js';
import { readIncludeArchived, registerLifecycleRoutes } from './lifecycle.routes.js';
import type { AuthService } from '../auth/auth.service.js';

export interface OperatorServices {
  businesses: BusinessesService;
  apps: AppsService;
  operators: OperatorsService;
  audit: AuditService;
  auth: AuthService;
}

export { PAGING };

type UrlKeyParams = { urlKey: string };
type AppParams = { appId: string };


/** POST /admin/v1/apps. */
export const NEW_APP_RULES = entry('AppInput', 'A new app.', [
  ['name', { type: 'string', required: true, trim: true, maxLength: 200, description: 'Display name of the app; 1 to 200 characters, trimmed.' }],
]);

/** Businesses, apps, operators and the audit log, under the operator guard. */
export async function registerOperatorRoutes(app: FastifyInstance, s: OperatorServices): Promise<void> {
  app.post('/admin/v1/businesses', async (request, reply) => {
    const business = await s.businesses.create(readNewBusiness(request.body));
    await s.audit.record(request, 'business.create', business.urlKey, { name: business.name });
    return reply.code(201).send(ok(business));
  });
  app.get('/admin/v1/businesses', async (request) => ok(await s.businesses.list(readIncludeArchived(request.query))));
  app.get<{ Params: UrlKeyParams }>('/admin/v1/businesses/:urlKey', async (request) => ok(await s.businesses.get(request.params.urlKey)));
  app.patch<{ Params: UrlKeyParams }>('/admin/v1/businesses/:urlKey', async (request) => {
    const business = await s.businesses.update(request.params.urlKey, readBusinessPatch(request.body));
    await s.audit.record(request, 'business.update', business.urlKey, { fields: Object.keys(request.body as object) });
    return ok(business);
  });

  app.post('/admin/v1/apps', async (request, reply) => {
    const { name } = readBody<{ name: string }>(request.body, NEW_APP_RULES);
    const created = await s.apps.create(name.trim());
    await s.audit.record(request, 'app.create', null, { appId: created.appId });
    return reply.header('cache-control', 'no-store').code(201).send(ok(created));
  });
  app.get('/admin/v1/apps', async (request) => ok(await s.apps.list(readIncludeArchived(request.query))));
  app.post<{ Params: AppParams }>('/admin/v1/apps/:appId/rotate-secret', async (request, reply) => {
    noBody(request);
    const rotated = await s.apps.rotateSecret(request.params.appId);
    await s.audit.record(request, 'app.rotate-secret', null, { appId: rotated.appId });
    return reply.header('cache-control', 'no-store').send(ok(rotated));
  });
  app.post<{ Params: AppParams }>('/admin/v1/apps/:appId/rotate-key', async (request, reply) => {
    noBody(request);
    const rotated = await s.apps.rotateKey(request.params.appId);
    await s.audit.record(request, 'app.rotate-key', null, { appId: rotated.appId });
    return reply.header('cache-control', 'no-store').send(ok(rotated));
  });
  app.put<{ Params: AppParams & UrlKeyParams }>('/admin/v1/apps/:appId/businesses/:urlKey', async (request) => {
    noBody(request);
    const result = await s.apps.attach(request.params.appId, request.params.urlKey);
    await s.audit.record(request, 'app.attach', request.params.urlKey, { appId: request.params.appId });
    return ok(result);
  });
  app.delete<{ Params: AppParams & UrlKeyParams }>('/admin/v1/apps/:appId/businesses/:urlKey', async (request) => {
    noBody(request);
    const result = await s.apps.detach(request.params.appId, request.params.urlKey);
    await s.audit.record(request, 'app.detach', request.params.urlKey, { appId: request.params.appId });
    return ok(result);
  });

  app.post('/admin/v1/operators', async (request, reply) => {
    const { email, password } = readNewOperator(request.body);
    const created = await s.operators.create(email, password);
    await s.audit.record(request, 'operator.create', null, { email: created.email });
    return reply.code(201).send(ok(created));
  });

  await registerLifecycleRoutes(app, s);

  app.get('/admin/v1/audit', async (request) => {
    const { page, pageSize } = readPaging(request.query as Record<string, string>);
    return ok(await s.audit.list(page, pageSize));
  });
}
