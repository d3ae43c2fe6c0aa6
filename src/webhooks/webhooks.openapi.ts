import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { PAGING } from '../http/paging.js';
import { ref, success, type DocSection } from '../openapi/operation.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { endpointSpec } from './endpoint.rules.js';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from './event-types.js';

/** The webhook endpoints of the operator API, and the event types (from the one table). */

const text: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });
const eventTypeList = EVENT_TYPES.map((e) => `- \`${e.type}\` (${e.emittedBy}): ${e.description}`).join('\n');

const endpointMembers = {
  id: { type: 'string', description: 'The endpoint\'s id (`ep_…`).' } as JsonSchema,
  url: text, description: nullable('string', 'A note for operators.'),
  eventTypes: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPE_NAMES] } } as JsonSchema,
  enabled: { type: 'boolean' } as JsonSchema,
  disabledReason: { type: ['string', 'null'], enum: ['failing', null], description: '`failing`: disabled by crmkit after an event failed for the whole retry schedule (about three days).' } as JsonSchema,
  previousSecretExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'Until then the previous secret signs too (after a rotation).' } as JsonSchema,
  createdAt: time, updatedAt: time,
};
const endpointRequired = Object.keys(endpointMembers) as (keyof typeof endpointMembers)[];
const secret: JsonSchema = { type: 'string', pattern: '^whsec_', description: 'The signing secret (Standard Webhooks, `whsec_…`). Shown once, never again: store it now.' };

const SCHEMAS: Record<string, JsonSchema> = {
  WebhookEventType: closedObject({ type: { type: 'string', enum: [...EVENT_TYPE_NAMES] }, emittedBy: text, description: text }, ['type', 'emittedBy', 'description']),
  WebhookEndpointInput: bodyJsonSchema(endpointSpec(true), 'A new webhook endpoint.'),
  WebhookEndpointPatch: bodyJsonSchema(endpointSpec(false), 'What changes.'),
  WebhookEndpoint: closedObject(endpointMembers, endpointRequired),
  WebhookEndpointCreated: closedObject({ ...endpointMembers, secret }, [...endpointRequired, 'secret']),
  WebhookSecretRotated: closedObject({ id: text, secret, previousSecretExpiresAt: { ...time, description: 'The previous secret signs beside the new one until then (24 hours).' } }, ['id', 'secret', 'previousSecretExpiresAt']),
  WebhookEventQueued: closedObject({ eventId: { type: 'string', description: 'The `webhook-id` it is sent under.' }, eventType: text }, ['eventId', 'eventType']),
  WebhookEndpointDeleted: closedObject({ id: text, deleted: { const: true } }, ['id', 'deleted']),
  WebhookAttemptPage: closedObject({
    page: { type: 'integer' }, pageSize: { type: 'integer' }, hasMore: { type: 'boolean' },
    attempts: {
      type: 'array', description: 'Newest first.',
      items: closedObject({
        at: time, eventId: { type: 'string', description: 'The `webhook-id`.' }, eventType: text, attempt: { type: 'integer', description: 'Attempt number of this event, from 1.' },
        statusCode: nullable('integer', 'The destination\'s HTTP status; null when it gave none.'), durationMs: { type: 'integer' },
        error: nullable('string', 'Why the attempt failed without a status (timeout, refused destination, connection error) or a redirect not followed.'),
      }, ['at', 'eventId', 'eventType', 'attempt', 'statusCode', 'durationMs', 'error']),
    },
  }, ['page', 'pageSize', 'hasMore', 'attempts']),
};

const WEBHOOKS = '/admin/v1/businesses/:urlKey/webhooks';
const ENDPOINT = `${WEBHOOKS}/:endpointId`;
const urlKey = { urlKey: 'The business key.' };
const endpoint = { ...urlKey, endpointId: 'The endpoint\'s id (`ep_…`).' };
const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };
const keptSecret = { 'Cache-Control': { description: 'no-store: the answer carries a secret.', schema: { const: 'no-store' } } };

