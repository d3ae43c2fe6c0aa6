import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { feature } from '../feature.js';
import { ref, type ApiSection } from '../openapi/operation.js';
import { AUTH_SCHEMAS } from './auth.openapi.js';
import { bearerToken } from './bearer.js';
import { parseAuthenticationBody, type AuthService } from './auth.service.js';

/**
 * Published examples of this interface spell the type `application-json`, which is not a valid media
 * type to the parser: read it as application/json, on this route only.
 */
async function readMisspeltJsonType(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (typeof type === 'string' && /^application-json\s*(;|$)/i.test(type))
    request.headers['content-type'] = 'application/json';
}

/** POST /authentication: operator login, app-secret token, and validation of either app token kind. */
export const authApi: ApiSection<AuthService> = {
  tag: {
    name: 'Authentication',
    description: 'App tokens (app secret, issued or self-signed JWT) and operator sign-in.',
  },
  schemas: AUTH_SCHEMAS,
  operations: [
    {
      method: 'post',
      path: '/authentication',
      operationId: 'authenticate',
      guard: 'open',
      optionalBearer: 'appToken',
      summary: 'Create or validate a token',
      description:
        'One path, four uses selected by `strategy`. `app-token` and `app-iss-app-token` read the token from ' +
        '`Authorization: Bearer` and answer 200 with the same body when it is valid. `Content-Type` is required ' +
        '(`application-json`, as older examples spell it, is read as `application/json`). Failed sign-ins are counted ' +
        'per account and address: over the limit, 429 with `Retry-After`. The answer is not wrapped in `{success, data}`.',
      body: {
        required: true,
        schema: ref('AuthenticationRequest'),
        examples: {
          appSecret: {
            summary: 'Create an app token',
            value: {
              strategy: 'app-secret',
              appId: 'app_3kTq9w0cXb1sLm2e',
              appSecret: 'the app secret shown once in the dashboard',
            },
          },
          appToken: { summary: 'Validate an issued token (sent in Authorization)', value: { strategy: 'app-token' } },
          local: {
            summary: 'Operator sign-in',
            value: { strategy: 'local', email: 'admin@example.com', password: 'correct horse battery staple' },
          },
        },
      },
      answers: [
        {
          status: 200,
          description: 'The token and what it stands for.',
          schema: { oneOf: [ref('AppToken'), ref('OperatorSession')] },
        },
      ],
      errors: ['INVALID_FIELD_VALUE', 'TOO_MANY_REQUESTS'],
      errorExamples: {
        INVALID_FIELD_VALUE: {
          message: 'appSecret is required',
          errors: [{ field: 'appSecret', message: 'appSecret is required', code: 'INVALID_FIELD_VALUE' }],
        },
      },
      onRequest: readMisspeltJsonType,
      handler: (auth) => async (request, reply) => {
        if (!request.headers['content-type'])
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
        const body = parseAuthenticationBody(request.body);
        const address = request.ip;
        reply.header('cache-control', 'no-store');
        switch (body.strategy) {
          case 'local':
            return auth.login(body.email, body.password, address);
          case 'app-secret':
            return auth.tokenFromSecret(body.appId, body.appSecret, address);
          default:
            return auth.validate(body.strategy, bearerToken(request));
        }
      },
    },
  ],
};

export const authFeature = feature({ sections: [authApi], context: ({ services }) => services.auth });
