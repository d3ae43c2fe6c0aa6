import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusedAddress } from './destination-guard.js';

export interface PostLimits {
  connectTimeoutMs: number;
  timeoutMs: number;
  maxAnswerBytes: number;
  allowPrivate: boolean;
}

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed without an answer (or with a redirect), for the delivery log. */
  error: string | null;
}

/**
 * One POST, defensively: the destination checked on its resolved address, a deadline to connect and
 * another for the whole exchange, redirects never followed, at most `maxAnswerBytes` of the answer read
 * (the rest is dropped with the connection), no connection reused.
 */
export function postOnce(
  url: URL,
  headers: Record<string, string>,
  body: string,
  limits: PostLimits,
): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = refusedAddress(host, limits.allowPrivate);
    if (reason) return Promise.resolve(done(null, `destination refused: ${host} is ${reason}`));
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(limits.allowPrivate) as never,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'crmkit-webhooks/1',
      },
    });
    const overall = setTimeout(() => {
      finish(done(null, `no answer within ${limits.timeoutMs} ms`));
      request.destroy();
    }, limits.timeoutMs);
    request.on('socket', (socket) => {
      const connectTimer = setTimeout(() => {
        finish(done(null, `could not connect within ${limits.connectTimeoutMs} ms`));
        request.destroy();
      }, limits.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(done(null, error.message || error.code || 'connection failed')),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.maxAnswerBytes) {
          finish(done(status, null));
          request.destroy();
        }
      });
      response.on('end', () => finish(done(status, status >= 300 && status < 400 ? 'redirect not followed' : null)));
      response.on('error', () => finish(done(status, null)));
    });
    request.end(body);
  });
}
