import { ref, type DocSection } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { AUTHENTICATION_SHAPES, CREDENTIAL_MAX_LENGTH } from './auth.service.js';

/** POST /authentication in the OpenAPI document; its body is built from the parser's own table of strategies. */

const PURPOSE: Record<keyof typeof AUTHENTICATION_SHAPES, string> = {
  local: 'Operator sign-in: answers a user session token for /admin/v1.',
  'app-secret': 'Create an app token from the app\'s id and secret.',
  'app-token': 'Validate an issued app token sent in Authorization.',
  'app-iss-app-token': 'Validate a self-signed app token sent in Authorization.',
};

function strategyBody(strategy: keyof typeof AUTHENTICATION_SHAPES, members: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = { strategy: { const: strategy } };
  for (const member of members) properties[member] = { type: 'string', minLength: 1, maxLength: CREDENTIAL_MAX_LENGTH };
  return { title: strategy, description: PURPOSE[strategy], type: 'object', additionalProperties: false, required: ['strategy', ...members], properties };
}

const strategies = Object.keys(AUTHENTICATION_SHAPES) as (keyof typeof AUTHENTICATION_SHAPES)[];
const text = { type: 'string' };
const expiresAt = { type: 'string', format: 'date-time', description: 'When the token expires (ISO 8601).' };

export const authApi: DocSection = {
  tag: { name: 'Authentication', description: 'App tokens (app secret, issued or self-signed JWT) and operator sign-in.' },
  schemas: {
    AuthenticationRequest: { oneOf: strategies.map((s) => strategyBody(s, AUTHENTICATION_SHAPES[s])), description: 'One body per strategy.' },
    AppToken: {
      type: 'object', additionalProperties: false, required: ['accessToken', 'name', 'appId', 'expiresAt', 'authentication'],
      properties: {
        accessToken: { type: 'string', description: 'The JWT to send as Authorization: Bearer. For validation, the token sent.' },
        name: { type: 'string', description: 'The app\'s name.' }, appId: text, expiresAt,
        authentication: {
          type: 'object', additionalProperties: false, required: ['strategy', 'payload'],
          properties: { strategy: { enum: ['app-secret', 'app-token', 'app-iss-app-token'] }, payload: { type: 'object', description: 'The token\'s claims.' } },
        },
      },
    },
    OperatorSession: {
      type: 'object', additionalProperties: false, required: ['accessToken', 'expiresAt', 'authentication', 'user'],
      properties: {
        accessToken: text, expiresAt,
        authentication: { type: 'object', additionalProperties: false, required: ['strategy', 'payload'], properties: { strategy: { const: 'local' }, payload: { type: 'object' } } },
        user: { type: 'object', additionalProperties: false, required: ['email'], properties: { email: text } },
      },
    },
  },
  operations: [{
    method: 'post', path: '/authentication', operationId: 'authenticate', guard: 'open', optionalBearer: 'appToken',
    summary: 'Create or validate a token',
    description: 'One path, four uses selected by `strategy`. `app-token` and `app-iss-app-token` read the token from '
      + '`Authorization: Bearer` and answer 200 with the same body when it is valid. `Content-Type` is required '
      + '(`application-json`, as older examples spell it, is read as `application/json`). Failed sign-ins are counted '
      + 'per account and address: over the limit, 429 with `Retry-After`. The answer is not wrapped in `{success, data}`.',
    body: {
      required: true, schema: ref('AuthenticationRequest'),
      examples: {
        appSecret: { summary: 'Create an app token', value: { strategy: 'app-secret', appId: 'app_3kTq9w0cXb1sLm2e', appSecret: 'the app secret shown once in the dashboard' } },
        appToken: { summary: 'Validate an issued token (sent in Authorization)', value: { strategy: 'app-token' } },
        local: { summary: 'Operator sign-in', value: { strategy: 'local', email: 'admin@example.com', password: 'correct horse battery staple' } },
      },
    },
    answers: [{ status: 200, description: 'The token and what it stands for.', schema: { oneOf: [ref('AppToken'), ref('OperatorSession')] } }],
    errors: ['INVALID_FIELD_VALUE', 'TOO_MANY_REQUESTS'],
    errorExamples: {
      INVALID_FIELD_VALUE: {
        message: 'appSecret is required',
        errors: [{ field: 'appSecret', message: 'appSecret is required', code: 'INVALID_FIELD_VALUE' }],
      },
    },
  }],
};
