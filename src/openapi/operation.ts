import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ErrorCode } from '../errors/codes.js';
import type { JsonSchema } from '../validation/json-schema.js';

/**
 * One definition per operation: what Fastify registers (method, path, the guard's scope, the handler)
 * and its OpenAPI description, in one object, so that no route exists without its documentation and
 * no documented operation without its route. Features keep their operations in `*.routes.ts`;
 * request bodies point at the validators' own schemas (named ones in `*.openapi.ts`).
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
  /**
   * Takes the Idempotency-Key header (invoices-interface 4.2; src/http/idempotency-key.route.ts): a
   * success is kept under the key and replayed to a retry. The handler finds its claim in
   * `request.idempotencyClaim`, for the store write that creates the document (docs/idempotency-keys.md).
   */
  idempotencyKey?: boolean;
  /** An unsupported operation: answers 405 only, with the section 7 envelope (`coded`) or the status alone (`bare`). */
  refusal?: 'coded' | 'bare';
  /**
   * `false`: the answer is one record, short of COMPRESS_THRESHOLD_BYTES in practice, so its route goes
   * without the compression plugin's hooks, which every answer of a route pays (src/http/compression.ts;
   * docs/decisions.md "Compression off for one-record reads"). Lists, the document, pages and exports keep them.
   */
  compress?: false;
}

export interface ErrorExample {
  message: string;
  errors?: { field: string; message: string; code: ErrorCode }[];
}

/** `{urlKey: string, clientId: string}` from `/api/v1/businesses/:urlKey/clients/:clientId`; `{'*': string}` for a trailing `*`. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Path extends `${string}*`
      ? { '*': string }
      : Record<never, string>;

export type RouteHandler<Params = unknown> = (
  request: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
) => unknown;

/**
 * An operation: its description and its handler. `handler` runs once, at start, with what the
 * feature's handlers call (its context), and answers the route's handler: one closure per route,
 * nothing added per request.
 */
export interface Operation<Context = never> extends OperationDoc {
  // Params are typed where the operation is defined (operationsOf).
  handler(context: Context): RouteHandler<any>;
  /** A hook of this route alone, after the scope's own (POST /authentication reads a misspelt content type). */
  onRequest?: onRequestHookHandler;
}

/** One tag of the document: a feature's operations and the named schemas they refer to. */
export interface ApiSection<Context = never> {
  tag: { name: string; description: string };
  schemas?: Record<string, JsonSchema>;
  operations: Operation<Context>[];
}

/** A section as the document reads it: descriptions only. */
export interface DocSection {
  tag: { name: string; description: string };
  schemas?: Record<string, JsonSchema>;
  operations: readonly OperationDoc[];
}

/**
 * Defines operations over one context, typing each handler's params from its path:
 * `const operation = operationsOf<ClientsContext>(); operation({method, path, …, handler: (c) => async (request) => …})`.
 */
export function operationsOf<Context>() {
  return <const Path extends string>(
    op: OperationDoc & {
      path: Path;
      handler(context: Context): RouteHandler<ParamsOf<Path>>;
      onRequest?: onRequestHookHandler;
    },
  ): Operation<Context> => op as Operation<Context>;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The success envelope of section 4: `{success: true, data}`. */
export function success(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'data'],
    properties: { success: { const: true }, data },
  };
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

/** A page's two routes: the page itself, and its files below a prefix (nothing else: 404), served from the files `files` picks out of the context. */
export function pageOperations<Context>(
  page: { id: string; path: string; filesPrefix: string; summary: string; description: string; sampleFile: string },
  files: (context: Context) => PageFiles,
): Operation<Context>[] {
  return [
    {
      method: 'get',
      path: page.path,
      operationId: `${page.id}Page`,
      guard: 'open',
      summary: page.summary,
      answers: [
        { status: 200, description: page.description, mediaType: 'text/html', schema: { type: 'string' } },
        NOT_MODIFIED,
      ],
      handler: (context) => files(context).page,
    },
    {
      method: 'get',
      path: `${page.filesPrefix}*`,
      operationId: `${page.id}Asset`,
      guard: 'open',
      pathParams: { file: `A file of the page, like ${page.sampleFile}.` },
      summary: `A file of ${page.summary.replace(/^The /, 'the ')}`,
      answers: [
        { status: 200, description: 'The file, with its type.', mediaType: '*/*', schema: { type: 'string' } },
        NOT_MODIFIED,
      ],
      errors: ['NOT_FOUND'],
      handler: (context) => files(context).file,
    },
  ];
}

/** The handlers of a page's two routes (static-assets.ts's pageFiles()). */
export interface PageFiles {
  page: RouteHandler;
  file: RouteHandler<{ '*': string }>;
}
