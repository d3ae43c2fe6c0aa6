import { JSON_SCHEMA_DIALECT, type JsonSchema } from '../validation/json-schema.js';
import { errorResponses, errorSchemas } from './error-responses.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
} from '../http/idempotency-key.js';
import { openApiPath, pathParamNames, type AnswerDoc, type DocSection, type OperationDoc } from './operation.js';

export interface DocumentFacts {
  version: string;
  /** JWT_AUDIENCE: the `aud` self-signed tokens carry. */
  audience: string;
  /** IDEMPOTENCY_KEY_RETENTION_HOURS: how long an Idempotency-Key is kept. */
  idempotencyKeyHours: number;
  /** IDEMPOTENCY_KEY_LEASE_MS: how soon a key whose request died is forgotten. */
  idempotencyKeyLeaseMs: number;
}

const SECURITY_SCHEMES = (audience: string): Record<string, JsonSchema> => ({
  appToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An app token: issued by POST /authentication with strategy app-secret (valid one hour), or self-signed by the app ' +
      `with its private key: ES256, claims appId and iss (the app id), sub "AppAuth", aud "${audience}", iat, and exp at most one day after iat. ` +
      'The app must be attached to the business in the path.',
  },
  operatorSession: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A user session token from POST /authentication with strategy local; valid 12 hours; accepted on /admin/v1 only.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN setting, when the operator set one.',
  },
});

const DESCRIPTION = [
  'The HTTP/JSON interface of crmkit: app-token authentication, the read-only pipeline configuration of a business, idempotent',
  'client create and get, leads (idempotent create by externalId, edit, get, activity, lists) (the **Public interface**),',
  'invoices and their payments (create with an optional `Idempotency-Key`, find, sync, get, cancel; the PDF and share page), and the',
  'operator API under `/admin/v1` behind the dashboard.',
  '',
  'Bodies are JSON (`Content-Type: application/json`). Successes answer `{"success": true, "data": ...}`; failures answer the',
  'error envelope `{"success": false, "data": {"error": …}}`, whose stable code is `data.error.code` (401 and the 405s of client routes carry none). A 400 lists every',
  'failure in `data.error.errors`, each `{field, message, code}`, in body order. Unknown routes answer 404 NOT_FOUND.',
  'Every answer carries `X-Request-Id` (sent by the caller, or generated); quote it when reporting a problem.',
].join('\n');

/** The whole OpenAPI 3.1 document, from the features' sections. Throws on an inconsistent section, so a bad one fails at start. */
export function buildOpenApiDocument(sections: readonly DocSection[], facts: DocumentFacts): JsonSchema {
  const schemas: Record<string, JsonSchema> = errorSchemas();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const section of sections) {
    for (const [name, schema] of Object.entries(section.schemas ?? {})) {
      if (schemas[name]) throw new Error(`openapi: schema ${name} is defined twice`);
      schemas[name] = schema;
    }
    for (const op of section.operations) {
      const item = (paths[openApiPath(op.path)] ??= {});
      if (item[op.method]) throw new Error(`openapi: ${op.method.toUpperCase()} ${op.path} is described twice`);
      item[op.method] = operationObject(op, section.tag.name, facts);
    }
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'crmkit',
      version: facts.version,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: sections.map((section) => section.tag),
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES(facts.audience) },
  };
}

/** The Idempotency-Key header as a parameter of the operations that take it (invoices-interface 4.2). */
function idempotencyKeyParameter(facts: DocumentFacts): JsonSchema {
  return {
    in: 'header',
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description:
      `Makes the request safe to retry: 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters (one pair of surrounding quotes is removed), ` +
      `unique per request, kept ${facts.idempotencyKeyHours} hours from first use for the calling app and business. A retry with the same key, route and ` +
      `body (a JSON value: member order, whitespace and number spelling ignored) gets the first success again, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, ` +
      'before any validation; the same key with another request is a 409 IDEMPOTENCY_CONFLICT after validation; while the first still runs, 409 ' +
      `IDEMPOTENCY_IN_PROGRESS with Retry-After. Only successes are kept; a request that died unanswered is forgotten within ${facts.idempotencyKeyLeaseMs / 1000} s.`,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH + 2 },
  };
}

const REPLAYED_HEADER = {
  description: 'Present (`true`) when this is the kept answer of an earlier request with the same Idempotency-Key.',
  schema: { const: 'true' },
};

function operationObject(op: OperationDoc, tag: string, facts: DocumentFacts): JsonSchema {
  const operation: JsonSchema = { operationId: op.operationId, tags: [tag], summary: op.summary };
  if (op.description) operation.description = op.description;
  const security = securityOf(op);
  if (security) operation.security = security;
  const parameters = [
    ...pathParameters(op),
    ...(op.query ?? []).map((q) => ({ in: 'query', required: false, ...q })),
    ...(op.idempotencyKey ? [idempotencyKeyParameter(facts)] : []),
  ];
  if (parameters.length > 0) operation.parameters = parameters;
  if (op.body) {
    const { schema, examples, required, description } = op.body;
    operation.requestBody = {
      required,
      ...(description && { description }),
      content: { 'application/json': { schema, ...(examples && { examples }) } },
    };
  }
  const responses: Record<string, JsonSchema> = {};
  for (const answer of op.answers ?? []) {
    const replayable = op.idempotencyKey && answer.status >= 200 && answer.status < 300;
    responses[String(answer.status)] = answerObject(
      replayable
        ? { ...answer, headers: { ...answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: REPLAYED_HEADER } }
        : answer,
    );
  }
  operation.responses = { ...responses, ...errorResponses(op) };
  return operation;
}

function securityOf(op: OperationDoc): JsonSchema[] | undefined {
  if (op.refusal) return [];
  if (op.guard === 'app') return [{ appToken: [] }];
  if (op.guard === 'operator') return [{ operatorSession: [] }];
  return op.optionalBearer ? [{}, { [op.optionalBearer]: [] }] : [];
}

function pathParameters(op: OperationDoc): JsonSchema[] {
  const names = pathParamNames(op.path);
  const described = Object.keys(op.pathParams ?? {});
  if (names.join() !== described.join()) {
    throw new Error(
      `openapi: ${op.method.toUpperCase()} ${op.path} has parameters ${names.join(', ') || 'none'} but describes ${described.join(', ') || 'none'}`,
    );
  }
  return names.map((name) => ({
    in: 'path',
    name,
    required: true,
    description: op.pathParams![name],
    schema: { type: 'string' },
  }));
}

function answerObject(answer: AnswerDoc): JsonSchema {
  const media: JsonSchema = {};
  if (answer.schema) media.schema = answer.schema;
  if (answer.example !== undefined) media.example = answer.example;
  const response: JsonSchema = { description: answer.description };
  if (answer.schema || answer.example !== undefined)
    response.content = { [answer.mediaType ?? 'application/json']: media };
  if (answer.headers) response.headers = answer.headers;
  return response;
}
