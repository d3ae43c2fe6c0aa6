import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { installBodyTimeout } from './body-timeout.js';
import { installCloseDrained } from './close-drained.js';
import { coalescedSends } from './coalesced-sends.js';
import { installCors } from './cors.js';
import { parseJsonBody } from './json-body.js';

/**
 * The pages' policy (dashboard, /docs): scripts and styles from this origin only, never framed. They may
 * frame blob: URLs alone: the invoice page shows the PDF it fetched with the operator's token as a blob.
 */
export const PAGE_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-src blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Every other answer is data, never a document: it may load nothing and be framed by nobody (OWASP's
 * REST advice). Also 200 bytes shorter than the pages' policy, on every API answer.
 */
export const DATA_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Body parsing and its timeout, request ids, security headers, CORS, the write of answers, and the close of
 * connections as their answers end while the app closes, for every route.
 */
export function installHttpBasics(app: FastifyInstance, config: Config): void {
  installCors(app, config);
  installBodyTimeout(app, config.requestTimeoutMs);
  installCloseDrained(app);
  // Our own JSON parser: an empty body is "no body", and prototype keys are refused (see parseJsonBody).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.removeContentTypeParser('text/plain');

  // One synchronous hook (no promise per answer) sets the headers every answer carries, and hands
  // the answer on to be written with the others of this turn.
  const writeWithOthers = coalescedSends();
  app.addHook('onSend', (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // Pages set their own policy where they are sent (a 304 revalidating a page carries no content type),
    // and keep X-Frame-Options for browsers that predate CSP's frame-ancestors. Data answers get the data
    // policy, whose frame-ancestors 'none' supersedes X-Frame-Options in every browser that honours CSP
    // level 2; a JSON answer is never rendered in a frame either way, and every header costs each
    // caller's parser (see docs/decisions.md).
    if (reply.hasHeader('content-security-policy')) reply.header('x-frame-options', 'DENY');
    else reply.header('content-security-policy', DATA_SECURITY_POLICY);
    if (!reply.hasHeader('cache-control')) {
      const path = request.url;
      if (path.startsWith('/api/') || path.startsWith('/admin/') || path.startsWith('/authentication'))
        reply.header('cache-control', 'no-store');
    }
    return writeWithOthers(payload);
  });
}
