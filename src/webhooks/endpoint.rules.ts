import { isIP } from 'node:net';
import type { MemberRule } from '../operator/body-shape.js';
import { refusedAddress } from './destination-guard.js';
import { EVENT_TYPE_NAMES, isEventType } from './event-types.js';

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

/**
 * What a webhook URL must be when it is saved. Names are checked again on their resolved address at
 * every attempt (destination-guard.ts); here only what can be known now: scheme, shape, a literal address.
 */
export function urlProblem(value: string, allowPrivate: boolean): string | undefined {
  if ([...value].length > MAX_URL) return `url must be at most ${MAX_URL} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an absolute http:// or https:// URL';
  if (url.username || url.password) return 'url must not carry a user name or password';
  if (url.hash) return 'url must not carry a #fragment';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const reason = isIP(host) ? refusedAddress(host, allowPrivate)
    : !allowPrivate && (host === 'localhost' || host.endsWith('.localhost')) ? 'a loopback, private or link-local address' : undefined;
  return reason && `url must not point to ${reason} (see WEBHOOKS_ALLOW_PRIVATE)`;
}

function eventTypesProblem(value: unknown[]): string | undefined {
  if (value.length === 0) return 'eventTypes must list at least one event type';
  const seen = new Set<unknown>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string' || !isEventType(item)) return `eventTypes[${i}] must be one of ${EVENT_TYPE_NAMES.join(', ')}`;
    if (seen.has(item)) return `eventTypes[${i}] is listed twice`;
    seen.add(item);
  }
  return undefined;
}

/** The members of an endpoint body; POST requires url and eventTypes, PATCH takes any subset. */
export function endpointRules(allowPrivate: boolean, create: boolean): Record<string, MemberRule> {
  return {
    url: {
      type: 'string', required: create, check: (v: string) => urlProblem(v, allowPrivate),
      schema: { maxLength: MAX_URL, format: 'uri', description: 'Where events are POSTed: http:// or https://, no credentials; loopback, private and link-local destinations are refused unless WEBHOOKS_ALLOW_PRIVATE is set.' },
    },
    eventTypes: {
      type: 'array', required: create, check: (v: unknown[]) => eventTypesProblem(v),
      schema: { minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...EVENT_TYPE_NAMES] }, description: 'The event types this endpoint receives (GET /admin/v1/webhook-event-types).' },
    },
    description: {
      type: 'string', check: (v: string) => ([...v].length > MAX_DESCRIPTION ? `description must be at most ${MAX_DESCRIPTION} characters` : undefined),
      schema: { maxLength: MAX_DESCRIPTION, description: 'A note for operators; empty clears it.' },
    },
    enabled: { type: 'boolean', schema: { description: 'Whether events are written for and sent to this endpoint; true on create. Enabling a disabled endpoint resumes its pending deliveries.' } },
  };
}
