import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { ok } from '../http/replies.js';
import type { Services } from '../services.js';
import { LeadSettingsService } from './lead-settings.service.js';

type BusinessParams = { urlKey: string };

export const ADMIN_BUSINESS = '/admin/v1/businesses/:urlKey';

/** The lead configuration operators edit (leads-interface 7): sources, tags, members, lead custom fields. */
export function leadSettingsFeature(deps: Deps, services: Services): Feature {
  const settings = new LeadSettingsService(deps.store, services.businesses, () => deps.clock.now());

  return {
    operator(app: FastifyInstance) {
      app.get<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/lead-sources`, async (request) =>
        ok({ sources: (await settings.get(request.params.urlKey)).sources }));
      app.put<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/lead-sources`, async (request) => {
        const sources = await settings.replaceSources(request.params.urlKey, request.body);
        await services.audit.record(request, 'lead-sources.replace', request.params.urlKey, { count: sources.length });
        return ok({ sources });
      });
      app.get<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/tags`, async (request) =>
        ok({ tags: (await settings.get(request.params.urlKey)).tags }));
      app.put<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/tags`, async (request) => {
        const tags = await settings.replaceTags(request.params.urlKey, request.body);
        await services.audit.record(request, 'tags.replace', request.params.urlKey, { count: tags.length });
        return ok({ tags });
      });
      app.get<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/members`, async (request) =>
        ok({ members: (await settings.get(request.params.urlKey)).members.map(presentMember) }));
      app.put<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/members`, async (request) => {
        const members = await settings.replaceMembers(request.params.urlKey, request.body);
        await services.audit.record(request, 'members.replace', request.params.urlKey, { count: members.length });
        return ok({ members: members.map(presentMember) });
      });
      app.get<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/lead-custom-fields`, async (request) =>
        ok((await settings.get(request.params.urlKey)).customFields));
      app.put<{ Params: BusinessParams }>(`${ADMIN_BUSINESS}/lead-custom-fields`, async (request) => {
        const fields = await settings.replaceCustomFields(request.params.urlKey, request.body);
        await services.audit.record(request, 'lead-custom-fields.replace', request.params.urlKey, { count: fields.length });
        return ok(fields);
      });
    },
  };
}

/** Members are known by e-mail; their internal id never leaves the server. */
function presentMember(member: { email: string; name: string; isArchived: boolean }) {
  return { email: member.email, name: member.name, isArchived: member.isArchived };
}
