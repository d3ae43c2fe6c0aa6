import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { feature, type FeatureEnv } from '../feature.js';
import { assetOf, sendAsset, type Asset } from '../http/static-assets.js';
import { ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { ErrorCode } from '../errors/codes.js';
import { InvoiceReportsService } from './invoice-reports.service.js';
import { LeadReportsService } from './lead-reports.service.js';
import { REPORT_PARAMETERS, REPORT_SCHEMAS } from './reports.openapi.js';
import type { ReportParameter } from './report.query.js';

/** Where every report lives: one path per report below it. */
export const ADMIN_REPORTS = '/admin/v1/businesses/:urlKey/reports';

export interface ReportsContext {
  leads: LeadReportsService;
  invoices: InvoiceReportsService;
  /** Chart.js's browser build, read once from the installed package. */
  chartLibrary: Asset;
}

/** Where the dashboard loads Chart.js from: the project's own origin (no CDN; docs/decisions.md). */
export const CHART_LIBRARY_PATH = '/assets/vendor/chart.umd.js';

function readChartLibrary(): Asset {
  // The package's exports map names no dist file: its main entry's folder holds the UMD build beside it.
  const main = createRequire(import.meta.url).resolve('chart.js');
  return assetOf(readFileSync(join(dirname(main), 'chart.umd.min.js')), 'text/javascript; charset=utf-8');
}

const operation = operationsOf<ReportsContext>();

/** What a report answers beyond the guard's codes. */
const errorsOf = (parameters: readonly ReportParameter[]): ErrorCode[] => [
  'INVALID_QUERY_FIELD',
  ...(parameters.length > 0 ? (['INVALID_QUERY_VALUE'] as const) : []),
  ...(parameters.includes('pipeline') ? (['INVALID_PIPELINE'] as const) : []),
  'BUSINESS_NOT_FOUND',
];

/** One report: a GET of the operator API answering `{success: true, data: [report]}`. */
function report(definition: {
  slug: string;
  schema: string;
  summary: string;
  description: string;
  parameters: readonly ReportParameter[];
  answer: (context: ReportsContext, urlKey: string, query: unknown) => Promise<unknown>;
}) {
  return operation({
    method: 'get',
    path: `${ADMIN_REPORTS}/${definition.slug}` as `${typeof ADMIN_REPORTS}/${string}`,
    operationId: `report${definition.schema.replace(/Report$/, '')}`,
    guard: 'operator',
    pathParams: { urlKey: 'The business key.' },
    summary: definition.summary,
    description: definition.description,
    query: definition.parameters.map((name) => REPORT_PARAMETERS[name]),
    answers: [
      {
        status: 200,
        description: 'The report.',
        schema: success({ type: 'array', minItems: 1, maxItems: 1, items: ref(definition.schema) }),
      },
    ],
    errors: errorsOf(definition.parameters),
    handler: (context) => async (request) =>
      ok([await definition.answer(context, (request.params as { urlKey: string }).urlKey, request.query)]),
  });
}

export const reportsApi: ApiSection<ReportsContext> = {
  tag: {
    name: 'Operator: reports',
    description:
      "Figures an owner reads at a glance, aggregated by the database: the pipeline's value and forecast, won and lost leads, stage conversion and time in stage, invoicing, collections and receivables. Months and days are counted in the business's time zone.",
  },
  schemas: REPORT_SCHEMAS,
  operations: [
    report({
      slug: 'pipeline-value',
      schema: 'PipelineReport',
      summary: 'Pipeline value by stage, with the weighted forecast',
      description:
        "Live leads per stage of a pipeline and their budgets summed exactly per currency, each weighted by the stage's closure percentage.",
      parameters: ['pipeline'],
      answer: (c, urlKey, query) => c.leads.pipelineValue(urlKey, query),
    }),
    report({
      slug: 'lead-outcomes',
      schema: 'OutcomesReport',
      summary: 'Won and lost leads per month, and lost leads by reason',
      description:
        'Leads now won (a CLOSED stage) or lost (DROPPED or REJECTED), counted in the month they entered that stage (from the activity history).',
      parameters: ['pipeline', 'months'],
      answer: (c, urlKey, query) => c.leads.outcomes(urlKey, query),
    }),
    report({
      slug: 'stage-flow',
      schema: 'StageFlowReport',
      summary: 'Conversion from each stage to won, and the median days in each stage',
      description:
        "From the activity history: a lead's stay in a stage runs from the move into it to its next move (a change of reasons alone is no move).",
      parameters: ['pipeline', 'months'],
      answer: (c, urlKey, query) => c.leads.stageFlow(urlKey, query),
    }),
    report({
      slug: 'invoicing',
      schema: 'InvoicingReport',
      summary: 'Invoiced and collected per month',
      description: 'Exact sums per currency of the invoices issued and the payments received in each month.',
      parameters: ['months'],
      answer: (c, urlKey, query) => c.invoices.invoicing(urlKey, query),
    }),
    report({
      slug: 'receivables',
      schema: 'ReceivablesReport',
      summary: 'Receivables ageing',
      description: 'What unpaid and partly paid invoices still owe, by days past their due date, as of today.',
      parameters: [],
      answer: (c, urlKey, query) => c.invoices.receivables(urlKey, query),
    }),
    operation({
      method: 'get',
      path: CHART_LIBRARY_PATH,
      operationId: 'chartLibrary',
      guard: 'open',
      summary: 'The chart library of the reports page',
      description: 'Chart.js (MIT), the browser build of the installed npm package, served by the service itself.',
      answers: [
        { status: 200, description: 'The script.', mediaType: 'text/javascript', schema: { type: 'string' } },
        { status: 304, description: 'Not modified (If-None-Match).' },
      ],
      handler: (context) => async (request, reply) => sendAsset(request, reply, context.chartLibrary),
    }),
  ],
};

/** GET …/reports/… (issue 38 item 4): the reports page's figures. */
export const reportsFeature = feature({
  sections: [reportsApi],
  context: ({ deps, services }: FeatureEnv): ReportsContext => ({
    leads: new LeadReportsService(deps.store, services.leadContexts, () => deps.clock.now()),
    invoices: new InvoiceReportsService(deps.store, services.leadContexts, () => deps.clock.now()),
    chartLibrary: readChartLibrary(),
  }),
});
