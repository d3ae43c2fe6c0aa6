import { ref, success, type OperationDoc } from '../openapi/operation.js';
import { STAGE_STATES } from '../pipelines/pipelines.types.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { SORT_FIELDS } from '../storage/lead-lists.records.js';
import { MAX_LIMIT, MAX_SKIP } from './leads.query.js';

/** GET /leads in the OpenAPI document (docs/decisions.md "Lead lists"): every query parameter, the page object (operations: leads-list.routes.ts). */

const text = (description: string): JsonSchema => ({ type: 'string', description });
const names = (what: string): string =>
  `${what} One value, several comma-separated, or repeated as NAME[$in][]=value. A lead matches when it matches any of them. ` +
  'Names resolve as lead writes resolve them, archived entries included.';

type Query = NonNullable<OperationDoc['query']>;

export const LEAD_LIST_QUERY: Query = [
  {
    name: '$limit',
    description: `Leads per page, 1 to ${MAX_LIMIT} (INVALID_PAGINATION_LIMIT otherwise).`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 10 },
  },
  {
    name: '$skip',
    description: `Leads to skip, 0 to ${MAX_SKIP} (INVALID_PAGINATION_SKIP otherwise). Refused in sync mode.`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_SKIP, default: 0 },
  },
  ...SORT_FIELDS.map((field) => ({
    name: `$sort[${field}]`,
    description: `1 ascending, -1 descending. Default createdAt descending; ties by leadId descending; leads without the value last either way. Several $sort keys apply in the order sent. Refused in sync mode.`,
    schema: { enum: ['1', '-1'] },
  })),
  { name: 'pipeline', description: names('Pipeline names (unknown: INVALID_PIPELINE).'), schema: text('') },
  {
    name: 'stage',
    description: names(
      'Stage names inside the pipeline sent, or UNSTAGED (leads whose stage is no longer in their pipeline). Needs pipeline (INVALID_STAGE).',
    ),
    schema: text(''),
  },
  {
    name: 'tags',
    description: names('Tag names, ignoring case: a lead carrying any of them (unknown: INVALID_TAG).'),
    schema: text(''),
  },
  {
    name: 'leadSource',
    description: names('Lead source keys or labels (unknown: INVALID_LEAD_SOURCE).'),
    schema: text(''),
  },
  {
    name: 'assignedTo',
    description: names('Member e-mails, or UNASSIGNED (unknown: INVALID_ASSIGNEE).'),
    schema: text(''),
  },
  {
    name: 'status',
    description: `One or more of ${STAGE_STATES.join(', ')}, as pipeline and the others (another value: INVALID_QUERY_VALUE).`,
    schema: text(''),
  },
  { name: 'externalId', description: 'Exact lookup; no match is an empty page.', schema: text('') },
  { name: 'clientId', description: "The customer's clientId; exact.", schema: text('') },
  { name: 'contactId', description: 'Exact.', schema: text('') },
  { name: 'contactName', description: 'Exact, as stored (trimmed).', schema: text('') },
  { name: 'contactEmail', description: 'Exact, ignoring case.', schema: text('') },
  { name: 'contactPhone', description: 'Normalised as a stored phone before matching.', schema: text('') },
  { name: 'createdAtFrom', description: 'ISO 8601 date (its start, UTC) or instant; inclusive.', schema: text('') },
  { name: 'createdAtTo', description: 'ISO 8601 date (its end, UTC) or instant; inclusive.', schema: text('') },
  {
    name: 'followUpDateFrom',
    description: 'Date YYYY-MM-DD (an instant counts by its UTC date); inclusive.',
    schema: text(''),
  },
  { name: 'followUpDateTo', description: 'Date YYYY-MM-DD; inclusive.', schema: text('') },
  {
    name: 'followUpDate',
    description: 'Only `none`: leads without a follow-up date (not with followUpDateFrom/To).',
    schema: { enum: ['none'] },
  },
  {
    name: 'budgetMin',
    description: 'Budget amount at least this (any currency); leads without a budget never match.',
    schema: { type: 'number' },
  },
  { name: 'budgetMax', description: 'Budget amount at most this.', schema: { type: 'number' } },
  {
    name: 'q',
    description:
      "Free text over subject, details, customer name, contact name and e-mail: every word must match a whole word or a word's beginning, ignoring case and accents; at most 10 words. Results come by relevance (each word scores the best field it is found in: subject, then details, then names and e-mail; summed over the words), then $sort, then the default order.",
    schema: text(''),
  },
  { name: 'subject', description: 'Free text over the subject only (as q).', schema: text('') },
  { name: 'details', description: 'Free text over the details only (as q).', schema: text('') },
  {
    name: 'updatedAtFrom',
    description:
      'Sync: leads updated at or after this instant (or date), by updatedAt then leadId ascending, then the changes ' +
      'made since the sync began in the order they were committed; the page carries nextCursor and total null. Nothing committed is ever passed over.',
    schema: text(''),
  },
  {
    name: 'after',
    description:
      "Sync: the nextCursor of a previous page (another business's or a malformed one: INVALID_QUERY_VALUE). A lead edited during " +
      'a sync comes again later; after a last page, send the last cursor again to get what changed since. Cursors work on any process and after restarts.',
    schema: text(''),
  },
];

export const LEAD_LIST_SCHEMAS: Record<string, JsonSchema> = {
  LeadPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'total', 'limit', 'skip'],
    properties: {
      items: { type: 'array', items: ref('Lead'), description: 'Leads, each as GET /leads/{leadId} answers it.' },
      total: { type: ['integer', 'null'], description: 'Leads matching in all; null in sync mode.' },
      limit: { type: 'integer' },
      skip: { type: 'integer' },
      nextCursor: {
        type: ['string', 'null'],
        description:
          'Sync mode only: pass as after for the next page; null on the last page (keep the one before to follow later changes).',
      },
    },
  },
};

export const LEAD_LIST_ERRORS: OperationDoc['errors'] = [
  'INVALID_QUERY_FIELD',
  'INVALID_QUERY_VALUE',
  'INVALID_PAGINATION_LIMIT',
  'INVALID_PAGINATION_SKIP',
  'INVALID_PIPELINE',
  'INVALID_STAGE',
  'INVALID_TAG',
  'INVALID_LEAD_SOURCE',
  'INVALID_ASSIGNEE',
];

export const LEAD_PAGE = success({
  type: 'array',
  minItems: 1,
  maxItems: 1,
  items: ref('LeadPage'),
  description: 'Always exactly one page object: read data[0].',
});

export const LEAD_LIST_DESCRIPTION =
  'Structured filters (any of their values), exact lookups, ranges and free text, all of them to match. ' +
  'A filter matching nothing answers an empty page, never 404. Free text needs no search engine on either store.';
