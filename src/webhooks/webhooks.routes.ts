import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { Deps } from '../deps.js';
import type { LegacyFeature as Feature } from '../feature.js';
import { readPaging } from '../http/paging.js';
import { noBody, ok } from '../http/replies.js';
import { DeliveryWorker } from './delivery-worker.js';
import { EVENT_TYPES } from './event-types.js';
import { WebhooksService } from './webhooks.service.js';

export const WEBHOOKS = '/admin/v1/businesses/:urlKey/webhooks';
export const ENDPOINT = `${WEBHOOKS}/:endpointId`;

type BusinessParams = { urlKey: string };
type EndpointParams = { urlKey: string; endpointId: string };


/** Webhooks: endpoints in the operator API, and this process's delivery worker. */
export function webhooksFeature(deps: Deps, services: Services): Feature {
  const now = () => deps.clock.now();
  const webhooks = new WebhooksService(deps.store, services.businesses, services.events, deps.config, now);
  const worker = new DeliveryWorker(deps.store, deps.config, now, (urlKey) => services.events.changed(urlKey), deps.logger || undefined);
  services.events.onSent(() => worker.wake());
  const audit = (request: FastifyRequest<{ Params: EndpointParams }>, action: string, detail: Record<string, unknown> = {}) =>
    services.audit.record(request, action, request.params.urlKey, { endpointId: request.params.endpointId, ...detail });

  return {
    operator(app: FastifyInstance) {
      app.get('/admin/v1/webhook-event-types', async () => ok(EVENT_TYPES.map((e) => ({ ...e }))));
      app.post<{ Params: BusinessParams }>(WEBHOOKS, async (request, reply) => {
        const created = await webhooks.create(request.params.urlKey, request.body);
        await services.audit.record(request, 'webhook.create', request.params.urlKey, { endpointId: created.id, url: created.url });
        return reply.header('cache-control', 'no-store').code(201).send(ok(created));
      });
      app.get<{ Params: BusinessParams }>(WEBHOOKS, async (request) => ok(await webhooks.list(request.params.urlKey)));
      app.get<{ Params: EndpointParams }>(ENDPOINT, async (request) => ok(await webhooks.get(request.params.urlKey, request.params.endpointId)));
      app.patch<{ Params: EndpointParams }>(ENDPOINT, async (request) => {
        const updated = await webhooks.update(request.params.urlKey, request.params.endpointId, request.body);
        await audit(request, 'webhook.update', { fields: Object.keys(request.body as object) });
        return ok(updated);
      });
      app.delete<{ Params: EndpointParams }>(ENDPOINT, async (request) => {
        noBody(request);
        const removed = await webhooks.remove(request.params.urlKey, request.params.endpointId);
        await audit(request, 'webhook.delete');
        return ok(removed);
      });
      app.post<{ Params: EndpointParams }>(`${ENDPOINT}/rotate-secret`, async (request, reply) => {
        noBody(request);
        const rotated = await webhooks.rotate(request.params.urlKey, request.params.endpointId);
        await audit(request, 'webhook.rotate-secret');
        return reply.header('cache-control', 'no-store').send(ok(rotated));
      });
      app.post<{ Params: EndpointParams }>(`${ENDPOINT}/test`, async (request, reply) => {
        noBody(request);
        const queued = await webhooks.sendTest(request.params.urlKey, request.params.endpointId);
        await audit(request, 'webhook.test', { eventId: queued.eventId });
        return reply.code(202).send(ok(queued));
      });
      app.get<{ Params: EndpointParams }>(`${ENDPOINT}/deliveries`, async (request) => {
        const { page, pageSize } = readPaging(request.query as Record<string, string>);
        return ok(await webhooks.deliveries(request.params.urlKey, request.params.endpointId, page, pageSize));
      });
      app.post<{ Params: EndpointParams & { eventId: string } }>(`${ENDPOINT}/events/:eventId/resend`, async (request, reply) => {
        noBody(request);
        const queued = await webhooks.resend(request.params.urlKey, request.params.endpointId, request.params.eventId);
        await audit(request, 'webhook.resend', { eventId: queued.eventId });
        return reply.code(202).send(ok(queued));
      });
    },

    open(app: FastifyInstance) {
      if (!deps.config.webhooksDeliver) return;
      app.addHook('onReady', async () => worker.start());
      app.addHook('onClose', async () => worker.stop());
    },
  };
}
