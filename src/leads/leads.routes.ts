import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { AppError, BareMethodNotAllowedError } from '../errors/app-error.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import type { Services } from '../services.js';
import { LeadsService, type Author } from './leads.service.js';

type LeadParams = { urlKey: string; leadId: string };
type BusinessParams = { urlKey: string };

export const LEADS = '/api/v1/businesses/:urlKey/leads';
export const ADMIN_LEADS = '/admin/v1/businesses/:urlKey/leads';

const API: Author = { origin: 'API', author: 'API' };
const operatorOf = (request: FastifyRequest): Author => ({ origin: 'DASHBOARD', author: request.operator?.email ?? '' });

/** 4.5: `after` is the only query parameter, sent once. */
function activitiesCursor(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown>;
  const other = Object.keys(query).find((key) => key !== 'after');
  if (other !== undefined) throw new AppError('INVALID_QUERY_FIELD', `${other} is not an accepted query parameter`);
  if (query.after === undefined) return null;
  if (typeof query.after !== 'string' || query.after.length === 0) throw new AppError('INVALID_QUERY_VALUE', 'after must be one nextCursor value');
  return query.after;
}

/**
 * Leads: public create, edit, get and activity (leads-interface 4.1 to 4.3, 4.5), the operator's
 * create, edit, get, activity and remove, and the 405s of 4.6. The lists (GET /leads) are the
 * lead-lists feature's.
 */
export function leadsFeature(deps: Deps, services: Services): Feature {
  const leads = new LeadsService(deps.store, services.leadContexts, () => deps.clock.now(), services.events);

  return {
    business(app: FastifyInstance) {
      app.post<{ Params: BusinessParams }>(LEADS, async (request, reply) => {
        rejectQuery(request);
        const { lead, idempotent } = await leads.create(request.params.urlKey, request.body, API);
        reply.code(201);
        return ok(idempotent ? { ...lead, idempotent: true } : lead);
      });
      app.get<{ Params: LeadParams }>(`${LEADS}/:leadId`, async (request) => {
        rejectQuery(request);
        return ok(await leads.get(request.params.urlKey, request.params.leadId));
      });
      app.patch<{ Params: LeadParams }>(`${LEADS}/:leadId`, async (request) => {
        rejectQuery(request);
        return ok(await leads.edit(request.params.urlKey, request.params.leadId, request.body, API));
      });
      app.get<{ Params: LeadParams }>(`${LEADS}/:leadId/activities`, async (request) =>
        ok([await leads.activities(request.params.urlKey, request.params.leadId, activitiesCursor(request))]));
    },

    operator(app: FastifyInstance) {
      app.post<{ Params: BusinessParams }>(ADMIN_LEADS, async (request, reply) => {
        rejectQuery(request);
        const { lead } = await leads.create(request.params.urlKey, request.body, operatorOf(request));
        await services.audit.record(request, 'lead.create', request.params.urlKey, { leadId: lead.leadId });
        reply.code(201);
        return ok(lead);
      });
      app.get<{ Params: LeadParams }>(`${ADMIN_LEADS}/:leadId`, async (request) => {
        rejectQuery(request);
        return ok(await leads.get(request.params.urlKey, request.params.leadId));
      });
      app.patch<{ Params: LeadParams }>(`${ADMIN_LEADS}/:leadId`, async (request) => {
        rejectQuery(request);
        const lead = await leads.edit(request.params.urlKey, request.params.leadId, request.body, operatorOf(request));
        await services.audit.record(request, 'lead.edit', request.params.urlKey, { leadId: request.params.leadId });
        return ok(lead);
      });
      app.get<{ Params: LeadParams }>(`${ADMIN_LEADS}/:leadId/activities`, async (request) =>
        ok([await leads.activities(request.params.urlKey, request.params.leadId, activitiesCursor(request))]));
      app.delete<{ Params: LeadParams }>(`${ADMIN_LEADS}/:leadId`, async (request) => {
        noBody(request);
        const result = await leads.remove(request.params.urlKey, request.params.leadId);
        await services.audit.record(request, 'lead.remove', request.params.urlKey, { leadId: request.params.leadId });
        return ok(result);
      });
    },

    open(app: FastifyInstance) {
      // 4.6: the status alone, before any authentication, as on clients.
      const refuse = async () => {
        throw new BareMethodNotAllowedError();
      };
      for (const [url, methods] of LEAD_REFUSALS) for (const method of methods) app.route({ method, url, handler: refuse });
    },
  };
}

/** 4.6: the unsupported operations, by path. */
export const LEAD_REFUSALS: [string, ('PUT' | 'PATCH' | 'DELETE' | 'POST')[]][] = [
  [LEADS, ['PUT', 'PATCH', 'DELETE']],
  [`${LEADS}/:leadId`, ['PUT', 'DELETE', 'POST']],
  [`${LEADS}/:leadId/activities`, ['POST', 'PUT', 'PATCH', 'DELETE']],
];
