import type { WebhookAttemptPage, WebhookEndpoint } from '../openapi/answer-types.js';
import type { AttemptRecord, EndpointRecord } from '../storage/webhooks.store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const isoOf = (ms: number) => new Date(ms).toISOString();

/** An endpoint as operators see it: never its secret (shown once, on create and rotation). */
export function presentEndpoint(e: EndpointRecord, now: number): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes as WebhookEndpoint['eventTypes'],
    enabled: e.enabled,
    disabledReason: e.disabledReason as WebhookEndpoint['disabledReason'],
    previousSecretExpiresAt:
      e.previousSecretUntil !== null && e.previousSecretUntil > now ? iso(e.previousSecretUntil) : null,
    createdAt: isoOf(e.createdAt),
    updatedAt: isoOf(e.updatedAt),
  } satisfies WebhookEndpoint;
}

export function presentAttempt(a: AttemptRecord): WebhookAttemptPage['attempts'][number] {
  return {
    at: isoOf(a.at),
    eventId: a.eventId,
    eventType: a.eventType,
    attempt: a.attempt,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
  } satisfies WebhookAttemptPage['attempts'][number];
}
