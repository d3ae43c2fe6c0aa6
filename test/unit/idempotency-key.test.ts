import { describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import {
  canonicalJson,
  fingerprintOf,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  readIdempotencyKey,
  routeOf,
} from '../../src/http/idempotency-key.js';
import { openApiDocumentOf } from '../../src/openapi/openapi.routes.js';
import type { ApiSection } from '../../src/openapi/operation.js';
import { withAssigned } from '../../src/storage/idempotency-keys.store.js';

const header = (...values: string[]) => values.flatMap((v) => ['Idempotency-Key', v]);

describe('4.2 rule 1: reading the Idempotency-Key header', () => {
  it.each([
    ['plain', 'order-1', 'order-1'],
    ['one pair of quotes removed', '"order-1"', 'order-1'],
    ['only one pair removed', '""order-1""', '"order-1"'],
    ['a lone quote is a key', '"', '"'],
    ['an unbalanced quote stays', '"order-1', '"order-1'],
    ['spaces and commas inside', 'a, b c', 'a, b c'],
    ['every printable ASCII character', ' !~', ' !~'],
    ['255 characters', 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH), 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH)],
    [
      '255 characters within quotes',
      `"${'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH)}"`,
      'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH),
    ],
  ])('%s', (_label, sent, key) => {
    expect(readIdempotencyKey(header(sent))).toBe(key);
  });

  it.each([
    ['empty', ''],
    ['empty quotes', '""'],
    ['256 characters', 'k'.repeat(256)],
    ['256 within quotes', `"${'k'.repeat(256)}"`],
    ['a tab', 'a\tb'],
    ['a control character', 'a\u0001b'],
    ['DEL', 'a\u007fb'],
    ['latin-1', 'clé'],
    ['beyond latin-1', 'k€y'],
  ])('%s: malformed', (_label, sent) => {
    expect(readIdempotencyKey(header(sent))).toEqual({ refused: 'malformed' });
  });

  it('absent: no key; any spelling of the name counts; repeated (even equal): refused', () => {
    expect(readIdempotencyKey(['Content-Type', 'application/json'])).toBeUndefined();
    expect(readIdempotencyKey(['IDEMPOTENCY-KEY', 'a'])).toBe('a');
    expect(readIdempotencyKey([...header('a'), 'idempotency-key', 'a'])).toEqual({ refused: 'repeated' });
  });
});

describe('4.2 rule 2: the fingerprint', () => {
  const route = { route: routeOf('post', '/api/v1/businesses/:urlKey/invoices'), params: { urlKey: 'acme' } };
  const fp = (body: unknown, identity = route) => fingerprintOf(identity, body);

  it('member order and whitespace are ignored', () => {
    const a = JSON.parse('{"a":1,"b":{"c":[1,2],"d":"x"}}');
    const b = JSON.parse('{ "b" : { "d" : "x" , "c" : [ 1 , 2 ] } ,\n\t"a" : 1 }');
    expect(fp(a)).toBe(fp(b));
    expect(canonicalJson(b)).toBe('{"a":1,"b":{"c":[1,2],"d":"x"}}');
  });

  it('a body of 10,000 nested arrays or objects is written without overflowing the stack', () => {
    const arrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(canonicalJson(JSON.parse(arrays))).toBe(arrays);
    const objects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    expect(canonicalJson(JSON.parse(objects))).toBe(objects);
  });

  it.each([
    ['18', '18.0'],
    ['18', '1.8e1'],
    ['18', '180e-1'],
    ['0.1', '1e-1'],
    ['0', '-0'],
    ['1000000', '1E6'],
    ['12.10', '12.1'],
  ])('numbers by value: %s = %s', (x, y) => {
    expect(fp(JSON.parse(`{"n":${x}}`))).toBe(fp(JSON.parse(`{"n":${y}}`)));
  });

  it.each([
    ['another number', { n: 18 }, { n: 18.01 }],
    ['a number and its text', { n: 18 }, { n: '18' }],
    ['arrays keep their order', { l: [1, 2] }, { l: [2, 1] }],
    ['null and absent member', { a: null }, {}],
    ['another string', { s: 'a' }, { s: 'A' }],
  ])('%s differ', (_label, x, y) => {
    expect(fp(x)).not.toBe(fp(y));
  });

  it('no body and a null body differ', () => {
    expect(fp(undefined)).not.toBe(fp(null));
  });

  it('the route: an unprefixed alias is the same route; another method, template or path value is not', () => {
    const alias = { route: routeOf('post', '/businesses/:urlKey/invoices'), params: { urlKey: 'acme' } };
    expect(fp({ a: 1 }, alias)).toBe(fp({ a: 1 }));
    expect(fp({ a: 1 }, { ...route, params: { urlKey: 'other' } })).not.toBe(fp({ a: 1 }));
    expect(fp({ a: 1 }, { ...route, route: routeOf('put', '/api/v1/businesses/:urlKey/invoices') })).not.toBe(
      fp({ a: 1 }),
    );
    expect(fp({ a: 1 }, { ...route, route: routeOf('post', '/api/v1/businesses/:urlKey/clients') })).not.toBe(
      fp({ a: 1 }),
    );
  });
});

describe('4.2 in /openapi.json: an operation with idempotencyKey', () => {
  const section: ApiSection<never> = {
    tag: { name: 'T', description: 'T' },
    operations: [
      {
        method: 'post',
        path: '/api/v1/businesses/:urlKey/things',
        operationId: 't',
        summary: 't',
        guard: 'app',
        idempotencyKey: true,
        pathParams: { urlKey: 'u' },
        answers: [{ status: 201, description: 'made', schema: { type: 'object' } }],
        handler: () => async () => ({}),
      },
    ],
  };
  const document = openApiDocumentOf([section], { config: testConfig({ idempotencyKeyRetentionHours: 48 }) }) as any;
  const op = document.paths['/api/v1/businesses/{urlKey}/things'].post;

  it('takes the header, with the configured retention in its description', () => {
    const parameter = op.parameters.find((p: { in: string }) => p.in === 'header');
    expect(parameter.name).toBe('Idempotency-Key');
    expect(parameter.description).toContain('kept 48 hours');
  });

  it('documents Idempotent-Replayed on the success, the three codes, and Retry-After on the 409', () => {
    expect(Object.keys(op.responses['201'].headers)).toEqual(['Idempotent-Replayed']);
    expect(Object.keys(op.responses['400'].content['application/json'].examples)).toContain('INVALID_IDEMPOTENCY_KEY');
    expect(Object.keys(op.responses['409'].content['application/json'].examples)).toEqual([
      'IDEMPOTENCY_CONFLICT',
      'IDEMPOTENCY_IN_PROGRESS',
    ]);
    expect(op.responses['409'].headers['Retry-After']).toBeDefined();
  });
});

describe('members a store assigns inside its transaction', () => {
  it('replace the member where it stands, so the kept text and the answered text are one', () => {
    const presented = { _id: 'a', invoiceNumber: '', total: 236 };
    expect(JSON.stringify(withAssigned(presented, { invoiceNumber: 'INV-0002' }))).toBe(
      '{"_id":"a","invoiceNumber":"INV-0002","total":236}',
    );
    expect(withAssigned(presented)).toBe(presented);
  });
});
