import { isIP } from 'node:net';
import { AppError } from '../errors/app-error.js';
import { FieldReader, isJsonObject } from '../validation/field-reader.js';
import { entry, type EntrySpec } from '../validation/field-spec.js';
import { refusedAddress } from './destination-guard.js';
import { EVENT_TYPE_NAMES } from './event-types.js';

export const MAX_URL = 2048;
export const MAX_DESCRIPTION = 500;

/**
 * Characters a URL may not carry as sent: controls, spaces and backslashes. The URL parser would drop,
 * encode or turn them into something else, so the address shown would not be the one called.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/u;

/**
 * What a webhook URL must be when it is saved. Names are checked again on their resolved address at
 * every attempt (destination-guard.ts); here only what can be known now: scheme, shape, a literal address.
 */
export function urlProblem(value: string, allowPrivate: boolean): string | undefined {
  if ([...value].length > MAX_URL) return `url must be at most ${MAX_URL} characters`;
  if (UNSAFE_CHARACTERS.test(value)) return 'url must not contain spaces, control characters or backslashes';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an absolute http:// or https:// URL';
  if (url.username || url.password) return 'url must not carry a user name or password';
  if (url.hash) return 'url must not carry a #fragment';
  const host = hostOf(url);
  const reason = isIP(host)
    ? refusedAddress(host, allowPrivate)
    : !allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))
      ? 'a loopback, private or link-local address'
      : undefined;
  return reason && `url must not point to ${reason} (see WEBHOOKS_ALLOW_PRIVATE)`;
}

/** The host as every check sees it: without IPv6 brackets, and without the root's trailing dot (`localhost.` is `localhost`). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** The URL as deliveries call it, stored and shown as such (host lower case and punycode, path encoded). */
export function normalisedUrl(value: string): string {
  return new URL(value).href;
}

/** The members of an endpoint body; POST requires url and eventTypes, PATCH takes any subset. */
export function endpointSpec(create: boolean): EntrySpec {
  return entry(
    create ? 'WebhookEndpointInput' : 'WebhookEndpointPatch',
    create ? 'A new webhook endpoint.' : 'What changes.',
    [
      [
        'url',
        {
          type: 'string',
          required: create,
          maxLength: MAX_URL,
          description:
            'Where events are POSTed: http:// or https://, no credentials, no spaces, control characters or backslashes; stored and shown ' +
            'as deliveries call it (normalised: host lower case and punycode, path encoded). Loopback, private and link-local destinations ' +
            '(`localhost` and `localhost.` alike) are refused unless WEBHOOKS_ALLOW_PRIVATE is set.',
        },
      ],
      [
        'eventTypes',
        {
          type: 'strings',
          required: create,
          minItems: 1,
          unique: true,
          items: { type: 'string', enum: EVENT_TYPE_NAMES, description: 'An event type.' },
          description: 'The event types this endpoint receives (GET /admin/v1/webhook-event-types).',
        },
      ],
      [
        'description',
        { type: 'string', maxLength: MAX_DESCRIPTION, description: 'A note for operators; empty clears it.' },
      ],
      [
        'enabled',
        {
          type: 'boolean',
          description:
            'Whether events are written for and sent to this endpoint; true on create. Enabling a disabled endpoint resumes its pending deliveries.',
        },
      ],
    ],
  );
}

/** Reads an endpoint body with the one body reader; the URL's destination rule needs the setting, so it runs beside the descriptors. */
export function readEndpointBody<T>(body: unknown, allowPrivate: boolean, create: boolean): T {
  if (!isJsonObject(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const reader = new FieldReader();
  const values = reader.readEntry(endpointSpec(create), body, '', {
    afterMember(key, value, path) {
      if (key !== 'url') return;
      const problem = urlProblem(value as string, allowPrivate);
      if (problem) reader.valueError(path, problem);
    },
  });
  if (reader.errors.length > 0 || !values) throw AppError.fromFieldErrors(reader.errors);
  if (values.has('url')) values.set('url', normalisedUrl(values.get('url') as string));
  return Object.fromEntries(values) as T;
}
