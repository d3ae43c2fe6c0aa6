// @ts-check
// The lead list's parameters as the server documents them (GET /openapi.json, operation
// listLeadsAsOperator): the list view reads the accepted names, the largest page, the skip cap and
// the sort fields from there, so it never holds a copy that could drift from the API.
import { apiDocument, limit } from './api-document.js';

const OPERATION = 'listLeadsAsOperator';

/**
 * @typedef {{ names: Set<string>, maxLimit: number | undefined, maxSkip: number | undefined,
 *   sortFields: string[] }} LeadListSpec
 */

/**
 * {names, maxLimit, maxSkip, sortFields}, from the document the page loaded (api-document.js).
 * @returns {Promise<LeadListSpec>}
 */
export async function leadListSpec() {
  const operation = Object.values(apiDocument.paths ?? {})
    .flatMap((item) => Object.values(item))
    .find((op) => op?.operationId === OPERATION);
  if (!operation) throw new Error('The server does not describe its lead list.');
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  return {
    names: new Set(query.map((p) => p.name)),
    maxLimit: limit('listLeadsAsOperator?$limit', 'maximum'),
    maxSkip: limit('listLeadsAsOperator?$skip', 'maximum'),
    sortFields: query.flatMap((p) => /^\$sort\[(.+)\]$/.exec(p.name)?.[1] ?? []),
  };
}

/** The part after "?" of #/lead-list?…: the list's own query string, its names as the API knows them. */
/** @param {LeadListSpec} spec */
export function addressQuery(spec) {
  const hash = location.hash;
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  for (const key of [...params.keys()]) {
    // Paging is the view's own; a name the list does not take would only be refused.
    if (key === '$limit' || key === '$skip' || !spec.names.has(key)) params.delete(key);
  }
  return params;
}

/** The sort the address asks for ({field, direction}), or null for the list's default. */
/**
 * @param {URLSearchParams} params
 * @returns {{ field: string, direction: 1 | -1 } | null}
 */
export function sortOf(params) {
  for (const [key, value] of params) {
    const field = /^\$sort\[(.+)\]$/.exec(key)?.[1];
    if (field) return { field, direction: value === '1' ? 1 : -1 };
  }
  return null;
}

/** The same filters sorted by one field only. */
/**
 * @param {URLSearchParams} params
 * @param {string} field
 * @param {1 | -1} direction
 */
export function withSort(params, field, direction) {
  const next = new URLSearchParams([...params].filter(([key]) => !key.startsWith('$sort[')));
  next.set(`$sort[${field}]`, String(direction));
  return next;
}
