import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../src/validation/json-schema.js';

/**
 * Validates values against the schemas of the OpenAPI document with a strict JSON Schema 2020-12
 * validator: the components become `$defs` of one root schema, and every `$ref` points there.
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = 'https://crmkit.test/openapi';

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
  tags: { name: string }[];
};
export type MediaObject = {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
};
export type ResponseObject = {
  description: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, unknown>;
};
export type OperationObject = {
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
};

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(doc: OpenApiDocument): { path: string; method: string; op: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
  );
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof member === 'string'
        ? member.replace('#/components/schemas/', `${ROOT}#/$defs/`)
        : rewriteRefs(member);
  }
  return out;
}

/** The specification extensions (x-…) the document's schemas carry; strict mode refuses any other keyword. */
export const SCHEMA_EXTENSIONS = ['x-enumLabels'] as const;

export class SchemaChecker {
  private readonly ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, allowUnionTypes: true });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    addFormats(this.ajv);
    // OpenAPI's own extensions of a schema (x-…), which the dashboard reads: annotations, never checks.
    for (const keyword of SCHEMA_EXTENSIONS) this.ajv.addKeyword(keyword);
    this.ajv.addSchema({ $id: ROOT, $defs: rewriteRefs(doc.components.schemas) as JsonSchema });
  }

  /** Compiles every component: strict mode throws on an unknown keyword or a malformed schema. */
  compileAll(doc: OpenApiDocument): void {
    for (const name of Object.keys(doc.components.schemas)) this.ajv.compile({ $ref: `${ROOT}#/$defs/${name}` });
  }

  /** Error text, or null when the value is valid. */
  check(schema: JsonSchema, value: unknown): string | null {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema) as JsonSchema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? null : this.ajv.errorsText(validate.errors, { separator: '\n' });
  }
}

/** A path template of the document as a regular expression over concrete paths (`{file}` spans folders). */
export function pathMatcher(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace('{file}', '.*').replace(/\{[^}]+\}/g, '[^/]+')}$`);
}

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
}

/**
 * Checks answers against the document: a documented route and method must answer a documented status,
 * and a JSON answer must fit that status's schema. Answers of undocumented paths (unknown routes) and
 * of HEAD or OPTIONS are left alone.
 */
export class Conformance {
  private readonly checker: SchemaChecker;
  private readonly templates: { template: string; matcher: RegExp; params: number }[];

  constructor(private readonly doc: OpenApiDocument) {
    this.checker = new SchemaChecker(doc);
    this.templates = Object.keys(doc.paths)
      .map((template) => ({ template, matcher: pathMatcher(template), params: (template.match(/\{/g) ?? []).length }))
      .sort((a, b) => a.params - b.params);
  }

  /** The document's template for a concrete path, the most specific first. */
  templateOf(path: string): string | undefined {
    return this.templates.find((t) => t.matcher.test(path))?.template;
  }

  /** A problem in words, or null when the answer is what the document says. */
  problem(method: string, url: string, answer: Answer): string | null {
    const path = url.split('?')[0]!;
    const template = this.templateOf(path);
    const op = template ? this.doc.paths[template]![method.toLowerCase()] : undefined;
    if (!template || !op) return null;
    const where = `${method.toUpperCase()} ${template} answered ${answer.status}`;
    const response = op.responses[String(answer.status)];
    if (!response)
      return `${where}, which the document does not list (it lists ${Object.keys(op.responses).join(', ')})`;
    const type = String(answer.headers['content-type'] ?? '');
    const media = response.content?.['application/json'];
    if (!type.startsWith('application/json') || !media?.schema) return null;
    const errors = this.checker.check(media.schema, answer.body);
    return errors
      ? `${where} with a body that does not fit the documented schema:\n${errors}\n${JSON.stringify(answer.body).slice(0, 2000)}`
      : null;
  }
}
