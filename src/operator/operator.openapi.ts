import { ref, success, type DocSection, type OperationDoc } from '../openapi/operation.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { BUSINESS_PATCH_RULES, NEW_BUSINESS_RULES } from './businesses.service.js';
import { NEW_APP_RULES, PAGING } from './operator.routes.js';
import { NEW_OPERATOR_RULES } from './operators.service.js';
import { PASSWORD_CHANGE_RULES } from './lifecycle.routes.js';

/** The operator API (/admin/v1) in the OpenAPI document: businesses, apps, operators, the audit log. */

const text: JsonSchema = { type: 'string' };
const once = (what: string): JsonSchema => ({ type: 'string', description: `${what} Shown once, never again: store it now.` });

const SCHEMAS: Record<string, JsonSchema> = {
  BusinessInput: bodyJsonSchema(NEW_BUSINESS_RULES, 'A new business.'),
  BusinessPatch: bodyJsonSchema(BUSINESS_PATCH_RULES, 'What changes; country and urlKey cannot.'),
  Business: closedObject({
    urlKey: text, name: text, country: text, currency: text, customFieldsEnabled: { type: 'boolean' },
    timeZone: { type: 'string', description: 'IANA time zone: the one set, else the country\'s default.' },
    isArchived: { type: 'boolean', description: 'Archived: apps get 403 PERMISSION_DENIED on it; data and urlKey are kept.' },
    archivedAt: { type: ['string', 'null'], format: 'date-time', description: 'When it was archived; null while live.' },
  }, ['urlKey', 'name', 'country', 'currency', 'customFieldsEnabled', 'timeZone', 'isArchived', 'archivedAt']),
  AppInput: bodyJsonSchema(NEW_APP_RULES, 'A new app.'),
  AppCreated: closedObject({
    appId: text, name: text, appSecret: once('For strategy app-secret.'),
    privateKeyPem: once('PKCS#8 PEM of the app\'s ECDSA P-256 key, for self-signed tokens.'),
    audience: { type: 'string', description: 'The aud claim self-signed tokens must carry.' },
  }, ['appId', 'name', 'appSecret', 'privateKeyPem', 'audience']),
  App: closedObject({
    appId: text, name: text, businesses: { type: 'array', items: text, description: 'urlKeys the app is attached to.' },
    archivedBusinesses: { type: 'array', items: text, description: 'Those of businesses that are archived: the app gets 403 on them until restored.' },
    createdAt: { type: 'string', format: 'date-time' },
    isArchived: { type: 'boolean', description: 'Archived: none of its tokens or its secret work until restored.' },
    archivedAt: { type: ['string', 'null'], format: 'date-time', description: 'When it was archived; null while live.' },
    lastUsedAt: {
      type: ['string', 'null'], format: 'date-time',
      description: 'When the app last got a token or used one; written at most once a minute per app and server process, so up to a minute behind. Null: never used.',
    },
  }, ['appId', 'name', 'businesses', 'archivedBusinesses', 'createdAt', 'isArchived', 'archivedAt', 'lastUsedAt']),
  SecretRotated: closedObject({ appId: text, appSecret: once('The new secret; the old one and tokens issued with it stop working.') }, ['appId', 'appSecret']),
  KeyRotated: closedObject({ appId: text, privateKeyPem: once('The new private key; tokens signed with the old one stop working.'), audience: text }, ['appId', 'privateKeyPem', 'audience']),
  OperatorInput: bodyJsonSchema(NEW_OPERATOR_RULES, 'A new operator account.'),
  Operator: closedObject({ email: text }, ['email']),
  OperatorListed: closedObject({
    email: text, createdAt: { type: 'string', format: 'date-time' }, isCurrent: { type: 'boolean', description: 'The account of the session that asked.' },
  }, ['email', 'createdAt', 'isCurrent']),
  PasswordChange: bodyJsonSchema(PASSWORD_CHANGE_RULES, 'The current password and the new one.'),
  PasswordChanged: closedObject({
    accessToken: { type: 'string', description: 'A new session for the caller: every other session of this operator has ended.' },
    expiresAt: { type: 'string', format: 'date-time' }, user: closedObject({ email: text }, ['email']),
  }, ['accessToken', 'expiresAt', 'user']),
  AuditPage: closedObject({
    page: { type: 'integer' }, pageSize: { type: 'integer' }, hasMore: { type: 'boolean' },
    entries: {
      type: 'array', description: 'Newest first.',
      items: closedObject({
        at: { type: 'string', format: 'date-time' }, operator: { type: 'string', description: 'The operator\'s e-mail.' }, action: { type: 'string', description: 'What was done, like app.create.' },
        business: { type: ['string', 'null'], description: 'The urlKey concerned, if any.' }, detail: { type: 'object' },
      }, ['at', 'operator', 'action', 'business', 'detail']),
    },
  }, ['page', 'pageSize', 'hasMore', 'entries']),
};

