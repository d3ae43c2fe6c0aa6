// The typed client's GET /leads parameters (LeadListQuery, LeadSyncQuery), written into client/src/api-types.ts
// by scripts/client-types.ts from the table the server's parser and OpenAPI document read
// (src/leads/leads-list.parameters.ts): a parameter added there reaches the client at the next
// `npm run generate:client`, and the drift test fails until it has.
import { LEAD_LIST_PARAMETERS, type ListParameter, type ParameterKind } from '../src/leads/leads-list.parameters.js';
import { STAGE_STATES } from '../src/pipelines/pipelines.types.js';
import { SORT_FIELDS } from '../src/storage/lead-lists.records.js';

const union = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(' | ');

/** The client's type of each kind: lists may be sent as arrays, instants as Dates. */
const TYPE_OF: Record<ParameterKind, string> = {
  page: 'number',
  sort: 'Partial<Record<LeadSortField, 1 | -1>>',
  names: 'string | string[]',
  status: 'LeadStatus | LeadStatus[]',
  exact: 'string',
  words: 'string',
  instant: 'string | Date',
  date: 'string',
  none: '"none"',
  amount: 'number',
  cursor: 'string',
};

function member(p: ListParameter): string {
  const doc = p.description.replaceAll('*/', '*\\/');
  const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name);
  return `    /** @description ${doc} */\n    ${key}?: ${TYPE_OF[p.kind]};`;
}

function shape(name: string, description: string, leftOut: 'browse' | 'sync'): string {
  const members = (LEAD_LIST_PARAMETERS as readonly ListParameter[]).filter((p) => p.mode !== leftOut).map(member);
  return `/** ${description} */\nexport interface ${name} {\n${members.join('\n')}\n}`;
}

export function renderListQueryTypes(): string {
  return [
    "// GET /leads's query parameters, from the server's table of them (src/leads/leads-list.parameters.ts).",
    '',
    '/** A state a stage carries. */',
    `export type LeadStatus = ${union(STAGE_STATES)};`,
    '/** What a lead list sorts by. */',
    `export type LeadSortField = ${union(SORT_FIELDS)};`,
    shape(
      'LeadListQuery',
      "GET /leads's parameters. A list of names is sent as `F[$in][]=...` repeated (a name holding a comma stays whole); instants may be Dates; `$sort` applies in key order.",
      'sync',
    ),
    shape(
      'LeadSyncQuery',
      "A sync: pages by updatedAt, from an instant (`updatedAtFrom`) or from where a previous sync stopped (`after`, a page's nextCursor); no $skip or $sort.",
      'browse',
    ),
    '',
  ].join('\n');
}
