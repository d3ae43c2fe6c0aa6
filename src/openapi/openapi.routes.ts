import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { authApi } from '../auth/auth.openapi.js';
import { clientsApi, clientsOperatorApi } from '../clients/clients.openapi.js';
import { leadSettingsApi } from '../leads/lead-settings.openapi.js';
import { leadsApi, leadsOperatorApi } from '../leads/leads.openapi.js';
import { leadsListApi, leadsListOperatorApi } from '../leads/leads-list.openapi.js';
import type { Deps } from '../deps.js';
import type { Feature } from '../feature.js';
import { assetOf, packageRoot, sendAsset, servePage } from '../http/static-assets.js';
import { dashboardApi } from '../operator/dashboard/dashboard.openapi.js';
import { operatorApi } from '../operator/operator.openapi.js';
import { VERSION } from '../ops/health.routes.js';
import { opsApi } from '../ops/ops.openapi.js';
import { pipelinesApi, pipelinesOperatorApi } from '../pipelines/pipelines.openapi.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { buildOpenApiDocument } from './openapi.document.js';
import type { ApiSection } from './operation.js';
import { referenceApi } from './reference.openapi.js';

/** Every feature's section, in the order the reference page shows them: the public interface first. */
export const API_SECTIONS: readonly ApiSection[] = [
  authApi, pipelinesApi, clientsApi, leadsApi, leadsListApi, operatorApi, pipelinesOperatorApi, clientsOperatorApi, leadSettingsApi, leadsOperatorApi, leadsListOperatorApi,
  opsApi, dashboardApi, referenceApi,
];

export function openApiDocument(deps: Pick<Deps, 'config'>): JsonSchema {
  return buildOpenApiDocument([...API_SECTIONS], { version: VERSION, audience: deps.config.jwtAudience });
}

/** `/openapi.json` (built and serialised once, at start: it is static) and the `/docs` page that renders it. */
export function openApiFeature(deps: Deps): Feature {
  return {
    async open(app: FastifyInstance) {
      const document = assetOf(Buffer.from(JSON.stringify(openApiDocument(deps))), 'application/json; charset=utf-8');
      app.get('/openapi.json', async (request, reply) => sendAsset(request, reply, document));
      servePage(app, join(packageRoot(import.meta.url), 'src', 'openapi', 'public'), '/docs', '/docs/');
    },
  };
}
