import type { AttemptRecord, EndpointRecord } from '../storage/webhooks.store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An endpoint as operators see it: never its secret (shown once, on create and rotation). */
export function presentEndpoint(e: EndpointRecord, now: number) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    previousSecretExpiresAt:
      e.previousSecretUntil !== null && e.previousSecretUntil > now ? iso(e.previousSecretUntil) : null,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

export function presentAttempt(a: AttemptRecord) {
  return {
    at: iso(a.at),
    eventId: a.eventId,
    eventType: a.eventType,
    attempt: a.attempt,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
  };
}
