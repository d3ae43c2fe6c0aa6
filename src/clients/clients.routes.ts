import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { Deps } from '../deps.js';
import { AppError, BareMethodNotAllowedError } from '../errors/app-error.js';
import type { Feature } from '../feature.js';
import { readBody } from '../validation/read-body.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import { CustomFieldsService } from '../custom-fields/custom-fields.service.js';
import { businessContextCache } from './business-context.js';
import { DOCUMENT_RULES } from './client.documents.js';
import { ClientsService } from './clients.service.js';

type ClientParams = { urlKey: string; clientId: string };
type BusinessParams = { urlKey: string };

export const CLIENTS = '/api/v1/businesses/:urlKey/clients';
export const ADMIN_CLIENTS = '/admin/v1/businesses/:urlKey/clients';


/** Clients: public create/get, the dashboard's actions, and custom field definitions. */
export function clientsFeature(deps: Deps, services: Services): Feature {
  const now = () => deps.clock.now();
  const contexts = businessContextCache(deps.store, deps.config);
  services.caches.businessContext = () => contexts;
  const clients = new ClientsService(deps.store, contexts, deps.config, now);
  const customFields = new CustomFieldsService(deps.store, now);

  return {
    business(app: FastifyInstance) {
      app.post<{ Params: BusinessParams }>(CLIENTS, async (request, reply) => {
        rejectQuery(request);
        const { client, idempotent } = await clients.create(request.params.urlKey, request.body);
        // The payload is returned, not sent: a returned reply is a thenable that Fastify waits on with a stream-end listener.
        reply.code(201);
        return ok(idempotent ? { ...client, idempotent: true } : client);
      });
      app.get<{ Params: ClientParams }>(`${CLIENTS}/:clientId`, async (request) => {
        rejectQuery(request);
        return ok(await clients.get(request.params.urlKey, request.params.clientId));
      });
    },

    operator(app: FastifyInstance) {
      app.get<{ Params: BusinessParams }>('/admin/v1/businesses/:urlKey/custom-fields', async (request) => {
        await services.businesses.require(request.params.urlKey);
        return ok(await customFields.list(request.params.urlKey));
      });
      app.put<{ Params: BusinessParams }>('/admin/v1/businesses/:urlKey/custom-fields', async (request) => {
        await services.businesses.require(request.params.urlKey);
        const fields = await customFields.replace(request.params.urlKey, request.body);
        await services.audit.record(request, 'custom-fields.replace', request.params.urlKey, { count: fields.length });
        return ok(fields);
      });
      app.post<{ Params: BusinessParams }>(ADMIN_CLIENTS, async (request, reply) => {
        const client = await clients.createFromDashboard(request.params.urlKey, request.body);
        await services.audit.record(request, 'client.create', request.params.urlKey, { source: client.source });
        reply.code(201);
        return ok(client);
      });
      app.get<{ Params: ClientParams }>(`${ADMIN_CLIENTS}/:clientId`, async (request) =>
        ok(await clients.getForOperator(request.params.urlKey, request.params.clientId)));
      app.post<{ Params: ClientParams }>(`${ADMIN_CLIENTS}/:clientId/archive`, async (request) => {
        noBody(request);
        const result = await clients.setStatus(request.params.urlKey, request.params.clientId, 'archived');
        await services.audit.record(request, 'client.archive', request.params.urlKey, { clientId: request.params.clientId });
        return ok(result);
      });
      app.post<{ Params: ClientParams }>(`${ADMIN_CLIENTS}/:clientId/restore`, async (request) => {
        noBody(request);
        const result = await clients.restore(request.params.urlKey, request.params.clientId);
        await services.audit.record(request, 'client.restore', request.params.urlKey, { clientId: request.params.clientId });
        return ok(result);
      });
      app.delete<{ Params: ClientParams }>(`${ADMIN_CLIENTS}/:clientId`, async (request) => {
        noBody(request);
        const result = await clients.setStatus(request.params.urlKey, request.params.clientId, 'deleted');
        await services.audit.record(request, 'client.delete', request.params.urlKey, { clientId: request.params.clientId });
        return ok(result);
      });
      app.post<{ Params: ClientParams }>(`${ADMIN_CLIENTS}/:clientId/documents`, async (request, reply) => {
        const { type, amount } = readBody<{ type: string; amount: number }>(request.body, DOCUMENT_RULES);
        const balance = await clients.addDocument(request.params.urlKey, request.params.clientId, type, amount);
        await services.audit.record(request, 'client.document', request.params.urlKey, { clientId: request.params.clientId, type, amount });
        reply.code(201);
        return ok({ type, amount, balance });
      });
    },

    open(app: FastifyInstance) {
      // 4.6: unsupported client operations answer 405 with the status alone, before any auth.
      const refuse = async () => {
        throw new BareMethodNotAllowedError();
      };
      app.get(CLIENTS, refuse);
      for (const method of ['PATCH', 'PUT', 'DELETE'] as const) app.route({ method, url: `${CLIENTS}/:clientId`, handler: refuse });
    },
  };
}
