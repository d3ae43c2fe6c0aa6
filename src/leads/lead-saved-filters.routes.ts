import { feature, type FeatureEnv } from '../feature.js';
import { noBody, ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { LeadSavedFiltersService, MAX_SAVED_FILTERS, SAVED_FILTER_RULES } from './lead-saved-filters.service.js';

export const ADMIN_LEAD_SAVED_FILTERS = '/admin/v1/businesses/:urlKey/lead-saved-filters';

const operation = operationsOf<LeadSavedFiltersService>();
const urlKey = { urlKey: 'The business key.' };

const SCHEMAS: Record<string, JsonSchema> = {
  LeadSavedFilter: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name', 'query', 'updatedAt'],
    properties: {
      id: { type: 'string', description: 'Opaque; kept when the filter is saved again under its name.' },
      name: { type: 'string' },
      query: { type: 'string', description: "The lead list's query string, as saved." },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
};

export const leadSavedFiltersApi: ApiSection<LeadSavedFiltersService> = {
  tag: {
    name: 'Operator: saved lead filters',
    description: "Each operator's own named filters of the lead list, per business (the list view's saved filters).",
  },
  schemas: SCHEMAS,
  operations: [
    operation({
      method: 'get',
      path: ADMIN_LEAD_SAVED_FILTERS,
      operationId: 'listLeadSavedFilters',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'My saved lead filters',
      description: "The calling operator's saved filters in this business, by name. Other operators' are never shown.",
      answers: [
        { status: 200, description: 'The filters.', schema: success({ type: 'array', items: ref('LeadSavedFilter') }) },
      ],
      errors: ['INVALID_QUERY_FIELD', 'BUSINESS_NOT_FOUND'],
      handler: (filters) => async (request) => {
        rejectQuery(request);
        return ok(await filters.list(request.params.urlKey, request.operator!.operatorId));
      },
    }),
    operation({
      method: 'post',
      path: ADMIN_LEAD_SAVED_FILTERS,
      operationId: 'saveLeadSavedFilter',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Save a lead filter under a name',
      description:
        "The query must be one the lead list accepts (checked by the list's own parser; names resolve when the list runs). " +
        `Saving under a name already taken replaces that filter's query and keeps its id. At most ${MAX_SAVED_FILTERS} per operator and business.`,
      body: {
        required: true,
        schema: bodyJsonSchema(SAVED_FILTER_RULES, 'A name and the list query string.'),
        examples: {
          won: { summary: 'Won leads, newest first', value: { name: 'Won', query: 'pipeline=Sales&stage=Won' } },
        },
      },
      answers: [{ status: 200, description: 'The stored filter.', schema: success(ref('LeadSavedFilter')) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: (filters) => async (request) => {
        rejectQuery(request);
        return ok(await filters.save(request.params.urlKey, request.operator!.operatorId, request.body));
      },
    }),
    operation({
      method: 'delete',
      path: `${ADMIN_LEAD_SAVED_FILTERS}/:filterId`,
      operationId: 'removeLeadSavedFilter',
      guard: 'operator',
      pathParams: { ...urlKey, filterId: 'The id of one of your saved filters.' },
      summary: 'Delete a saved lead filter',
      body: { required: false, schema: bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.') },
      answers: [
        {
          status: 200,
          description: 'Deleted.',
          schema: success({
            type: 'object',
            additionalProperties: false,
            required: ['id', 'removed'],
            properties: { id: { type: 'string' }, removed: { const: true } },
          }),
        },
      ],
      errors: ['SAVED_FILTER_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (filters) => async (request) => {
        noBody(request);
        return ok(await filters.remove(request.params.urlKey, request.operator!.operatorId, request.params.filterId));
      },
    }),
  ],
};

/** Saved lead filters (issue 39): the list view's named filters, stored per operator on the server. */
export const leadSavedFiltersFeature = feature({
  sections: [leadSavedFiltersApi],
  context: ({ deps }: FeatureEnv) => new LeadSavedFiltersService(deps.store, () => deps.clock.now()),
});
