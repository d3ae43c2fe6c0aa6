import { join } from 'node:path';
import { authApi } from '../auth/auth.openapi.js';
import { clientsApi, clientsOperatorApi } from '../clients/clients.routes.js';
import { leadSettingsApi } from '../leads/lead-settings.routes.js';
import { leadsApi, leadsOperatorApi } from '../leads/leads.routes.js';
import { leadsListApi, leadsListOperatorApi } from '../leads/leads-list.routes.js';
import type { Deps } from '../deps.js';
import { feature } from '../feature.js';
import { assetOf, packageRoot, pageFiles, sendAsset, type Asset } from '../http/static-assets.js';
import { dashboardApi } from '../operator/dashboard/dashboard.routes.js';
import { operatorApi } from '../operator/operator.openapi.js';
import { VERSION } from '../ops/health.routes.js';
import { opsApi } from '../ops/ops.openapi.js';
import { pipelinesApi, pipelinesOperatorApi } from '../pipelines/pipelines.routes.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { buildOpenApiDocument } from './openapi.document.js';
import { pageOperations, type ApiSection, type DocSection, type PageFiles } from './operation.js';
import { webhooksApi } from '../webhooks/webhooks.openapi.js';

interface ReferenceContext {
  /** Built and serialised once, at start: it is static. */
  document: Asset;
  files: PageFiles;
}

/** This document and its reference page, described in themselves. */
export const referenceApi: ApiSection<ReferenceContext> = {
  tag: { name: 'Reference', description: 'This document and the API reference page.' },
  operations: [
    {
      method: 'get', path: '/openapi.json', operationId: 'openApiDocument', guard: 'open', summary: 'This OpenAPI 3.1 document',
      description: 'Generated at start from the schemas the server validates with.',
      answers: [{ status: 200, description: 'The document.', schema: { type: 'object' } }, { status: 304, description: 'Not modified (If-None-Match).' }],
      handler: ({ document }) => async (request, reply) => sendAsset(request, reply, document),
    },
    ...pageOperations<ReferenceContext>(
      { id: 'reference', path: '/docs', filesPrefix: '/docs/', summary: 'The API reference page', description: 'The page; it renders /openapi.json.', sampleFile: 'docs.js' },
      ({ files }) => files,
    ),
  ],
};

/** Every feature's section, in the order the reference page shows them: the public interface first. */
export const API_SECTIONS: readonly DocSection[] = [
  authApi, pipelinesApi, clientsApi, leadsApi, leadsListApi, operatorApi, pipelinesOperatorApi, clientsOperatorApi, leadSettingsApi, leadsOperatorApi, leadsListOperatorApi, webhooksApi,
  opsApi, dashboardApi, referenceApi,
];

export function openApiDocument(deps: Pick<Deps, 'config'>): JsonSchema {
  return buildOpenApiDocument([...API_SECTIONS], { version: VERSION, audience: deps.config.jwtAudience });
}

/** `/openapi.json` and the `/docs` page that renders it. */
export const openApiFeature = feature({
  sections: [referenceApi],
  context: ({ deps }): ReferenceContext => ({
    document: assetOf(Buffer.from(JSON.stringify(openApiDocument(deps))), 'application/json; charset=utf-8'),
    files: pageFiles(join(packageRoot(import.meta.url), 'src', 'openapi', 'public')),
  }),
});
