import type { FastifyRequest } from 'fastify';
import { feature } from '../feature.js';
import { PAGING, readPaging } from '../http/paging.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection, type Operation } from '../openapi/operation.js';
import type { Services } from '../services.js';
import { COUNTRY_CHOICES } from '../validation/countries.js';
import { bodyJsonSchema, EMPTY_BODY, readBody } from '../validation/read-body.js';
import { readBusinessPatch, readNewBusiness } from './businesses.service.js';
import { NEW_APP_RULES, PASSWORD_CHANGE_RULES, readIncludeArchived } from './operator.inputs.js';
import { OPERATOR_SCHEMAS } from './operator.openapi.js';
import { readNewOperator } from './operators.service.js';

const operation = operationsOf<Services>();

const urlKey = { urlKey: 'The business key.' };
const appId = { appId: "The app's id." };
const bodyless = { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') };
const includeArchived = (what: string) => [
  {
    name: 'includeArchived',
    description: `true also lists archived ${what}.`,
    schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
  },
];
/** Archive and restore of businesses and apps: every change is audited. */
const lifecycle = (
  kind: 'business' | 'app',
  verb: 'archive' | 'restore',
  description: string,
): Operation<Services> => ({
  method: 'post',
  guard: 'operator',
  body: bodyless,
  description,
  path: kind === 'business' ? `/admin/v1/businesses/:urlKey/${verb}` : `/admin/v1/apps/:appId/${verb}`,
  pathParams: kind === 'business' ? urlKey : appId,
  operationId: `${verb}${kind === 'business' ? 'Business' : 'App'}`,
  summary: `${verb === 'archive' ? 'Archive' : 'Restore'} ${kind === 'business' ? 'a business' : 'an app'}`,
  answers: [
    { status: 200, description: `The ${kind}.`, schema: success(ref(kind === 'business' ? 'Business' : 'App')) },
  ],
  errors: [kind === 'business' ? 'BUSINESS_NOT_FOUND' : 'APP_NOT_FOUND'],
  handler: (s) =>
    kind === 'business'
      ? async (request: FastifyRequest<{ Params: { urlKey: string } }>) => {
          noBody(request);
          const { urlKey } = request.params;
          const line = s.audit.entryOf(request, `business.${verb}`, urlKey);
          return ok(await s.businesses.setArchived(urlKey, verb === 'archive', line));
        }
      : async (request: FastifyRequest<{ Params: { appId: string } }>) => {
          noBody(request);
          const { appId } = request.params;
          const line = s.audit.entryOf(request, `app.${verb}`, null, { appId });
          return ok(await s.apps.setArchived(appId, verb === 'archive', line));
        },
});
const keptSecret = {
  'Cache-Control': { description: 'no-store: the answer carries a secret.', schema: { const: 'no-store' } },
};

export const operatorApi: ApiSection<Services> = {
  tag: {
    name: 'Operator: businesses and apps',
    description: 'Businesses, apps, operators and the audit log; needs an operator session.',
  },
  schemas: OPERATOR_SCHEMAS,
  operations: [
    operation({
      method: 'post',
      path: '/admin/v1/businesses',
      operationId: 'createBusiness',
      guard: 'operator',
      summary: 'Create a business',
      body: {
        required: true,
        schema: ref('BusinessInput'),
        examples: {
          india: {
            summary: 'A business in India',
            value: { name: 'Asha Traders', country: 'IN', urlKey: 'asha-traders' },
          },
        },
      },
      answers: [{ status: 201, description: 'The business.', schema: success(ref('Business')) }],
      errors: ['INVALID_FIELD_VALUE', 'URL_KEY_TAKEN'],
      handler: (s) => async (request, reply) => {
        const line = s.audit.entryOf(request, 'business.create', null);
        const business = await s.businesses.create(readNewBusiness(request.body), line);
        return reply.code(201).send(ok(business));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/countries',
      operationId: 'listCountries',
      guard: 'operator',
      summary: 'List the countries a business can be in',
      description:
        'Every ISO 3166-1 alpha-2 code the service accepts, with its English name, sorted by name: the choices of the business form.',
      answers: [
        {
          status: 200,
          description: 'The countries.',
          schema: success({
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'name'],
              properties: { code: { type: 'string', pattern: '^[A-Z]{2}$' }, name: { type: 'string' } },
            },
          }),
        },
      ],
      errors: ['INVALID_QUERY_FIELD'],
      handler: () => async (request) => {
        rejectQuery(request);
        return ok(COUNTRY_CHOICES);
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/businesses',
      operationId: 'listBusinesses',
      guard: 'operator',
      summary: 'List businesses',
      query: includeArchived('businesses'),
      answers: [
        {
          status: 200,
          description: 'Every business that is not archived (all with includeArchived=true).',
          schema: success({ type: 'array', items: ref('Business') }),
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
      handler: (s) => async (request) => ok(await s.businesses.list(readIncludeArchived(request.query))),
    }),
    lifecycle(
      'business',
      'archive',
      'Apps attached to it get 403 PERMISSION_DENIED on it, as if detached, within a second in every server process; its data, urlKey and attachments are kept. Archiving an archived business changes nothing.',
    ),
    lifecycle('business', 'restore', 'Attached apps get access again. Restoring a live business changes nothing.'),
    operation({
      method: 'get',
      path: '/admin/v1/businesses/:urlKey',
      operationId: 'getBusiness',
      guard: 'operator',
      compress: false,
      pathParams: urlKey,
      summary: 'Get a business',
      answers: [{ status: 200, description: 'The business.', schema: success(ref('Business')) }],
      errors: ['BUSINESS_NOT_FOUND'],
      handler: (s) => async (request) => ok(await s.businesses.get(request.params.urlKey)),
    }),
    operation({
      method: 'patch',
      path: '/admin/v1/businesses/:urlKey',
      operationId: 'updateBusiness',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Change a business',
      body: {
        required: true,
        schema: ref('BusinessPatch'),
        examples: { enable: { summary: 'Turn custom fields on', value: { customFieldsEnabled: true } } },
      },
      answers: [{ status: 200, description: 'The business as changed.', schema: success(ref('Business')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: (s) => async (request) => {
        const { urlKey } = request.params;
        const patch = readBusinessPatch(request.body);
        const line = s.audit.entryOf(request, 'business.update', urlKey, {
          fields: Object.keys(request.body as object),
        });
        return ok(await s.businesses.update(urlKey, patch, line));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/apps',
      operationId: 'createApp',
      guard: 'operator',
      summary: 'Create an app (secret and key shown once)',
      body: {
        required: true,
        schema: ref('AppInput'),
        examples: { storefront: { summary: 'An app', value: { name: 'Storefront' } } },
      },
      answers: [
        {
          status: 201,
          description: 'The app with its secret and private key.',
          schema: success(ref('AppCreated')),
          headers: keptSecret,
        },
      ],
      errors: ['INVALID_FIELD_VALUE'],
      handler: (s) => async (request, reply) => {
        const { name } = readBody<{ name: string }>(request.body, NEW_APP_RULES);
        const created = await s.apps.create(name.trim(), s.audit.entryOf(request, 'app.create', null));
        return reply.header('cache-control', 'no-store').code(201).send(ok(created));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/apps',
      operationId: 'listApps',
      guard: 'operator',
      summary: 'List apps (no secrets)',
      query: includeArchived('apps'),
      answers: [
        {
          status: 200,
          description:
            'Every app that is not archived (all with includeArchived=true), with the businesses it is attached to.',
          schema: success({ type: 'array', items: ref('App') }),
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
      handler: (s) => async (request) => ok(await s.apps.list(readIncludeArchived(request.query))),
    }),
    lifecycle(
      'app',
      'archive',
      'Its tokens and its secret stop working (401) at once, within a second in every server process; its key, secret and attachments are kept for a restore. Archiving an archived app changes nothing.',
    ),
    lifecycle(
      'app',
      'restore',
      'The same secret, key and attachments work again. Restoring a live app changes nothing.',
    ),
    operation({
      method: 'post',
      path: '/admin/v1/apps/:appId/rotate-secret',
      operationId: 'rotateAppSecret',
      guard: 'operator',
      pathParams: appId,
      summary: 'Issue a new app secret',
      body: bodyless,
      answers: [
        { status: 200, description: 'The new secret.', schema: success(ref('SecretRotated')), headers: keptSecret },
      ],
      errors: ['APP_NOT_FOUND'],
      handler: (s) => async (request, reply) => {
        noBody(request);
        const { appId } = request.params;
        const rotated = await s.apps.rotateSecret(
          appId,
          s.audit.entryOf(request, 'app.rotate-secret', null, { appId }),
        );
        return reply.header('cache-control', 'no-store').send(ok(rotated));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/apps/:appId/rotate-key',
      operationId: 'rotateAppKey',
      guard: 'operator',
      pathParams: appId,
      summary: 'Issue a new app key pair',
      body: bodyless,
      answers: [
        { status: 200, description: 'The new private key.', schema: success(ref('KeyRotated')), headers: keptSecret },
      ],
      errors: ['APP_NOT_FOUND'],
      handler: (s) => async (request, reply) => {
        noBody(request);
        const { appId } = request.params;
        const rotated = await s.apps.rotateKey(appId, s.audit.entryOf(request, 'app.rotate-key', null, { appId }));
        return reply.header('cache-control', 'no-store').send(ok(rotated));
      },
    }),
    operation({
      method: 'put',
      path: '/admin/v1/apps/:appId/businesses/:urlKey',
      operationId: 'attachApp',
      guard: 'operator',
      pathParams: { ...appId, ...urlKey },
      summary: 'Attach an app to a business',
      body: bodyless,
      answers: [{ status: 200, description: 'The app.', schema: success(ref('App')) }],
      errors: ['APP_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (s) => async (request) => {
        noBody(request);
        const { appId, urlKey } = request.params;
        return ok(await s.apps.attach(appId, urlKey, s.audit.entryOf(request, 'app.attach', urlKey, { appId })));
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/apps/:appId/businesses/:urlKey',
      operationId: 'detachApp',
      guard: 'operator',
      pathParams: { ...appId, ...urlKey },
      summary: 'Detach an app from a business',
      description: 'Its tokens get 403 PERMISSION_DENIED on that business from then on.',
      body: bodyless,
      answers: [{ status: 200, description: 'The app.', schema: success(ref('App')) }],
      errors: ['APP_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (s) => async (request) => {
        noBody(request);
        const { appId, urlKey } = request.params;
        return ok(await s.apps.detach(appId, urlKey, s.audit.entryOf(request, 'app.detach', urlKey, { appId })));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/operators',
      operationId: 'createOperator',
      guard: 'operator',
      summary: 'Add an operator',
      body: {
        required: true,
        schema: ref('OperatorInput'),
        examples: {
          second: {
            summary: 'A second operator',
            value: { email: 'ops@example.com', password: 'a long enough password' },
          },
        },
      },
      answers: [{ status: 201, description: 'The operator.', schema: success(ref('Operator')) }],
      errors: ['INVALID_FIELD_VALUE'],
      handler: (s) => async (request, reply) => {
        const { email, password } = readNewOperator(request.body);
        const created = await s.operators.create(email, password, s.audit.entryOf(request, 'operator.create', null));
        return reply.code(201).send(ok(created));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/operators',
      operationId: 'listOperators',
      guard: 'operator',
      summary: 'List operator accounts',
      answers: [
        {
          status: 200,
          description: 'Every operator account (never a password or its hash).',
          schema: success({ type: 'array', items: ref('OperatorListed') }),
        },
      ],
      errors: ['INVALID_QUERY_FIELD'],
      handler: (s) => async (request) => {
        rejectQuery(request);
        return ok(await s.operators.list(request.operator!.operatorId));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/operators/me/password',
      operationId: 'changeOwnPassword',
      guard: 'operator',
      summary: 'Change your own password',
      description:
        'The current password is checked like a sign-in (and counts toward its lockout). Every other session of this operator ends, within a second in every server process; the answer carries a new session for the caller.',
      body: {
        required: true,
        schema: ref('PasswordChange'),
        examples: {
          change: {
            summary: 'A new password',
            value: { currentPassword: 'the old password', newPassword: 'a new long password' },
          },
        },
      },
      answers: [
        {
          status: 200,
          description: 'A new session.',
          schema: success(ref('PasswordChanged')),
          headers: {
            'Cache-Control': {
              description: 'no-store: the answer carries a session token.',
              schema: { const: 'no-store' },
            },
          },
        },
      ],
      errors: ['INVALID_FIELD_VALUE', 'TOO_MANY_REQUESTS'],
      handler: (s) => async (request, reply) => {
        const { currentPassword, newPassword } = readBody<{ currentPassword: string; newPassword: string }>(
          request.body,
          PASSWORD_CHANGE_RULES,
        );
        const session = await s.auth.changeOperatorPassword(
          request.operator!.operatorId,
          currentPassword,
          newPassword,
          request.ip,
          s.audit.entryOf(request, 'operator.change-password', null),
        );
        return reply.header('cache-control', 'no-store').send(ok(session));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/audit',
      operationId: 'listAudit',
      guard: 'operator',
      summary: 'Read the audit log',
      query: [
        {
          name: 'page',
          description: 'Page number from 1.',
          schema: { type: 'integer', minimum: 1, maximum: PAGING.page.max, default: PAGING.page.fallback },
        },
        {
          name: 'pageSize',
          description: 'Entries per page.',
          schema: { type: 'integer', minimum: 1, maximum: PAGING.pageSize.max, default: PAGING.pageSize.fallback },
        },
      ],
      answers: [{ status: 200, description: 'One page, newest first.', schema: success(ref('AuditPage')) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE'],
      handler: (s) => async (request) => {
        const { page, pageSize } = readPaging(request.query as Record<string, string>);
        return ok(await s.audit.list(page, pageSize));
      },
    }),
  ],
};

/** Businesses, apps, operators and the audit log, under the operator guard; every change is audited. */
export const operatorFeature = feature({ sections: [operatorApi], context: ({ services }) => services });
