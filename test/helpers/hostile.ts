import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SHARE_PAGE_BASE } from '../../src/invoices/invoice.share-token.js';

/**
 * What an answer must never show: table and column names, driver and framework names, stack frames,
 * source or file-system paths, SQL text. An answer may echo what a caller sent (a field name in an
 * error message, a stored value); a match that appears in something sent is therefore excused.
 */
const LEAKS: RegExp[] = [
  /\b(business_pk|client_pk|app_pk|url_key|client_id|amount_e4|secret_hash|password_hash|public_key_pem|secret_version|key_version|endpoint_pk|resource_key|previous_secret|next_attempt_at|event_types)\b/,
  /\b(pipeline_configs|custom_field_sets|client_balances|app_businesses|rate_limits|audit_log|signing_keys|kysely_migration|sqlite_master|webhook_endpoints|webhook_outbox|webhook_attempts|idempotency_keys)\b/,
  /kysely|better-sqlite3|SQLITE_[A-Z]+|node_modules|FST_ERR_\w+|ERR_[A-Z_]{4,}|\/work\/|\/home\/|\/usr\/|\/tmp\//i,
  /\bat [\w.<>$]+ \(|\bat (file|node):|\.(ts|js|mjs|cjs):\d+/,
  /\b(select|delete)\b[^"]{0,80}\bfrom\b|\binsert into\b|\bupdate \w+ set\b|\bon conflict\b/i,
  /syntax error at|violates|duplicate key|invalid byte sequence|relation "|column "|\b(TypeError|RangeError|ReferenceError|SyntaxError)\b/i,
];

/** Everything sent so far in a run, to tell an echo of the caller's input from a leak. */
export class SentLog {
  private readonly texts: string[] = [];
  add(...parts: (string | undefined)[]): void {
    for (const part of parts) if (part) this.texts.push(part);
  }
  has(snippet: string): boolean {
    return this.texts.some((t) => t.includes(snippet) || safeDecode(t).includes(snippet));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Leaks in an answer's text that the caller did not send; empty when clean. */
export function leaksIn(text: string, sent: SentLog): string[] {
  const found: string[] = [];
  for (const pattern of LEAKS) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (const match of text.matchAll(global)) if (!sent.has(match[0])) found.push(match[0]);
  }
  return found;
}

/** The section 7 envelope: either with `data.error` (code, message, status) or the bare 401/405 shape. */
export function expectEnvelope(body: unknown, status: number, context = ''): void {
  const b = body as Record<string, any>;
  expect(b, context).toBeTypeOf('object');
  expect(Object.keys(b).sort(), context).toEqual(['className', 'code', 'data', 'errors', 'message', 'name']);
  expect(b.code, context).toBe(status);
  expect(b.name, context).toBeTypeOf('string');
  expect(b.className, context).toBeTypeOf('string');
  expect(b.message, context).toBeTypeOf('string');
  expect(b.errors, context).toEqual({});
  if (b.data?.error === undefined) {
    expect([401, 405], `${context}: only 401 and 405 answer without data.error`).toContain(status);
    expect(b.data, context).toEqual({ message: b.message });
    return;
  }
  expect(b.data.success, context).toBe(false);
  expect(b.data.error, context).toMatchObject({ message: b.message, status });
  expect(b.data.error.code, context).toMatch(/^[A-Z_]+$/);
}

export interface Answer {
  status: number;
  /** A HEAD answer carries the headers of the GET and no body. */
  head?: boolean;
  contentType: string;
  text: string;
}

/**
 * Never a 5xx, every error in the envelope, and no leak. `context` names the request in a failure. The
 * public share pages are for people, not programs: their 404 is the one HTML page, never JSON
 * (docs/decisions.md "Share links"); a body the server cannot read is refused as anywhere else.
 */
export function expectSafeAnswer(answer: Answer, sent: SentLog, context: string, url = ''): void {
  expect(answer.status, context).toBeLessThan(500);
  if (url.startsWith(`${SHARE_PAGE_BASE}/`) && answer.status === 404) {
    if (!answer.head) expect(answer.contentType, context).toMatch(/^text\/html/);
    const leaks = leaksIn(answer.text, sent);
    expect(leaks, `${context}: leaked ${leaks.join(', ')}`).toEqual([]);
    return;
  }
  const json = /^application\/json/.test(answer.contentType);
  // The page and its scripts are not data: words like "select … from" are theirs.
  if (json || answer.status >= 400) {
    const leaks = leaksIn(answer.text, sent);
    expect(leaks, `${context}: leaked ${leaks.join(', ')}`).toEqual([]);
  }
  if (answer.status < 400 || answer.head) return;
  expect(answer.contentType, context).toMatch(/^application\/json/);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`${context}: error answer ${answer.status} is not JSON: ${answer.text.slice(0, 200)}`);
  }
  expectEnvelope(body, answer.status, context);
}

/** The own property names of the built-in prototypes, to compare before and after a run. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Object.getOwnPropertyNames(proto).sort().join(','))
    .join('|');
}

export function expectNoPollution(before: string): void {
  expect(prototypeSnapshot()).toBe(before);
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'admin', 'toString2']) expect(probe[key], key).toBeUndefined();
}

export interface RawRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  remoteAddress?: string;
}

/** inject() with the answer kept as text, and the request recorded as sent. */
export async function sendRaw(
  app: FastifyInstance,
  request: RawRequest,
  sent?: SentLog,
): Promise<Answer & { json: any }> {
  sent?.add(request.url, request.payload, ...Object.values(request.headers ?? {}));
  const response = await app.inject({
    method: request.method as never,
    url: request.url,
    headers: request.headers ?? {},
    ...(request.payload !== undefined && { payload: request.payload }),
    ...(request.remoteAddress && { remoteAddress: request.remoteAddress }),
  });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return {
    status: response.statusCode,
    head: request.method === 'HEAD',
    contentType: String(response.headers['content-type'] ?? ''),
    text: response.body,
    json,
  };
}
