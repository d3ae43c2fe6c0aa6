import { feature, type FeatureEnv } from '../feature.js';
import { ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { LEAD_LIST_ERRORS, LEAD_LIST_QUERY } from './leads-list.openapi.js';
import { LeadStageTotalsService, STAGE_TOTALS_REFUSED } from './lead-stage-totals.service.js';

export const ADMIN_LEAD_STAGE_TOTALS = '/admin/v1/businesses/:urlKey/lead-stage-totals';

const operation = operationsOf<LeadStageTotalsService>();

/** The list's filters, less those that page, sort, sync or pick a stage (each read from the list's own table). */
const QUERY = LEAD_LIST_QUERY.filter(
  (p) => !(STAGE_TOTALS_REFUSED as readonly string[]).includes(p.name.replace(/\[.*$/, '')),
).map((p) =>
  p.name === 'pipeline'
    ? {
        ...p,
        description: `The name of one pipeline, whose stages (archived ones included) are totalled; default the primary pipeline (else the first live one). ${p.description}`,
      }
    : p,
);

const SCHEMAS: Record<string, JsonSchema> = {
  LeadStageTotals: {
    type: 'object',
    additionalProperties: false,
    required: ['pipeline', 'stages'],
    properties: {
      pipeline: {
        type: ['string', 'null'],
        description:
          "The pipeline's current name; null when none was named and the business has no live pipeline (stages is then empty).",
      },
      stages: {
        type: 'array',
        description: 'Every stage of the pipeline in configured order, archived ones included.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'name', 'isArchived', 'count', 'budgets'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            isArchived: { type: 'boolean' },
            count: {
              type: 'integer',
              minimum: 0,
              description: "Leads of the stage matching the filters, as the list's total counts them.",
            },
            budgets: {
              type: 'array',
              description:
                'Budgets of those leads summed per currency, in currency order; leads without a budget add nothing.',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['currency', 'amount'],
                properties: {
                  currency: { type: 'string', description: 'ISO 4217.' },
                  amount: {
                    type: 'string',
                    pattern: '^-?\\d+(\\.\\d{1,4})?$',
                    description:
                      'The exact sum as a decimal string (up to 4 places, no trailing zeros): it may exceed what a JSON number holds exactly.',
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const leadStageTotalsApi: ApiSection<LeadStageTotalsService> = {
  tag: {
    name: 'Operator: lead stage totals',
    description:
      "Per stage of a pipeline: how many leads match the filters, and their budgets summed (the board's column figures).",
  },
  schemas: SCHEMAS,
  operations: [
    operation({
      method: 'get',
      path: ADMIN_LEAD_STAGE_TOTALS,
      operationId: 'leadStageTotals',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Count and budget sums per stage',
      description:
        'The whole stage, whatever the page size: the leads of each stage of `pipeline` matching the same filters as the lead list, ' +
        'counted, with their budgets summed exactly per currency. Filtered by pipeline, status, lead source, assignee or followUpDate=none only, ' +
        'it reads live counts and sums kept with every lead write; other filters (tags, free text, ranges, lookups) aggregate the matching leads.',
      query: QUERY,
      answers: [
        {
          status: 200,
          description: "The pipeline's stages with their figures.",
          schema: success({ type: 'array', minItems: 1, maxItems: 1, items: ref('LeadStageTotals') }),
        },
      ],
      errors: [...LEAD_LIST_ERRORS!.filter((code) => !code.startsWith('INVALID_PAGINATION')), 'BUSINESS_NOT_FOUND'],
      handler: (totals) => async (request) => ok([await totals.totals(request.params.urlKey, request.query)]),
    }),
  ],
};

/** GET …/lead-stage-totals (issue 39): the board's column figures, computed by the server over whole stages. */
export const leadStageTotalsFeature = feature({
  sections: [leadStageTotalsApi],
  context: ({ deps, services }: FeatureEnv) => new LeadStageTotalsService(deps.store, services.leadContexts),
});
