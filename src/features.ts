import { authApi, authFeature } from './auth/auth.routes.js';
import { clientCsvApi } from './clients/client-csv.routes.js';
import { clientsApi, clientsFeature, clientsOperatorApi } from './clients/clients.routes.js';
import type { Deps } from './deps.js';
import type { AnyFeature } from './feature.js';
import { leadSettingsApi, leadSettingsFeature } from './leads/lead-settings.routes.js';
import { leadsApi, leadsFeature, leadsOperatorApi } from './leads/leads.routes.js';
import { leadsListApi, leadsListFeature, leadsListOperatorApi } from './leads/leads-list.routes.js';
import { leadStageTotalsApi, leadStageTotalsFeature } from './leads/lead-stage-totals.routes.js';
import { leadBulkApi, leadBulkFeature } from './leads/lead-bulk.routes.js';
import { leadCsvApi, leadCsvFeature } from './leads/lead-csv.routes.js';
import { leadSavedFiltersApi, leadSavedFiltersFeature } from './leads/lead-saved-filters.routes.js';
import { openApiDocumentOf, openApiFeature, referenceApi } from './openapi/openapi.routes.js';
import type { ApiSection } from './openapi/operation.js';
import { dashboardApi, dashboardFeature } from './operator/dashboard/dashboard.routes.js';
import { operatorApi, operatorFeature } from './operator/operator.routes.js';
import { healthFeature, opsApi } from './ops/health.routes.js';
import { documentsApi, documentsFeature } from './documents/documents.routes.js';
import { invoiceMailFeature } from './documents/invoice-mail.feature.js';
import { shareLinkOperatorApi } from './documents/share-link.operator.js';
import { shareApi } from './documents/share.routes.js';
import { invoicesApi, invoicesFeature, invoicesOperatorApi } from './invoices/invoices.routes.js';
import { invoiceDashboardFeature } from './invoices/invoice-dashboard.feature.js';
import { invoicePdfOperatorApi } from './invoices/invoice-pdf.operator.js';
import { invoicePreviewOperatorApi } from './invoices/invoice-preview.operator.js';
import { pipelinesApi, pipelinesFeature, pipelinesOperatorApi } from './pipelines/pipelines.routes.js';
import { reportsApi, reportsFeature } from './reports/reports.routes.js';
import type { JsonSchema } from './validation/json-schema.js';
import { webhooksApi, webhooksFeature } from './webhooks/webhooks.routes.js';

/**
 * Every feature of the app, in one list: app.ts registers each operation under the guard it names and
 * /openapi.json describes the same operations. A new operation goes in its feature's sections only.
 */
export const FEATURES: readonly AnyFeature[] = [
  authFeature,
  operatorFeature,
  clientsFeature,
  pipelinesFeature,
  leadSettingsFeature,
  leadsFeature,
  leadsListFeature,
  leadStageTotalsFeature,
  leadSavedFiltersFeature,
  leadBulkFeature,
  leadCsvFeature,
  invoicesFeature,
  invoiceDashboardFeature,
  documentsFeature,
  invoiceMailFeature,
  reportsFeature,
  webhooksFeature,
  healthFeature,
  dashboardFeature,
  openApiFeature,
];

/** The order the document and the reference page show the sections in: the public interface first. */
const DOCUMENT_ORDER: readonly ApiSection<never>[] = [
  authApi,
  pipelinesApi,
  clientsApi,
  leadsApi,
  leadsListApi,
  invoicesApi,
  documentsApi,
  shareApi,
  operatorApi,
  pipelinesOperatorApi,
  clientsOperatorApi,
  leadSettingsApi,
  leadsOperatorApi,
  leadsListOperatorApi,
  leadStageTotalsApi,
  leadSavedFiltersApi,
  leadBulkApi,
  leadCsvApi,
  clientCsvApi,
  invoicesOperatorApi,
  shareLinkOperatorApi,
  invoicePreviewOperatorApi,
  invoicePdfOperatorApi,
  reportsApi,
  webhooksApi,
  opsApi,
  dashboardApi,
  referenceApi,
];

/** The features' sections in document order; throws at start when a section has no place in the order, or a place but no feature. */
export function apiSections(features: readonly AnyFeature[] = FEATURES): readonly ApiSection<unknown>[] {
  const served = new Set<ApiSection<unknown>>(features.flatMap((f) => f.sections));
  const ordered = DOCUMENT_ORDER as readonly ApiSection<unknown>[];
  const unplaced = [...served].filter((section) => !ordered.includes(section)).map((s) => s.tag.name);
  const unserved = ordered.filter((section) => !served.has(section)).map((s) => s.tag.name);
  if (unplaced.length > 0 || unserved.length > 0)
    throw new Error(
      `sections without a place in DOCUMENT_ORDER: ${unplaced.join(', ') || 'none'}; placed but in no feature: ${unserved.join(', ') || 'none'}`,
    );
  return ordered;
}

/** The document /openapi.json serves, for tools and tests that build no app. */
export function openApiDocument(deps: Pick<Deps, 'config'>): JsonSchema {
  return openApiDocumentOf(apiSections(), deps);
}
