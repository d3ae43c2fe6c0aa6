import { ref, success, type OperationDoc } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { documentedParameters } from './leads-list.parameters.js';

/** GET /leads in the OpenAPI document (docs/decisions.md "Lead lists"): every query parameter, the page object (operations: leads-list.routes.ts). */

type Query = NonNullable<OperationDoc['query']>;

/** Every query parameter, from the one table (leads-list.parameters.ts) the parser reads too. */
export const LEAD_LIST_QUERY: Query = documentedParameters();

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
          'Sync mode only: where the next page starts (pass it as after); null only on a page with no leads: nothing follows yet, so send the cursor you kept again later for what changes next.',
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
