import type { JsonSchema } from '../validation/json-schema.js';
import { AUTHENTICATION_SHAPES, CREDENTIAL_MAX_LENGTH } from './auth.service.js';

/** The named schemas of POST /authentication in the OpenAPI document, its body built from the parser's own table of strategies (operation: auth.routes.ts). */

const PURPOSE: Record<keyof typeof AUTHENTICATION_SHAPES, string> = {
  local: 'Operator sign-in: answers a user session token for /admin/v1.',
  'app-secret': "Create an app token from the app's id and secret.",
  'app-token': 'Validate an issued app token sent in Authorization.',
  'app-iss-app-token': 'Validate a self-signed app token sent in Authorization.',
};

function strategyBody(strategy: keyof typeof AUTHENTICATION_SHAPES, members: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = { strategy: { const: strategy } };
  for (const member of members) properties[member] = { type: 'string', minLength: 1, maxLength: CREDENTIAL_MAX_LENGTH };
  return {
    title: strategy,
    description: PURPOSE[strategy],
    type: 'object',
    additionalProperties: false,
    required: ['strategy', ...members],
    properties,
  };
}

const strategies = Object.keys(AUTHENTICATION_SHAPES) as (keyof typeof AUTHENTICATION_SHAPES)[];
const text = { type: 'string' };
const expiresAt = { type: 'string', format: 'date-time', description: 'When the token expires (ISO 8601).' };

export const AUTH_SCHEMAS: Record<string, JsonSchema> = {
  AuthenticationRequest: {
    oneOf: strategies.map((s) => strategyBody(s, AUTHENTICATION_SHAPES[s])),
    description: 'One body per strategy.',
  },
  AppToken: {
    type: 'object',
    additionalProperties: false,
    required: ['accessToken', 'name', 'appId', 'expiresAt', 'authentication'],
    properties: {
      accessToken: {
        type: 'string',
        description: 'The JWT to send as Authorization: Bearer. For validation, the token sent.',
      },
      name: { type: 'string', description: "The app's name." },
      appId: text,
      expiresAt,
      authentication: {
        type: 'object',
        additionalProperties: false,
        required: ['strategy', 'payload'],
        properties: {
          strategy: { enum: ['app-secret', 'app-token', 'app-iss-app-token'] },
          payload: { type: 'object', description: "The token's claims." },
        },
      },
    },
  },
  OperatorSession: {
    type: 'object',
    additionalProperties: false,
    required: ['accessToken', 'expiresAt', 'authentication', 'user'],
    properties: {
      accessToken: text,
      expiresAt,
      authentication: {
        type: 'object',
        additionalProperties: false,
        required: ['strategy', 'payload'],
        properties: { strategy: { const: 'local' }, payload: { type: 'object' } },
      },
      user: { type: 'object', additionalProperties: false, required: ['email'], properties: { email: text } },
    },
  },
};
