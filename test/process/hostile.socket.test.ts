import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { SentLog, expectSafeAnswer } from '../helpers/hostile.js';
import { plainRequest, rawExchange } from '../helpers/raw-http.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

/**
 * What only a real socket shows: bytes no HTTP client library would send. Node's parser refuses some
 * before any route runs; those answers must be in the envelope too, and the server must stay up.
 */
type RawCase = [name: string, bytes: (t: Tenant) => string | Buffer, status: number | 'any', code?: string];

const CRLF = '\r\n';
const CASES: RawCase[] = [
  ['a request line that is not HTTP', () => `GARBAGE${CRLF}${CRLF}`, 400, 'INVALID_FIELD'],
  ['an unknown method', () => `FROB / HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`, 400, 'INVALID_FIELD'],
  [
    'a header name with a space',
    () => `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}Bad Header: y${CRLF}${CRLF}`,
    400,
    'INVALID_FIELD',
  ],
  [
    'a raw NUL in the path',
    () => Buffer.from(`GET /a\u0000b HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`, 'latin1'),
    400,
    'INVALID_FIELD',
  ],
  [
    'a raw NUL in a header value',
    () => Buffer.from(`GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}X-A: a\u0000b${CRLF}${CRLF}`, 'latin1'),
    400,
    'INVALID_FIELD',
  ],
  [
    'headers over the size limit',
    () => `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}X-Big: ${'a'.repeat(20_000)}${CRLF}${CRLF}`,
    431,
    'HEADERS_TOO_LARGE',
  ],
  [
    'a URL over the header size limit',
    () => `GET /${'a'.repeat(20_000)} HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`,
    431,
    'HEADERS_TOO_LARGE',
  ],
  [
    'Content-Length and Transfer-Encoding together (request smuggling)',
    () =>
      `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: 4${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}0${CRLF}${CRLF}`,
    400,
    'INVALID_FIELD',
  ],
  [
    'two different Content-Lengths',
    () => `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: 2${CRLF}Content-Length: 3${CRLF}${CRLF}{}`,
    400,
    'INVALID_FIELD',
  ],
  [
    'a malformed chunk size',
    () =>
      `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}zz${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    400,
    'INVALID_FIELD',
  ],
  [
    'a chunked body that is not JSON',
    () =>
      `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}3${CRLF}{"a${CRLF}0${CRLF}${CRLF}`,
    400,
    'INVALID_FIELD',
  ],
  [
    'an absolute-form URL naming another host',
    (t) => plainRequest('GET', `http://evil.example/admin/v1/businesses/${t.urlKey}`),
    'any',
  ],
  ['a double slash before a guarded path', () => plainRequest('GET', '//admin/v1/businesses'), 'any'],
  [
    'dot segments climbing out of the assets',
    () => plainRequest('GET', '/assets/../../package.json'),
    404,
    'NOT_FOUND',
  ],
  [
    'encoded dot segments climbing out of the assets',
    () => plainRequest('GET', '/assets/%2e%2e/%2e%2e/package.json'),
    404,
    'NOT_FOUND',
  ],
  [
    'raw UTF-8 bytes in the path',
    (t) =>
      Buffer.concat([
        Buffer.from(`GET /api/v1/businesses/${t.urlKey}/clients/`),
        Buffer.from('ü€😀', 'utf8'),
        Buffer.from(` HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`),
      ]),
    400,
    'INVALID_FIELD',
  ],
  [
    'invalid UTF-8 bytes in the path',
    (t) =>
      Buffer.concat([
        Buffer.from(`GET /api/v1/businesses/${t.urlKey}/clients/`),
        Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
        Buffer.from(` HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`),
      ]),
    'any',
  ],
  [
    'a stray percent sign in the path',
    (t) => plainRequest('GET', `/api/v1/businesses/${t.urlKey}/clients/%%%`),
    400,
    'INVALID_FIELD',
  ],
  ['an asterisk-form request target', () => plainRequest('OPTIONS', '*'), 'any'],
  ['HTTP/1.0 without a Host header', () => `GET /healthz HTTP/1.0${CRLF}${CRLF}`, 200],
  [
    'a body declared far over the limit is refused before it is read',
    () =>
      `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: 999999999${CRLF}${CRLF}{`,
    413,
    'PAYLOAD_TOO_LARGE',
  ],
  [
    'a JSON body that is not UTF-8',
    () =>
      Buffer.concat([
        Buffer.from(
          `POST /authentication HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}Content-Type: application/json${CRLF}Content-Length: 6${CRLF}${CRLF}`,
        ),
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      ]),
    400,
    'INVALID_FIELD',
  ],
  [
    'two Authorization headers (ambiguous credentials count as none)',
    (t) =>
      `GET /api/v1/businesses/${t.urlKey}/pipelines HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}Authorization: Bearer ${t.token}${CRLF}Authorization: Bearer ${t.token}${CRLF}${CRLF}`,
    401,
  ],
  [
    'a folded (obsolete line-folding) Authorization header',
    (t) =>
      `GET /api/v1/businesses/${t.urlKey}/pipelines HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}Authorization: Bearer${CRLF} ${t.token}${CRLF}${CRLF}`,
    'any',
  ],
];

describe('hostile input on a real socket: refusals of the HTTP parser are in the envelope too', () => {
  let t: TestApp;
  let tenant: Tenant;
  let port = 0;
  const sent = new SentLog();

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    tenant = await seedTenant(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  it.each(CASES)('%s', async (name, make, status, code) => {
    const bytes = make(tenant);
    sent.add(bytes.toString());
    const answer = await rawExchange(port, [bytes], { waitMs: 3000 });
    expect(answer.status, `${name}: ${answer.raw.slice(0, 300)}`).toBeGreaterThan(0);
    expectSafeAnswer(answer, sent, name);
    if (status !== 'any') expect(answer.status, answer.raw.slice(0, 300)).toBe(status);
    if (code) expect(JSON.parse(answer.text).data.error.code).toBe(code);
  });

  it('afterwards the server is healthy and serves a right request', async () => {
    const health = await rawExchange(port, [plainRequest('GET', '/healthz')]);
    expect(health.status).toBe(200);
    const pipelines = await rawExchange(port, [
      plainRequest('GET', `/api/v1/businesses/${tenant.urlKey}/pipelines`, { authorization: `Bearer ${tenant.token}` }),
    ]);
    expect(pipelines.status).toBe(200);
    expect(JSON.parse(pipelines.text).data).toEqual([{ pipelines: [], stageReasons: [] }]);
  });
});
