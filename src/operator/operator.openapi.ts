import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema } from '../validation/read-body.js';
import { BUSINESS_PATCH_RULES, NEW_BUSINESS_RULES } from './businesses.service.js';
import { NEW_OPERATOR_RULES } from './operators.service.js';
import { NEW_APP_RULES, PASSWORD_CHANGE_RULES } from './operator.inputs.js';

/** The operator API's named schemas in the OpenAPI document (operations: operator.routes.ts). */

const text: JsonSchema = { type: 'string' };
const once = (what: string): JsonSchema => ({
  type: 'string',
  description: `${what} Shown once, never again: store it now.`,
});

export const OPERATOR_SCHEMAS: Record<string, JsonSchema> = {
  BusinessInput: bodyJsonSchema(NEW_BUSINESS_RULES, 'A new business.'),
  BusinessPatch: bodyJsonSchema(BUSINESS_PATCH_RULES, 'What changes; country and urlKey cannot.'),
  Business: closedObject(
    {
      urlKey: text,
      name: text,
      country: text,
      currency: text,
      customFieldsEnabled: { type: 'boolean' },
      timeZone: {
        type: 'string',
        description: "IANA time zone, as the time zone database spells it: the one set, else the country's default.",
      },
      locale: {
        type: 'string',
        description:
          "BCP 47 tag the business's amounts and dates are written in (en-IN: ₹11,23,000.00, 26 Nov 2026): its " +
          "country's document locale, en-US for a country with none. Derived from the country; not settable.",
      },
      isArchived: {
        type: 'boolean',
        description: 'Archived: apps get 403 PERMISSION_DENIED on it; data and urlKey are kept.',
      },
      archivedAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'When it was archived; null while live.',
      },
    },
    ['urlKey', 'name', 'country', 'currency', 'customFieldsEnabled', 'timeZone', 'locale', 'isArchived', 'archivedAt'],
  ),
  AppInput: bodyJsonSchema(NEW_APP_RULES, 'A new app.'),
  AppCreated: closedObject(
    {
      appId: text,
      name: text,
      appSecret: once('For strategy app-secret.'),
      privateKeyPem: once("PKCS#8 PEM of the app's ECDSA P-256 key, for self-signed tokens."),
      audience: { type: 'string', description: 'The aud claim self-signed tokens must carry.' },
    },
    ['appId', 'name', 'appSecret', 'privateKeyPem', 'audience'],
  ),
  App: closedObject(
    {
      appId: text,
      name: text,
      businesses: { type: 'array', items: text, description: 'urlKeys the app is attached to.' },
      archivedBusinesses: {
        type: 'array',
        items: text,
        description: 'Those of businesses that are archived: the app gets 403 on them until restored.',
      },
      createdAt: { type: 'string', format: 'date-time' },
      isArchived: { type: 'boolean', description: 'Archived: none of its tokens or its secret work until restored.' },
      archivedAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'When it was archived; null while live.',
      },
      lastUsedAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description:
          'When the app last got a token or used one; written at most once a minute per app and server process, so up to a minute behind. Null: never used.',
      },
    },
    ['appId', 'name', 'businesses', 'archivedBusinesses', 'createdAt', 'isArchived', 'archivedAt', 'lastUsedAt'],
  ),
  SecretRotated: closedObject(
    { appId: text, appSecret: once('The new secret; the old one and tokens issued with it stop working.') },
    ['appId', 'appSecret'],
  ),
  KeyRotated: closedObject(
    {
      appId: text,
      privateKeyPem: once('The new private key; tokens signed with the old one stop working.'),
      audience: text,
    },
    ['appId', 'privateKeyPem', 'audience'],
  ),
  OperatorInput: bodyJsonSchema(NEW_OPERATOR_RULES, 'A new operator account.'),
  Operator: closedObject({ email: text }, ['email']),
  OperatorListed: closedObject(
    {
      email: text,
      createdAt: { type: 'string', format: 'date-time' },
      isCurrent: { type: 'boolean', description: 'The account of the session that asked.' },
    },
    ['email', 'createdAt', 'isCurrent'],
  ),
  PasswordChange: bodyJsonSchema(PASSWORD_CHANGE_RULES, 'The current password and the new one.'),
  PasswordChanged: closedObject(
    {
      accessToken: {
        type: 'string',
        description: 'A new session for the caller: every other session of this operator has ended.',
      },
      expiresAt: { type: 'string', format: 'date-time' },
      user: closedObject({ email: text }, ['email']),
    },
    ['accessToken', 'expiresAt', 'user'],
  ),
  AuditPage: closedObject(
    {
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      hasMore: { type: 'boolean' },
      entries: {
        type: 'array',
        description: 'Newest first.',
        items: closedObject(
          {
            at: { type: 'string', format: 'date-time' },
            operator: { type: 'string', description: "The operator's e-mail." },
            action: { type: 'string', description: 'What was done, like app.create.' },
            business: { type: ['string', 'null'], description: 'The urlKey concerned, if any.' },
            detail: { type: 'object' },
          },
          ['at', 'operator', 'action', 'business', 'detail'],
        ),
      },
    },
    ['page', 'pageSize', 'hasMore', 'entries'],
  ),
};
