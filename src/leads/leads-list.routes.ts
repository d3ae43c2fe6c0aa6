import { feature, type FeatureEnv } from '../feature.js';
import { ok } from '../http/replies.js';
import { operationsOf, type ApiSection } from '../openapi/operation.js';
import {
  LEAD_LIST_DESCRIPTION,
  LEAD_LIST_ERRORS,
  LEAD_LIST_QUERY,
  LEAD_LIST_SCHEMAS,
  LEAD_PAGE,
} from './leads-list.openapi.js';
import { LeadsListService } from './leads-list.service.js';

export const LEADS_LIST = '/api/v1/businesses/:urlKey/leads';
export const ADMIN_LEADS_LIST = '/admin/v1/businesses/:urlKey/leads';

// The one lead context of the app, shared with lead writes.
const leadsListContext = ({ deps, services }: FeatureEnv) => new LeadsListService(deps.store, services.leadContexts);
const operation = operationsOf<LeadsListService>();

export const leadsListApi: ApiSection<LeadsListService> = {
  tag: { name: 'Lead lists', description: "List, filter, search and sync a business's leads." },
  schemas: LEAD_LIST_SCHEMAS,
  operations: [
    operation({
      method: 'get',
      path: LEADS_LIST,
      operationId: 'listLeads',
      guard: 'app',
      pathParams: { urlKey: 'The business key.' },
      summary: 'List, filter and search leads',
      description: LEAD_LIST_DESCRIPTION,
      query: LEAD_LIST_QUERY,
      answers: [{ status: 200, description: 'One page.', schema: LEAD_PAGE }],
      errors: LEAD_LIST_ERRORS,
      handler: (leads) => async (request) => ok([await leads.list(request.params.urlKey, request.query)]),
    }),
  ],
};

export const leadsListOperatorApi: ApiSection<LeadsListService> = {
  tag: { name: 'Operator: lead lists', description: 'The same list for operators.' },
  operations: [
    operation({
      method: 'get',
      path: ADMIN_LEADS_LIST,
      operationId: 'listLeadsAsOperator',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'List, filter and search leads',
      description: LEAD_LIST_DESCRIPTION,
      query: LEAD_LIST_QUERY,
      answers: [{ status: 200, description: 'One page.', schema: LEAD_PAGE }],
      errors: [...LEAD_LIST_ERRORS!, 'BUSINESS_NOT_FOUND'],
      handler: (leads) => async (request) => ok([await leads.list(request.params.urlKey, request.query)]),
    }),
  ],
};

/** GET /leads (docs/decisions.md "Lead lists") for apps, and the same list for operators. */
export const leadsListFeature = feature({ sections: [leadsListApi, leadsListOperatorApi], context: leadsListContext });
