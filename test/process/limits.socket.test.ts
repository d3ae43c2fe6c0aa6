import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { expectEnvelope } from '../helpers/hostile.js';
import { plainRequest, rawExchange } from '../helpers/raw-http.js';

const TIMEOUT_MS = 1000;
const BODY_LIMIT = 2048;
/** Node checks the request timer once a second (app.ts), so a cut comes between TIMEOUT_MS and TIMEOUT_MS + 1 s. */
const LATEST_CUT_MS = TIMEOUT_MS + 1000 + 700;

const CRLF = '\r\n';
const postHead = (length: number) =>
  `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}Content-Type: application/json${CRLF}Content-Length: ${length}${CRLF}${CRLF}`;

/** A body of exactly `bytes` bytes that is valid JSON, so that only its size can be at fault. */
const bodyOf = (bytes: number) => {
  const shell = JSON.stringify({ strategy: 'app-secret', appId: 'app_x', appSecret: '' });
  return shell.replace('"appSecret":""', `"appSecret":"${'s'.repeat(bytes - shell.length)}"`);
};

describe(`limits: REQUEST_TIMEOUT_MS=${TIMEOUT_MS} and BODY_LIMIT_BYTES=${BODY_LIMIT}`, () => {
  let t: TestApp;
  let port = 0;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { requestTimeoutMs: TIMEOUT_MS, bodyLimitBytes: BODY_LIMIT });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  function expectCutOff(answer: Awaited<ReturnType<typeof rawExchange>>): void {
    expect(answer.closed).toBe(true);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(answer.elapsedMs).toBeLessThan(LATEST_CUT_MS);
    expect(answer.status).toBe(408);
    const body = JSON.parse(answer.text);
    expectEnvelope(body, 408);
    expect(body.data.error.code).toBe('REQUEST_TIMEOUT');
  }

  it('a request that sends its headers and part of its body, then stalls, gets 408 REQUEST_TIMEOUT and the connection closed', async () => {
    expectCutOff(await rawExchange(port, [`${postHead(100)}{"strategy":`], { waitMs: 6000 }));
  });

  it('headers that never end (slowloris) get 408 and the connection closed', async () => {
    expectCutOff(
      await rawExchange(port, [`GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}X-Slow: 1${CRLF}`], { waitMs: 6000 }),
    );
  });

  it('a body trickled a byte at a time is cut off at the timeout even though bytes keep coming', async () => {
    const chunks = [postHead(40), ...'{"strategy":"local","email":"a@b.c"}    '.split('')];
    expectCutOff(await rawExchange(port, chunks, { waitMs: 6000, gapMs: 150 }));
  });

  it('while a stalled request waits, other requests are answered at once', async () => {
    const stalled = rawExchange(port, [`${postHead(100)}{`], { waitMs: 6000 });
    const started = Date.now();
    const health = await rawExchange(port, [plainRequest('GET', '/healthz')]);
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    expect((await stalled).status).toBe(408);
  });

  it('a client that keeps a body coming after an early answer (401 before the body) is still cut off at the timeout', async () => {
    const head = `POST /api/v1/businesses/any/clients HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: 100${CRLF}${CRLF}`;
    const answer = await rawExchange(port, [head, ...'{"clientId":"x"'.split('')], { waitMs: 6000, gapMs: 150 });
    expect(answer.status).toBe(401);
    expect(answer.closed).toBe(true);
    expect(answer.elapsedMs).toBeLessThan(LATEST_CUT_MS);
  });

  it('a request that completes within the timeout is answered normally', async () => {
    const body = JSON.stringify({ strategy: 'app-token' });
    const answer = await rawExchange(port, [`${postHead(Buffer.byteLength(body))}${body.slice(0, 5)}`, body.slice(5)], {
      gapMs: 300,
    });
    expect(answer.status).toBe(401); // no token: the request was read and judged, not cut off
  });

  it('a request answered before its body was read, through inject() (no real socket), leaves no timer that fails later', async () => {
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/v1/businesses/any/clients',
      headers: { 'content-type': 'application/json' },
      payload: '{"clientId":"x"}',
    });
    expect(early.statusCode).toBe(401);
    await new Promise((r) => setTimeout(r, TIMEOUT_MS + 300)); // an error thrown by the timer would fail this run
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('a body of exactly BODY_LIMIT_BYTES is read; one byte more is 413 PAYLOAD_TOO_LARGE in the envelope', async () => {
    const atLimit = await call(t.app, 'POST', '/authentication', {
      rawBody: bodyOf(BODY_LIMIT),
      headers: { 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(400); // judged on its content: appSecret is too long
    expect(atLimit.body.data.error.errors[0].field).toBe('appSecret');
    const over = await call(t.app, 'POST', '/authentication', {
      rawBody: bodyOf(BODY_LIMIT + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    expectEnvelope(over.body, 413);
    expect(over.body.data.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a chunked body (no Content-Length) is stopped at BODY_LIMIT_BYTES with 413', async () => {
    const chunk = 'a'.repeat(1000);
    const chunked =
      `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}` +
      `${`${chunk.length.toString(16)}${CRLF}${chunk}${CRLF}`.repeat(3)}0${CRLF}${CRLF}`;
    const answer = await rawExchange(port, [chunked], { waitMs: 3000 });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).data.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a declared Content-Length over the limit is refused at once, before the body is sent', async () => {
    const answer = await rawExchange(port, [postHead(BODY_LIMIT + 1)], { waitMs: 3000 });
    expect(answer.status).toBe(413);
    expect(answer.elapsedMs).toBeLessThan(TIMEOUT_MS);
  });
});
