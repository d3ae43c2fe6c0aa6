import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { ok } from '../http/replies.js';
import type { Services } from '../services.js';
import { LeadsListService } from './leads-list.service.js';

type BusinessParams = { urlKey: string };

export const LEADS_LIST = '/api/v1/businesses/:urlKey/leads';
export const ADMIN_LEADS_LIST = '/admin/v1/businesses/:urlKey/leads';

/** GET /leads (leads-interface 4.4) for apps, and the same list for operators (section 7). */
export function leadsListFeature(deps: Deps, services: Services): Feature {
  // The one lead context of the app, shared with lead writes.
  const leads = new LeadsListService(deps.store, services.leadContexts);
  return {
    business(app: FastifyInstance) {
      app.get<{ Params: BusinessParams }>(LEADS_LIST, async (request) => ok([await leads.list(request.params.urlKey, request.query)]));
    },
    operator(app: FastifyInstance) {
      app.get<{ Params: BusinessParams }>(ADMIN_LEADS_LIST, async (request) => ok([await leads.list(request.params.urlKey, request.query)]));
    },
  };
}