export const webhooksApi: DocSection = {
  tag: {
    name: 'Operator: webhooks',
    description: `Signed webhooks (Standard Webhooks) from a durable outbox; see docs/webhooks.md. Event types:\n\n${eventTypeList}`,
  },
  schemas: SCHEMAS,
  operations: [
    {
      method: 'get', path: '/admin/v1/webhook-event-types', operationId: 'listWebhookEventTypes', guard: 'operator', summary: 'List the event types',
      answers: [{ status: 200, description: 'Every event type an endpoint can subscribe to.', schema: success({ type: 'array', items: ref('WebhookEventType') }) }],
    },
    {
      method: 'post', path: WEBHOOKS, operationId: 'createWebhookEndpoint', guard: 'operator', pathParams: urlKey, summary: 'Add a webhook endpoint (secret shown once)',
      body: { required: true, schema: ref('WebhookEndpointInput'), examples: { crm: { summary: 'Client events', value: { url: 'https://hooks.example.com/crmkit', eventTypes: ['client.created', 'client.archived'] } } } },
      answers: [{ status: 201, description: 'The endpoint with its signing secret.', schema: success(ref('WebhookEndpointCreated')), headers: keptSecret }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'get', path: WEBHOOKS, operationId: 'listWebhookEndpoints', guard: 'operator', pathParams: urlKey, summary: 'List webhook endpoints',
      answers: [{ status: 200, description: 'The business\'s endpoints (no secrets).', schema: success({ type: 'array', items: ref('WebhookEndpoint') }) }],
      errors: ['BUSINESS_NOT_FOUND'],
    },
    {
      method: 'get', path: ENDPOINT, operationId: 'getWebhookEndpoint', guard: 'operator', pathParams: endpoint, summary: 'Get a webhook endpoint',
      answers: [{ status: 200, description: 'The endpoint (no secret).', schema: success(ref('WebhookEndpoint')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'patch', path: ENDPOINT, operationId: 'updateWebhookEndpoint', guard: 'operator', pathParams: endpoint, summary: 'Change a webhook endpoint',
      description: 'Enabling an endpoint (also one disabled for failing) resumes its pending deliveries.',
      body: { required: true, schema: ref('WebhookEndpointPatch'), examples: { enable: { summary: 'Enable it again', value: { enabled: true } } } },
      answers: [{ status: 200, description: 'The endpoint as changed.', schema: success(ref('WebhookEndpoint')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'delete', path: ENDPOINT, operationId: 'deleteWebhookEndpoint', guard: 'operator', pathParams: endpoint, summary: 'Remove a webhook endpoint',
      description: 'Its pending deliveries and its delivery log go with it.', body: bodyless,
      answers: [{ status: 200, description: 'Removed.', schema: success(ref('WebhookEndpointDeleted')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'post', path: `${ENDPOINT}/rotate-secret`, operationId: 'rotateWebhookSecret', guard: 'operator', pathParams: endpoint, summary: 'Issue a new signing secret',
      description: 'For 24 hours both the new and the previous secret sign every delivery (two `v1,` signatures in `webhook-signature`).', body: bodyless,
      answers: [{ status: 200, description: 'The new secret.', schema: success(ref('WebhookSecretRotated')), headers: keptSecret }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'post', path: `${ENDPOINT}/test`, operationId: 'sendWebhookTest', guard: 'operator', pathParams: endpoint, summary: 'Send a test event',
      description: 'Queues a `webhook.test` event for this endpoint, whatever it subscribes to; its attempts appear in the delivery log.', body: bodyless,
      answers: [{ status: 202, description: 'Queued.', schema: success(ref('WebhookEventQueued')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'get', path: `${ENDPOINT}/deliveries`, operationId: 'listWebhookDeliveries', guard: 'operator', pathParams: endpoint, summary: 'Read the delivery log',
      query: [
        { name: 'page', description: 'Page number from 1.', schema: { type: 'integer', minimum: 1, maximum: PAGING.page.max, default: PAGING.page.fallback } },
        { name: 'pageSize', description: 'Attempts per page.', schema: { type: 'integer', minimum: 1, maximum: PAGING.pageSize.max, default: PAGING.pageSize.fallback } },
      ],
      answers: [{ status: 200, description: 'One page of attempts, newest first.', schema: success(ref('WebhookAttemptPage')) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
    },
    {
      method: 'post', path: `${ENDPOINT}/events/:eventId/resend`, operationId: 'resendWebhookEvent', guard: 'operator',
      pathParams: { ...endpoint, eventId: 'The event\'s `webhook-id` (`msg_…`), as the delivery log shows it.' }, summary: 'Send one event again',
      description: 'Under the same `webhook-id` and body, after any pending event of the same resource.', body: bodyless,
      answers: [{ status: 202, description: 'Queued.', schema: success(ref('WebhookEventQueued')) }],
      errors: ['BUSINESS_NOT_FOUND', 'WEBHOOK_NOT_FOUND', 'WEBHOOK_EVENT_NOT_FOUND'],
    },
  ],
};
