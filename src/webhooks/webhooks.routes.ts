import type { FastifyRequest } from 'fastify';
import { feature, type FeatureEnv } from '../feature.js';
import { PAGING, readPaging } from '../http/paging.js';
import { noBody, ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { Services } from '../services.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { DeliveryWorker } from './delivery-worker.js';
import { EVENT_TYPES } from './event-types.js';
import { eventTypeList, WEBHOOK_SCHEMAS } from './webhooks.openapi.js';
import { WebhooksService } from './webhooks.service.js';

export const WEBHOOKS = '/admin/v1/businesses/:urlKey/webhooks';
export const ENDPOINT = `${WEBHOOKS}/:endpointId`;
const urlKey = { urlKey: 'The business key.' };
const endpoint = { ...urlKey, endpointId: "The endpoint's id (`ep_…`)." };
const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };
const keptSecret = {
  'Cache-Control': { description: 'no-store: the answer carries a secret.', schema: { const: 'no-store' } },
};

interface WebhooksContext {
  webhooks: WebhooksService;
  worker: DeliveryWorker;
  services: Services;
  deliver: boolean;
}

function webhooksContext({ deps, services }: FeatureEnv): WebhooksContext {
  const now = () => deps.clock.now();
  const worker = new DeliveryWorker(
    deps.store,
    deps.config,
    now,
    (urlKey) => services.events.changed(urlKey),
    deps.logger || undefined,
  );
  services.events.onSent(() => worker.wake());
  return {
    webhooks: new WebhooksService(deps.store, services.businesses, services.events, deps.config, now),
    worker,
    services,
    deliver: deps.config.webhooksDeliver,
  };
}

const operation = operationsOf<WebhooksContext>();
/** The operator's audit line, handed to the service: the store writes it in the change's own transaction. */
const audit = (
  c: WebhooksContext,
  request: FastifyRequest<{ Params: { urlKey: string; endpointId: string } }>,
  action: string,
  detail: Record<string, unknown> = {},
) =>
  c.services.audit.entryOf(request, action, request.params.urlKey, {
    endpointId: request.params.endpointId,
    ...detail,
  });