const urlKey = { urlKey: 'The business key.' };
const appId = { appId: 'The app\'s id.' };
const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };
const includeArchived = (what: string) => [{ name: 'includeArchived', description: `true also lists archived ${what}.`, schema: { type: 'string', enum: ['true', 'false'], default: 'false' } }];
const lifecycle = (kind: 'business' | 'app', verb: 'archive' | 'restore', description: string): OperationDoc => ({
  method: 'post', guard: 'operator', body: bodyless, description,
  path: kind === 'business' ? `/admin/v1/businesses/:urlKey/${verb}` : `/admin/v1/apps/:appId/${verb}`,
  pathParams: kind === 'business' ? urlKey : appId,
  operationId: `${verb}${kind === 'business' ? 'Business' : 'App'}`,
  summary: `${verb === 'archive' ? 'Archive' : 'Restore'} ${kind === 'business' ? 'a business' : 'an app'}`,
  answers: [{ status: 200, description: `The ${kind}.`, schema: success(ref(kind === 'business' ? 'Business' : 'App')) }],
  errors: [kind === 'business' ? 'BUSINESS_NOT_FOUND' : 'APP_NOT_FOUND'],
});
const keptSecret = { 'Cache-Control': { description: 'no-store: the answer carries a secret.', schema: { const: 'no-store' } } };

