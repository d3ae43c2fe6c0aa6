import type { FastifyRequest } from 'fastify';
import { feature, type FeatureEnv } from '../feature.js';
import { ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { Services } from '../services.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema } from '../validation/read-body.js';
import { BULK_ACTIONS, BULK_RULES, LeadBulkService, MAX_BULK_LEADS } from './lead-bulk.service.js';
import { LeadsService } from './leads.service.js';

export const ADMIN_LEAD_BULK = '/admin/v1/businesses/:urlKey/lead-bulk-actions';

interface BulkContext {
  bulk: LeadBulkService;
  services: Services;
}

const operation = operationsOf<BulkContext>();

const SCHEMAS: Record<string, JsonSchema> = {
  LeadBulkOutcome: {
    type: 'object',
    additionalProperties: false,
    required: ['action', 'succeeded', 'failed', 'results'],
    properties: {
      action: { type: 'string', enum: [...BULK_ACTIONS] },
      succeeded: { type: 'integer', minimum: 0 },
      failed: { type: 'integer', minimum: 0 },
      results: {
        type: 'array',
        description: 'One per leadId sent, in the order sent.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['leadId', 'ok'],
          properties: {
            leadId: { type: 'string' },
            ok: { type: 'boolean' },
            error: {
              type: 'object',
              description: "When not ok: the error one lead's request would have had (code, message, field errors).",
              additionalProperties: false,
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                errors: { type: 'array', items: { type: 'object' } },
              },
            },
          },
        },
      },
    },
  },
};

const operatorOf = (request: FastifyRequest) => ({
  origin: 'DASHBOARD' as const,
  author: request.operator?.email ?? '',
});
const auditActions = {
  move: 'lead.edit',
  assign: 'lead.edit',
  tag: 'lead.edit',
  untag: 'lead.edit',
  remove: 'lead.remove',
};

export const leadBulkApi: ApiSection<BulkContext> = {
  tag: {
    name: 'Operator: bulk lead actions',
    description: 'Move, assign, tag, untag or remove several leads in one request, each lead in its own transaction.',
  },
  schemas: SCHEMAS,
  operations: [
    operation({
      method: 'post',
      path: ADMIN_LEAD_BULK,
      operationId: 'applyLeadBulkAction',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Apply one action to several leads',
      description:
        `Up to ${MAX_BULK_LEADS} leads. Each lead is written as PATCH (or DELETE) …/leads/:leadId would write it, in its own transaction, ` +
        'with its own webhook events and audit line: a lead that fails (removed meanwhile, a stage that requires a reason) leaves the others done. ' +
        "A body that is wrong as a whole is a 400 and nothing is written; otherwise 200 with every lead's outcome.",
      body: {
        required: true,
        schema: bodyJsonSchema(BULK_RULES, 'The leads and the action.'),
        examples: {
          move: {
            summary: 'Move two leads to Lost with a reason',
            value: { leadIds: ['ld_1', 'ld_2'], action: 'move', stage: 'Lost', stageReasons: ['Too expensive'] },
          },
        },
      },
      answers: [{ status: 200, description: "Each lead's outcome.", schema: success(ref('LeadBulkOutcome')) }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ bulk, services }) =>
        async (request) => {
          rejectQuery(request);
          const input = bulk.read(request.body);
          const { urlKey } = request.params;
          const audit = services.audit.entryOf(request, auditActions[input.action], urlKey, { bulk: input.action });
          return ok(await bulk.apply(urlKey, input, operatorOf(request), audit));
        },
    }),
  ],
};

/** Bulk lead actions (issue 39): the list view's selected leads, one request, one transaction per lead. */
export const leadBulkFeature = feature({
  sections: [leadBulkApi],
  context: ({ deps, services }: FeatureEnv): BulkContext => ({
    bulk: new LeadBulkService(
      new LeadsService(deps.store, services.leadContexts, () => deps.clock.now(), services.events),
    ),
    services,
  }),
});
