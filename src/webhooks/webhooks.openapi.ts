import { bodyJsonSchema } from '../validation/read-body.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { endpointSpec } from './endpoint.rules.js';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from './event-types.js';

/** The webhooks' named schemas in the OpenAPI document, and the event types (from the one table); operations: webhooks.routes.ts. */

const text: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });
export const eventTypeList = EVENT_TYPES.map((e) => `- \`${e.type}\` (${e.emittedBy}): ${e.description}`).join('\n');

const endpointMembers = {
  id: { type: 'string', description: "The endpoint's id (`ep_…`)." } as JsonSchema,
  url: text,
  description: nullable('string', 'A note for operators.'),
  eventTypes: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPE_NAMES] } } as JsonSchema,
  enabled: { type: 'boolean' } as JsonSchema,
  disabledReason: {
    type: ['string', 'null'],
    enum: ['failing', null],
    description: '`failing`: disabled by crmkit after an event failed for the whole retry schedule (about three days).',
  } as JsonSchema,
  previousSecretExpiresAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'Until then the previous secret signs too (after a rotation).',
  } as JsonSchema,
  createdAt: time,
  updatedAt: time,
};
const endpointRequired = Object.keys(endpointMembers) as (keyof typeof endpointMembers)[];
const secret: JsonSchema = {
  type: 'string',
  pattern: '^whsec_',
  description: 'The signing secret (Standard Webhooks, `whsec_…`). Shown once, never again: store it now.',
};

export const WEBHOOK_SCHEMAS: Record<string, JsonSchema> = {
  WebhookEventType: closedObject(
    { type: { type: 'string', enum: [...EVENT_TYPE_NAMES] }, emittedBy: text, description: text },
    ['type', 'emittedBy', 'description'],
  ),
  WebhookEndpointInput: bodyJsonSchema(endpointSpec(true), 'A new webhook endpoint.'),
  WebhookEndpointPatch: bodyJsonSchema(endpointSpec(false), 'What changes.'),
  WebhookEndpoint: closedObject(endpointMembers, endpointRequired),
  WebhookEndpointCreated: closedObject({ ...endpointMembers, secret }, [...endpointRequired, 'secret']),
  WebhookSecretRotated: closedObject(
    {
      id: text,
      secret,
      previousSecretExpiresAt: {
        ...time,
        description: 'The previous secret signs beside the new one until then (24 hours).',
      },
    },
    ['id', 'secret', 'previousSecretExpiresAt'],
  ),
  WebhookEventQueued: closedObject(
    { eventId: { type: 'string', description: 'The `webhook-id` it is sent under.' }, eventType: text },
    ['eventId', 'eventType'],
  ),
  WebhookEndpointDeleted: closedObject({ id: text, deleted: { const: true } }, ['id', 'deleted']),
  WebhookAttemptPage: closedObject(
    {
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      hasMore: { type: 'boolean' },
      attempts: {
        type: 'array',
        description: 'Newest first.',
        items: closedObject(
          {
            at: time,
            eventId: { type: 'string', description: 'The `webhook-id`.' },
            eventType: text,
            attempt: { type: 'integer', description: 'Attempt number of this event, from 1.' },
            statusCode: nullable('integer', "The destination's HTTP status; null when it gave none."),
            durationMs: { type: 'integer' },
            error: nullable(
              'string',
              'Why the attempt failed without a status (timeout, refused destination, connection error) or a redirect not followed.',
            ),
          },
          ['at', 'eventId', 'eventType', 'attempt', 'statusCode', 'durationMs', 'error'],
        ),
      },
    },
    ['page', 'pageSize', 'hasMore', 'attempts'],
  ),
};
