import { createHash } from 'node:crypto';

/**
 * The Idempotency-Key header's pure rules (invoices-interface 4.2, after IETF
 * httpapi-idempotency-key-header): what a valid key is, and what makes two requests "the same".
 * The mechanism that applies them to a route is idempotency-key.route.ts.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** The longest key, after its quotes are removed (4.2, 7). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** A request that holds a key and died unanswered is forgotten after this (4.2 rule 5: within 60 s): the default and the most IDEMPOTENCY_KEY_LEASE_MS allows. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** What an IDEMPOTENCY_IN_PROGRESS answer's Retry-After says (4.2 rule 5). */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

const PRINTABLE_ASCII = new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** Why a header was refused, for the 400's message. */
export type KeyRefusal = 'repeated' | 'malformed';

/**
 * The key a request sent: undefined when it sent none, the refusal when it is not one key of 1–255
 * printable ASCII characters (one pair of surrounding quotes removed). Read from the raw header list,
 * since Node joins a repeated header into one value with ", " and a key may itself contain ", ".
 */
export function readIdempotencyKey(rawHeaders: readonly string[]): string | undefined | { refused: KeyRefusal } {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'idempotency-key') values.push(rawHeaders[i + 1]!);
  }
  if (values.length === 0) return undefined;
  if (values.length > 1) return { refused: 'repeated' };
  // Node has already dropped the spaces and tabs around the value (RFC 9110 5.5).
  const sent = values[0]!;
  const key = sent.length >= 2 && sent.startsWith('"') && sent.endsWith('"') ? sent.slice(1, -1) : sent;
  return PRINTABLE_ASCII.test(key) ? key : { refused: 'malformed' };
}

/**
 * The JSON text of a value with members sorted by name (UTF-16 order) and no whitespace: two bodies
 * equal as JSON values give the same text. Numbers are written by value, in their shortest round-trip
 * form (18, 18.0 and 1.8e1 are all `18`); accepted numbers have at most 15 significant digits
 * (invoices-interface 3.1), so no two accepted decimals share a binary64 value.
 */
export function canonicalJson(root: unknown): string {
  // A list of work of its own, not recursion: a body of 10,000 nested arrays is valid JSON and must not
  // overflow the stack. Items are taken from the end, so each value's parts are pushed in reverse.
  const work: ({ text: string } | { value: unknown })[] = [{ value: root }];
  const out: string[] = [];
  while (work.length > 0) {
    const item = work.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const value = item.value;
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    const parts: ({ text: string } | { value: unknown })[] = [];
    if (Array.isArray(value)) {
      for (const [i, member] of value.entries()) parts.push({ text: i > 0 ? ',' : '' }, { value: member });
      parts.unshift({ text: '[' });
      parts.push({ text: ']' });
    } else {
      const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [i, [name, member]] of entries.entries()) {
        parts.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(name)}:` }, { value: member });
      }
      parts.unshift({ text: '{' });
      parts.push({ text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]!);
  }
  return out.join('');
}

/** What identifies a request for its key: the route (method and template; an alias is the same) and its path values. */
export interface RouteIdentity {
  /** `POST /businesses/:urlKey/invoices`: an unprefixed alias and its `/api/v1` twin give the same. */
  route: string;
  params: Record<string, string>;
}

/** The vendor's unprefixed paths are aliases of the `/api/v1` ones (invoices-interface, introduction). */
export function routeOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/^\/api\/v1(?=\/)/, '')}`;
}

/**
 * The fingerprint of a request (4.2 rule 2): SHA-256 of the route, its path values and the body as a
 * JSON value. No body and a JSON `null` body differ.
 */
export function fingerprintOf(identity: RouteIdentity, body: unknown): string {
  const sent = body === undefined ? { absent: true } : { value: body };
  const text = canonicalJson({ route: identity.route, params: identity.params, body: sent });
  return createHash('sha256').update(text).digest('hex');
}