export const webhooksApi: ApiSection<WebhooksContext> = {
  tag: {
    name: 'Operator: webhooks',
    description: `Signed webhooks (Standard Webhooks) from a durable outbox; see docs/webhooks.md. Event types:\n\n${eventTypeList}`,
  },
  schemas: WEBHOOK_SCHEMAS,
  operations: [
    operation({
      method: 'get',
      path: '/admin/v1/webhook-event-types',
      operationId: 'listWebhookEventTypes',
      guard: 'operator',
      summary: 'List the event types',
      answers: [
        {
          status: 200,
          description: 'Every event type an endpoint can subscribe to.',
          schema: success({ type: 'array', items: ref('WebhookEventType') }),
        },
      ],
      handler: () => async () => ok(EVENT_TYPES.map((e) => ({ ...e }))),
    }),
    operation({
      method: 'post',
      path: WEBHOOKS,
      operationId: 'createWebhookEndpoint',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Add a webhook endpoint (secret shown once)',
      body: {
        required: true,
        schema: ref('WebhookEndpointInput'),
        examples: {
          crm: {
            summary: 'Client events',
            value: { url: 'https://hooks.example.com/crmkit', eventTypes: ['client.created', 'client.archived'] },
          },
        },
      },
      answers: [
        {
          status: 201,
          description: 'The endpoint with its signing secret.',
          schema: success(ref('WebhookEndpointCreated')),
          headers: keptSecret,
        },
      ],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ webhooks, services }) =>
        async (request, reply) => {
          const line = services.audit.entryOf(request, 'webhook.create', request.params.urlKey);
          const created = await webhooks.create(request.params.urlKey, request.body, line);
          return reply.header('cache-control', 'no-store').code(201).send(ok(created));
        },
    }),
    operation({
      method: 'get',
      path: WEBHOOKS,
      operationId: 'listWebhookEndpoints',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'List webhook endpoints',
      answers: [
        {
          status: 200,
          description: "The business's endpoints (no secrets).",
          schema: success({ type: 'array', items: ref('WebhookEndpoint') }),
        },
      ],
      errors: ['BUSINESS_NOT_FOUND'],
      handler:
        ({ webhooks }) =>
        async (request) =>
          ok(await webhooks.list(request.params.urlKey)),
    }),
    operation({
      method: 'get',
      path: ENDPOINT,
      operationId: 'getWebhookEndpoint',
      guard: 'operator',
      compress: false,
      pathParams: endpoint,
      summary: 'Get a webhook endpoint',
      answers: [{ status: 200, description: 'The endpoint (no secret).', schema: success(ref('WebhookEndpoint')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler:
        ({ webhooks }) =>
        async (request) =>
          ok(await webhooks.get(request.params.urlKey, request.params.endpointId)),
    }),
    operation({
      method: 'patch',
      path: ENDPOINT,
      operationId: 'updateWebhookEndpoint',
      guard: 'operator',
      pathParams: endpoint,
      summary: 'Change a webhook endpoint',
      description: 'Enabling an endpoint (also one disabled for failing) resumes its pending deliveries.',
      body: {
        required: true,
        schema: ref('WebhookEndpointPatch'),
        examples: { enable: { summary: 'Enable it again', value: { enabled: true } } },
      },
      answers: [{ status: 200, description: 'The endpoint as changed.', schema: success(ref('WebhookEndpoint')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler: (c) => async (request) => {
        const { urlKey, endpointId } = request.params;
        // Built before the service reads the body: a missing or null body is the service's 400, not a throw here.
        const fields = Object.keys((request.body ?? {}) as object);
        const line = audit(c, request, 'webhook.update', { fields });
        return ok(await c.webhooks.update(urlKey, endpointId, request.body, line));
      },
    }),
    operation({
      method: 'delete',
      path: ENDPOINT,
      operationId: 'deleteWebhookEndpoint',
      guard: 'operator',
      pathParams: endpoint,
      summary: 'Remove a webhook endpoint',
      description: 'Its pending deliveries and its delivery log go with it.',
      body: bodyless,
      answers: [{ status: 200, description: 'Removed.', schema: success(ref('WebhookEndpointDeleted')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, endpointId } = request.params;
        return ok(await c.webhooks.remove(urlKey, endpointId, audit(c, request, 'webhook.delete')));
      },
    }),
    operation({
      method: 'post',
      path: `${ENDPOINT}/rotate-secret`,
      operationId: 'rotateWebhookSecret',
      guard: 'operator',
      pathParams: endpoint,
      summary: 'Issue a new signing secret',
      description:
        'For 24 hours both the new and the previous secret sign every delivery (two `v1,` signatures in `webhook-signature`).',
      body: bodyless,
      answers: [
        {
          status: 200,
          description: 'The new secret.',
          schema: success(ref('WebhookSecretRotated')),
          headers: keptSecret,
        },
      ],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler: (c) => async (request, reply) => {
        noBody(request);
        const { urlKey, endpointId } = request.params;
        const rotated = await c.webhooks.rotate(urlKey, endpointId, audit(c, request, 'webhook.rotate-secret'));
        return reply.header('cache-control', 'no-store').send(ok(rotated));
      },
    }),
    operation({
      method: 'post',
      path: `${ENDPOINT}/test`,
      operationId: 'sendWebhookTest',
      guard: 'operator',
      pathParams: endpoint,
      summary: 'Send a test event',
      description:
        'Queues a `webhook.test` event for this endpoint, whatever it subscribes to; its attempts appear in the delivery log.',
      body: bodyless,
      answers: [{ status: 202, description: 'Queued.', schema: success(ref('WebhookEventQueued')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler: (c) => async (request, reply) => {
        noBody(request);
        const { urlKey, endpointId } = request.params;
        const queued = await c.webhooks.sendTest(urlKey, endpointId, audit(c, request, 'webhook.test'));
        return reply.code(202).send(ok(queued));
      },
    }),
    operation({
      method: 'get',
      path: `${ENDPOINT}/deliveries`,
      operationId: 'listWebhookDeliveries',
      guard: 'operator',
      pathParams: endpoint,
      summary: 'Read the delivery log',
      query: [
        {
          name: 'page',
          description: 'Page number from 1.',
          schema: { type: 'integer', minimum: 1, maximum: PAGING.page.max, default: PAGING.page.fallback },
        },
        {
          name: 'pageSize',
          description: 'Attempts per page.',
          schema: { type: 'integer', minimum: 1, maximum: PAGING.pageSize.max, default: PAGING.pageSize.fallback },
        },
      ],
      answers: [
        { status: 200, description: 'One page of attempts, newest first.', schema: success(ref('WebhookAttemptPage')) },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler:
        ({ webhooks }) =>
        async (request) => {
          const { page, pageSize } = readPaging(request.query as Record<string, string>);
          return ok(await webhooks.deliveries(request.params.urlKey, request.params.endpointId, page, pageSize));
        },
    }),
    operation({
      method: 'post',
      path: `${ENDPOINT}/events/:eventId/resend`,
      operationId: 'resendWebhookEvent',
      guard: 'operator',
      pathParams: { ...endpoint, eventId: "The event's `webhook-id` (`msg_…`), as the delivery log shows it." },
      summary: 'Send one event again',
      description:
        "Sent now under the same `webhook-id` and body, as the event's next attempt (the delivery log numbers it " +
        'after its last one). An event waiting for a retry is retried now; an attempt in flight is not doubled.',
      body: bodyless,
      answers: [{ status: 202, description: 'On its way.', schema: success(ref('WebhookEventQueued')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND', 'WEBHOOK_EVENT_NOT_FOUND'],
      handler: (c) => async (request, reply) => {
        noBody(request);
        const { urlKey, endpointId, eventId } = request.params;
        const queued = await c.webhooks.resend(
          urlKey,
          endpointId,
          eventId,
          audit(c, request, 'webhook.resend', { eventId }),
        );
        return reply.code(202).send(ok(queued));
      },
    }),
  ],
};

/** Webhooks: endpoints in the operator API, and this process's delivery worker. */
export const webhooksFeature = feature({
  sections: [webhooksApi],
  context: webhooksContext,
  install(app, { worker, deliver }, shutdown) {
    if (!deliver) return;
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', () => shutdown.run('webhook worker', () => worker.stop()));
  },
});