export const operatorApi: DocSection = {
  tag: { name: 'Operator: businesses and apps', description: 'Businesses, apps, operators and the audit log; needs an operator session.' },
  schemas: SCHEMAS,
  operations: [
    {
      method: 'post', path: '/admin/v1/businesses', operationId: 'createBusiness', guard: 'operator', summary: 'Create a business',
      body: { required: true, schema: ref('BusinessInput'), examples: { india: { summary: 'A business in India', value: { name: 'Asha Traders', country: 'IN', urlKey: 'asha-traders' } } } },
      answers: [{ status: 201, description: 'The business.', schema: success(ref('Business')) }],
      errors: ['INVALID_FIELD_VALUE', 'URL_KEY_TAKEN'],
    },
    {
      method: 'get', path: '/admin/v1/businesses', operationId: 'listBusinesses', guard: 'operator', summary: 'List businesses',
      query: includeArchived('businesses'),
      answers: [{ status: 200, description: 'Every business that is not archived (all with includeArchived=true).', schema: success({ type: 'array', items: ref('Business') }) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
    },
    lifecycle('business', 'archive', 'Apps attached to it get 403 PERMISSION_DENIED on it, as if detached, within a second in every server process; its data, urlKey and attachments are kept. Archiving an archived business changes nothing.'),
    lifecycle('business', 'restore', 'Attached apps get access again. Restoring a live business changes nothing.'),
    {
      method: 'get', path: '/admin/v1/businesses/:urlKey', operationId: 'getBusiness', guard: 'operator', pathParams: urlKey, summary: 'Get a business',
      answers: [{ status: 200, description: 'The business.', schema: success(ref('Business')) }],
      errors: ['BUSINESS_NOT_FOUND'],
    },
    {
      method: 'patch', path: '/admin/v1/businesses/:urlKey', operationId: 'updateBusiness', guard: 'operator', pathParams: urlKey, summary: 'Change a business',
      body: { required: true, schema: ref('BusinessPatch'), examples: { enable: { summary: 'Turn custom fields on', value: { customFieldsEnabled: true } } } },
      answers: [{ status: 200, description: 'The business as changed.', schema: success(ref('Business')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'post', path: '/admin/v1/apps', operationId: 'createApp', guard: 'operator', summary: 'Create an app (secret and key shown once)',
      body: { required: true, schema: ref('AppInput'), examples: { storefront: { summary: 'An app', value: { name: 'Storefront' } } } },
      answers: [{ status: 201, description: 'The app with its secret and private key.', schema: success(ref('AppCreated')), headers: keptSecret }],
      errors: ['INVALID_FIELD_VALUE'],
    },
    {
      method: 'get', path: '/admin/v1/apps', operationId: 'listApps', guard: 'operator', summary: 'List apps (no secrets)',
      query: includeArchived('apps'),
      answers: [{ status: 200, description: 'Every app that is not archived (all with includeArchived=true), with the businesses it is attached to.', schema: success({ type: 'array', items: ref('App') }) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
    },
    lifecycle('app', 'archive', 'Its tokens and its secret stop working (401) at once, within a second in every server process; its key, secret and attachments are kept for a restore. Archiving an archived app changes nothing.'),
    lifecycle('app', 'restore', 'The same secret, key and attachments work again. Restoring a live app changes nothing.'),
    {
      method: 'post', path: '/admin/v1/apps/:appId/rotate-secret', operationId: 'rotateAppSecret', guard: 'operator', pathParams: appId, summary: 'Issue a new app secret',
      body: bodyless, answers: [{ status: 200, description: 'The new secret.', schema: success(ref('SecretRotated')), headers: keptSecret }],
      errors: ['APP_NOT_FOUND'],
    },
    {
      method: 'post', path: '/admin/v1/apps/:appId/rotate-key', operationId: 'rotateAppKey', guard: 'operator', pathParams: appId, summary: 'Issue a new app key pair',
      body: bodyless, answers: [{ status: 200, description: 'The new private key.', schema: success(ref('KeyRotated')), headers: keptSecret }],
      errors: ['APP_NOT_FOUND'],
    },
    {
      method: 'put', path: '/admin/v1/apps/:appId/businesses/:urlKey', operationId: 'attachApp', guard: 'operator', pathParams: { ...appId, ...urlKey },
      summary: 'Attach an app to a business', body: bodyless,
      answers: [{ status: 200, description: 'The app.', schema: success(ref('App')) }],
      errors: ['APP_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'delete', path: '/admin/v1/apps/:appId/businesses/:urlKey', operationId: 'detachApp', guard: 'operator', pathParams: { ...appId, ...urlKey },
      summary: 'Detach an app from a business', description: 'Its tokens get 403 PERMISSION_DENIED on that business from then on.', body: bodyless,
      answers: [{ status: 200, description: 'The app.', schema: success(ref('App')) }],
      errors: ['APP_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
    },
    {
      method: 'post', path: '/admin/v1/operators', operationId: 'createOperator', guard: 'operator', summary: 'Add an operator',
      body: { required: true, schema: ref('OperatorInput'), examples: { second: { summary: 'A second operator', value: { email: 'ops@example.com', password: 'a long enough password' } } } },
      answers: [{ status: 201, description: 'The operator.', schema: success(ref('Operator')) }],
      errors: ['INVALID_FIELD_VALUE'],
    },
    {
      method: 'get', path: '/admin/v1/operators', operationId: 'listOperators', guard: 'operator', summary: 'List operator accounts',
      answers: [{ status: 200, description: 'Every operator account (never a password or its hash).', schema: success({ type: 'array', items: ref('OperatorListed') }) }],
      errors: ['INVALID_QUERY_FIELD'],
    },
    {
      method: 'post', path: '/admin/v1/operators/me/password', operationId: 'changeOwnPassword', guard: 'operator', summary: 'Change your own password',
      description: 'The current password is checked like a sign-in (and counts toward its lockout). Every other session of this operator ends, within a second in every server process; the answer carries a new session for the caller.',
      body: { required: true, schema: ref('PasswordChange'), examples: { change: { summary: 'A new password', value: { currentPassword: 'the old password', newPassword: 'a new long password' } } } },
      answers: [{ status: 200, description: 'A new session.', schema: success(ref('PasswordChanged')), headers: { 'Cache-Control': { description: 'no-store: the answer carries a session token.', schema: { const: 'no-store' } } } }],
      errors: ['INVALID_FIELD_VALUE', 'TOO_MANY_REQUESTS'],
    },
    {
      method: 'get', path: '/admin/v1/audit', operationId: 'listAudit', guard: 'operator', summary: 'Read the audit log',
      query: [
        { name: 'page', description: 'Page number from 1.', schema: { type: 'integer', minimum: 1, maximum: PAGING.page.max, default: PAGING.page.fallback } },
        { name: 'pageSize', description: 'Entries per page.', schema: { type: 'integer', minimum: 1, maximum: PAGING.pageSize.max, default: PAGING.pageSize.fallback } },
      ],
      answers: [{ status: 200, description: 'One page, newest first.', schema: success(ref('AuditPage')) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
    },
  ],
};
