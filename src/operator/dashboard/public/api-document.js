// @ts-check
// The server's own description of its API (GET /openapi.json), read once when the dashboard loads, so
// the page asks it for every limit, label and page size instead of holding a copy that could drift:
//   limit('LeadCreate.subject')                         → 2500 (maxLength)
//   limit('PipelineConfigurationInput.pipelines[].stages[].closure', 'maximum') → 100
//   limit('listLeadsAsOperator?$limit', 'maximum')      → 50 (a query parameter of an operation)
//   limit('saveLeadSavedFilter.name')                    → 100 (an operation's JSON request body)
//   labels('Lead.status')                                → each status with its words (x-enumLabels)
// A path names a component schema (or an operationId), then properties; "[]" steps into a list's items.
// test/http/dashboard-facts.test.ts checks that every lookup written in a dashboard module resolves.

/**
 * A JSON Schema fragment of the document, read loosely: only the keywords the lookups use are named.
 * @typedef {{ $ref?: string, properties?: Record<string, Schema>, items?: Schema, oneOf?: Schema[],
 *   anyOf?: Schema[], allOf?: Schema[], enum?: unknown[], 'x-enumLabels'?: Record<string, string>,
 *   [keyword: string]: unknown }} Schema
 */
/**
 * @typedef {{ name: string, in: string, schema?: Schema }} Parameter
 * @typedef {{ operationId?: string, parameters?: Parameter[],
 *   requestBody?: { content?: Record<string, { schema?: Schema }> } }} Operation
 * @typedef {{ paths?: Record<string, Record<string, Operation>>, components?: { schemas?: Record<string, Schema> } }}
 *   ApiDocument
 */

/**
 * The document, or an empty one where it cannot be read (lookups then answer undefined and inputs go
 * without a maxlength: the server still refuses what is too long, in words).
 * @returns {Promise<ApiDocument>}
 */
async function load() {
  try {
    const response = await fetch('/openapi.json', { headers: { accept: 'application/json' } });
    if (response.ok) return await response.json();
  } catch {
    // Fall through to the empty document.
  }
  return {};
}

/** Read before any view module runs (top-level await), so every lookup below is synchronous. */
export const apiDocument = typeof window === 'undefined' ? {} : await load();

/**
 * @param {ApiDocument} doc
 * @param {Schema | undefined} schema
 * @returns {Schema | undefined}
 */
function deref(doc, schema) {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 20; hops += 1) {
    current = doc.components?.schemas?.[current.$ref.split('/').pop() ?? ''];
  }
  return current;
}

/**
 * A member of an object schema, looked for through unions (a nullable object is a oneOf with null).
 * @param {ApiDocument} doc
 * @param {Schema | undefined} schema
 * @param {string} name
 * @returns {Schema | undefined}
 */
function memberOf(doc, schema, name) {
  const here = deref(doc, schema);
  if (!here) return undefined;
  const own = here.properties?.[name];
  if (own) return own;
  for (const branch of [...(here.oneOf ?? []), ...(here.anyOf ?? []), ...(here.allOf ?? [])]) {
    const found = memberOf(doc, branch, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * @param {ApiDocument} doc
 * @param {string} operationId
 * @returns {Operation | undefined}
 */
function operationOf(doc, operationId) {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) if (operation?.operationId === operationId) return operation;
  }
  return undefined;
}

/**
 * The schema a path names in a document, or undefined.
 * @param {ApiDocument} doc
 * @param {string} path "Schema.member[].member", "operationId.member" or "operationId?queryParameter"
 * @returns {Schema | undefined}
 */
export function schemaAt(doc, path) {
  const [head = '', query] = path.split('?');
  const [root = '', ...members] = head.split('.');
  const name = root.replace(/\[\]$/, '');
  let schema = doc.components?.schemas?.[name];
  if (!schema) {
    const operation = operationOf(doc, name);
    if (query !== undefined) return operation?.parameters?.find((p) => p.in === 'query' && p.name === query)?.schema;
    schema = operation?.requestBody?.content?.['application/json']?.schema;
  }
  if (root.endsWith('[]')) schema = deref(doc, schema)?.items;
  for (const member of members) {
    schema = memberOf(doc, schema, member.replace(/\[\]$/, ''));
    if (member.endsWith('[]')) schema = deref(doc, schema)?.items;
  }
  return deref(doc, schema);
}

/**
 * A numeric keyword (maxLength, maxItems, maximum, minimum …) of the schema at path, in the served document.
 * @param {string} path
 * @param {string} [keyword]
 * @returns {number | undefined}
 */
export function limit(path, keyword = 'maxLength') {
  const value = schemaAt(apiDocument, path)?.[keyword];
  return typeof value === 'number' ? value : undefined;
}

/**
 * The values of an enum with their labels (x-enumLabels; a value without one is shown as it is), in order.
 * @param {string} path
 * @returns {Record<string, string>}
 */
export function labels(path) {
  const schema = schemaAt(apiDocument, path);
  const named = schema?.['x-enumLabels'] ?? {};
  /** @type {Record<string, string>} */
  const out = {};
  for (const value of schema?.enum ?? []) if (typeof value === 'string') out[value] = named[value] ?? value;
  return out;
}

/**
 * The values of an enum (null left out), in order.
 * @param {string} path
 * @returns {string[]}
 */
export function choices(path) {
  return (schemaAt(apiDocument, path)?.enum ?? []).filter((value) => typeof value === 'string');
}
