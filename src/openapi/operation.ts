import type { ErrorCode } from '../errors/codes.js';
import type { JsonSchema } from '../validation/json-schema.js';

/**
 * How a feature describes its routes for the OpenAPI document. Each feature keeps its list in a
 * `*.openapi.ts` file beside its routes; request bodies point at the validators' own schemas.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: the app-token guard, the operator-session guard, or nobody checks. */
export type Guard = 'app' | 'operator' | 'open';

export interface Example {
  summary: string;
  value: unknown;
}

/** An answer that is not an error envelope: the success, or a plain status like /readyz's 503. */
export interface AnswerDoc {
  status: number;
  description: string;
  schema?: JsonSchema;
  /** Default application/json. */
  mediaType?: string;
  example?: unknown;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface OperationDoc {
  method: HttpMethod;
  /** The route pattern as registered in Fastify: `:name` parameters, a trailing `*` for a file below a folder. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  guard: Guard;
  /** Every parameter of the path, by name (`file` for the `*`), with what it is. */
  pathParams?: Record<string, string>;
  query?: { name: string; description: string; schema: JsonSchema }[];
  body?: { schema: JsonSchema; required: boolean; description?: string; examples?: Record<string, Example> };
  answers?: AnswerDoc[];
  /** Codes this operation answers beyond those implied by its guard and body (see error-responses.ts). */
  errors?: ErrorCode[];
  /**
   * Codes of BODY_ERROR_CODES that this operation answers as field errors of its body (400), not with
   * their own status: a lead's customer.clientId that names no client is CLIENT_NOT_FOUND in a 400.
   */
  bodyErrors?: ErrorCode[];
  /** Per-code example messages and field lists where the generic ones would not fit. */
  errorExamples?: Partial<Record<ErrorCode, ErrorExample>>;
  /** An open route that may check a bearer token all the same (token validation, /metrics with METRICS_TOKEN): its scheme. */
  optionalBearer?: 'appToken' | 'metricsToken';
  /** An unsupported operation: answers 405 only, with the section 7 envelope (`coded`) or the status alone (`bare`). */
  refusal?: 'coded' | 'bare';
}

export interface ErrorExample {
  message: string;
  errors?: { field: string; message: string; code: ErrorCode }[];
}

/** One tag of the document: a feature's operations and the named schemas they refer to. */
export interface ApiSection {
  tag: { name: string; description: string };
  schemas?: Record<string, JsonSchema>;
  operations: OperationDoc[];
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The success envelope of section 4: `{success: true, data}`. */
export function success(data: JsonSchema): JsonSchema {
  return { type: 'object', additionalProperties: false, required: ['success', 'data'], properties: { success: { const: true }, data } };
}

/** `/api/v1/businesses/:urlKey/clients/:clientId` → `/api/v1/businesses/{urlKey}/clients/{clientId}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{file}');
}

/** The parameter names of a Fastify route pattern, in order. */
export function pathParamNames(fastifyPath: string): string[] {
  return [...openApiPath(fastifyPath).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

const NOT_MODIFIED: AnswerDoc = { status: 304, description: 'Not modified (If-None-Match).' };

/** The two routes servePage() registers for a page: the page itself, and its files below a prefix. */
export function pageOperations(page: { id: string; path: string; filesPrefix: string; summary: string; description: string; sampleFile: string }): OperationDoc[] {
  return [
    {
      method: 'get', path: page.path, operationId: `${page.id}Page`, guard: 'open', summary: page.summary,
      answers: [{ status: 200, description: page.description, mediaType: 'text/html', schema: { type: 'string' } }, NOT_MODIFIED],
    },
    {
      method: 'get', path: `${page.filesPrefix}*`, operationId: `${page.id}Asset`, guard: 'open', pathParams: { file: `A file of the page, like ${page.sampleFile}.` },
      summary: `A file of ${page.summary.replace(/^The /, 'the ')}`,
      answers: [{ status: 200, description: 'The file, with its type.', mediaType: '*/*', schema: { type: 'string' } }, NOT_MODIFIED],
      errors: ['NOT_FOUND'],
    },
  ];
}
