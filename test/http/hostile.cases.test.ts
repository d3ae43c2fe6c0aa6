import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/app.js';
import { SentLog, expectSafeAnswer, sendRaw, type RawRequest } from '../helpers/hostile.js';
import { seedTenant, selfSignedToken, type Tenant } from '../helpers/seed.js';

const json = (token: string | undefined, body: unknown): Pick<RawRequest, 'headers' | 'payload'> => ({
  headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
  payload: JSON.stringify(body),
});
const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

type Case = [
  name: string,
  request: (t: Tenant) => RawRequest | Promise<RawRequest>,
  status: number,
  code: string | null,
  field?: string,
];

/**
 * Requests that once answered 500 on PostgreSQL (NUL reaches the driver) or answered outside the
 * envelope (Fastify's own bad-URL body); each now has a fixed answer on both stores.
 */
const CASES: Case[] = [
  [
    'NUL in a clientId path segment is an unknown client',
    (t) => ({ method: 'GET', url: `/api/v1/businesses/${t.urlKey}/clients/a%00b`, ...auth(t.token) }),
    404,
    'CLIENT_NOT_FOUND',
  ],
  [
    'NUL in an operator urlKey is an unknown business',
    (t) => ({ method: 'GET', url: '/admin/v1/businesses/a%00b', ...auth(t.operator) }),
    404,
    'BUSINESS_NOT_FOUND',
  ],
  [
    'NUL in an operator urlKey (pipelines) is an unknown business',
    (t) => ({ method: 'GET', url: '/admin/v1/businesses/a%00b/pipelines', ...auth(t.operator) }),
    404,
    'BUSINESS_NOT_FOUND',
  ],
  [
    'NUL in an operator urlKey (custom fields) is an unknown business',
    (t) => ({ method: 'GET', url: '/admin/v1/businesses/a%00b/custom-fields', ...auth(t.operator) }),
    404,
    'BUSINESS_NOT_FOUND',
  ],
  [
    'NUL in an operator urlKey (client create) is an unknown business',
    (t) => ({
      method: 'POST',
      url: '/admin/v1/businesses/a%00b/clients',
      ...json(t.operator, { name: 'x', source: 'DASHBOARD' }),
    }),
    404,
    'BUSINESS_NOT_FOUND',
  ],
  [
    'NUL in an operator clientId is an unknown client',
    (t) => ({ method: 'GET', url: `/admin/v1/businesses/${t.urlKey}/clients/a%00b`, ...auth(t.operator) }),
    404,
    'CLIENT_NOT_FOUND',
  ],
  [
    'NUL in a clientId to archive is an unknown client',
    (t) => ({ method: 'POST', url: `/admin/v1/businesses/${t.urlKey}/clients/a%00b/archive`, ...auth(t.operator) }),
    404,
    'CLIENT_NOT_FOUND',
  ],
  [
    'NUL in an appId to rotate is an unknown app',
    (t) => ({ method: 'POST', url: '/admin/v1/apps/a%00b/rotate-secret', ...auth(t.operator) }),
    404,
    'APP_NOT_FOUND',
  ],
  [
    'NUL in an appId to rotate the key of is an unknown app',
    (t) => ({ method: 'POST', url: '/admin/v1/apps/a%00b/rotate-key', ...auth(t.operator) }),
    404,
    'APP_NOT_FOUND',
  ],
  [
    'NUL in an appId to attach is an unknown app',
    (t) => ({ method: 'PUT', url: `/admin/v1/apps/a%00b/businesses/${t.urlKey}`, ...auth(t.operator) }),
    404,
    'APP_NOT_FOUND',
  ],
  [
    'NUL in an app-secret appId is a failed sign-in like an unknown app',
    () => ({
      method: 'POST',
      url: '/authentication',
      ...json(undefined, { strategy: 'app-secret', appId: 'a\u0000b', appSecret: 'x' }),
    }),
    401,
    null,
  ],
  [
    'NUL in a login e-mail is a failed sign-in like an unknown e-mail',
    () => ({
      method: 'POST',
      url: '/authentication',
      ...json(undefined, { strategy: 'local', email: 'a\u0000b@example.com', password: 'x' }),
    }),
    401,
    null,
  ],
  [
    'a lone surrogate in an app-secret appId is a failed sign-in',
    () => ({
      method: 'POST',
      url: '/authentication',
      ...json(undefined, { strategy: 'app-secret', appId: 'app_\ud800', appSecret: 'x' }),
    }),
    401,
    null,
  ],
  [
    'NUL in the iss of a self-signed token is a 401',
    async (t) => ({
      method: 'GET',
      url: `/api/v1/businesses/${t.urlKey}/pipelines`,
      ...auth(await selfSignedToken(t, { iss: 'a\u0000b', appId: 'a\u0000b' })),
    }),
    401,
    null,
  ],
  [
    'NUL in a business name is refused',
    (t) => ({ method: 'POST', url: '/admin/v1/businesses', ...json(t.operator, { name: 'a\u0000b', country: 'IN' }) }),
    400,
    'INVALID_FIELD_VALUE',
    'name',
  ],
  [
    'a lone surrogate in a business name is refused',
    (t) => ({ method: 'POST', url: '/admin/v1/businesses', ...json(t.operator, { name: 'a\udc00b', country: 'IN' }) }),
    400,
    'INVALID_FIELD_VALUE',
    'name',
  ],
  [
    'NUL in a renamed business is refused',
    (t) => ({ method: 'PATCH', url: `/admin/v1/businesses/${t.urlKey}`, ...json(t.operator, { name: '\u0000' }) }),
    400,
    'INVALID_FIELD_VALUE',
    'name',
  ],
  [
    'NUL in an app name is refused',
    (t) => ({ method: 'POST', url: '/admin/v1/apps', ...json(t.operator, { name: 'a\u0000b' }) }),
    400,
    'INVALID_FIELD_VALUE',
    'name',
  ],
  [
    'NUL in a new operator e-mail is refused',
    (t) => ({
      method: 'POST',
      url: '/admin/v1/operators',
      ...json(t.operator, { email: 'a\u0000b@example.com', password: 'long-enough-password' }),
    }),
    400,
    'INVALID_FIELD_VALUE',
    'email',
  ],
  [
    'NUL in a custom field name is refused',
    (t) => ({
      method: 'PUT',
      url: `/admin/v1/businesses/${t.urlKey}/custom-fields`,
      ...json(t.operator, { fields: [{ name: 'a\u0000', type: 'TEXT' }] }),
    }),
    400,
    'INVALID_FIELD_VALUE',
    'fields[0].name',
  ],
  [
    'a lone surrogate in a SELECT option is refused',
    (t) => ({
      method: 'PUT',
      url: `/admin/v1/businesses/${t.urlKey}/custom-fields`,
      ...json(t.operator, { fields: [{ name: 'Tier', type: 'SELECT', options: ['\ud800'] }] }),
    }),
    400,
    'INVALID_FIELD_VALUE',
    'fields[0].options',
  ],
  [
    'a path that is not valid UTF-8 percent-encoding is a 400 in the envelope',
    (t) => ({ method: 'GET', url: `/api/v1/businesses/${t.urlKey}/clients/%ED%A0%80`, ...auth(t.token) }),
    400,
    'INVALID_FIELD',
  ],
  [
    'a stray % in the path is a 400 in the envelope',
    () => ({ method: 'GET', url: '/api/v1/businesses/%/pipelines' }),
    400,
    'INVALID_FIELD',
  ],
  [
    'a path segment longer than any key matches no route',
    (t) => ({ method: 'GET', url: `/api/v1/businesses/${t.urlKey}/clients/${'a'.repeat(3000)}`, ...auth(t.token) }),
    404,
    'NOT_FOUND',
  ],
];

describeEachStore('hostile input: fixed cases, never a 500 and always the envelope', (ctx) => {
  let tenant: Tenant;
  const sent = new SentLog();
  beforeAll(async () => {
    tenant = await seedTenant(ctx().app);
  });

  it.each(CASES)('%s', async (name, make, status, code, field) => {
    const answer = await sendRaw(ctx().app, await make(tenant), sent);
    expectSafeAnswer(answer, sent, name);
    expect(answer.status).toBe(status);
    if (code === null) expect(answer.json.name).toBe('NotAuthenticated');
    else expect(answer.json.data.error.code).toBe(code);
    if (field) expect(answer.json.data.error.errors[0].field).toBe(field);
    // The message never repeats a path the caller sent.
    expect(answer.json.message).not.toContain('%');
  });
});
