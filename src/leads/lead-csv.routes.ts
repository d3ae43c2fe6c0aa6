import type { FastifyRequest } from 'fastify';
import { feature, type FeatureEnv } from '../feature.js';
import { ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { importOutcomeSchema, MAX_IMPORT_ROWS } from '../validation/csv-import.js';
import { bodyJsonSchema } from '../validation/read-body.js';
import { LEAD_CSV_HEADERS } from './lead-csv.columns.js';
import { EXPORT_REFUSED, LeadExportService } from './lead-export.service.js';
import { IMPORT_RULES, LeadImportService } from './lead-import.service.js';
import { LEAD_LIST_ERRORS, LEAD_LIST_QUERY } from './leads-list.openapi.js';
import { LeadsListService } from './leads-list.service.js';
import { LeadsService } from './leads.service.js';

export const ADMIN_LEAD_IMPORTS = '/admin/v1/businesses/:urlKey/lead-imports';
export const ADMIN_LEAD_EXPORT = '/admin/v1/businesses/:urlKey/lead-export';

interface CsvContext {
  imports: LeadImportService;
  exports: LeadExportService;
}

const operation = operationsOf<CsvContext>();
const operatorOf = (request: FastifyRequest) => ({ origin: 'API' as const, author: request.operator?.email ?? '' });

const SCHEMAS: Record<string, JsonSchema> = { LeadImportOutcome: importOutcomeSchema('externalId', 'Leads') };

const EXAMPLE_CSV = `externalId,pipeline,stage,subject,customerName,contactName\nweb-1001,Sales,New,Website enquiry,Asha Traders,Asha Rao\n`;

export const leadCsvApi: ApiSection<CsvContext> = {
  tag: {
    name: 'Operator: lead CSV import and export',
    description: `Leads from and to CSV with the columns ${LEAD_CSV_HEADERS.join(', ')} (lists joined by ";").`,
  },
  schemas: SCHEMAS,
  operations: [
    operation({
      method: 'post',
      path: ADMIN_LEAD_IMPORTS,
      operationId: 'importLeadsCsv',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Import leads from CSV (or check them: dryRun)',
      description:
        `A header line and up to ${MAX_IMPORT_ROWS} records; a larger file is sent in parts (firstRow numbers each part's rows in the file). ` +
        'Each row is created as POST /api/v1/…/leads creates a lead (source API, idempotent on externalId), so importing a file twice stores its leads once. ' +
        'Read-only columns (leadId, status, source, createdAt, updatedAt) are ignored; an unknown column refuses the part. Rows fail one by one, each with its own code (SERVICE_ERROR: a row the store could not write; the others are imported).',
      body: {
        required: true,
        schema: bodyJsonSchema(IMPORT_RULES, 'The CSV part and whether to write.'),
        examples: { preview: { summary: 'Check one row', value: { csv: EXAMPLE_CSV, dryRun: true } } },
      },
      answers: [
        { status: 200, description: 'The counts and the failed rows.', schema: success(ref('LeadImportOutcome')) },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ imports }) =>
        async (request) => {
          rejectQuery(request);
          return ok(await imports.run(request.params.urlKey, request.body, operatorOf(request)));
        },
    }),
    operation({
      method: 'get',
      path: ADMIN_LEAD_EXPORT,
      operationId: 'exportLeadsCsv',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Export the leads a filter matches as CSV',
      description:
        "Every matching lead (no page cap), in the order leads were last updated, with the import's columns. " +
        `Takes the lead list's filters; a $sort is ignored; ${EXPORT_REFUSED.join(', ')} are refused.`,
      query: LEAD_LIST_QUERY.filter((p) => !(EXPORT_REFUSED as readonly string[]).includes(p.name)),
      answers: [
        {
          status: 200,
          description: 'The CSV file.',
          mediaType: 'text/csv',
          schema: { type: 'string' },
          headers: {
            'Content-Disposition': { description: 'attachment; filename="leads.csv"', schema: { type: 'string' } },
          },
        },
      ],
      errors: [...LEAD_LIST_ERRORS!.filter((c) => !c.startsWith('INVALID_PAGINATION')), 'BUSINESS_NOT_FOUND'],
      handler:
        ({ exports }) =>
        async (request, reply) => {
          const csv = await exports.export(request.params.urlKey, request.query);
          reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="leads.csv"');
          return csv;
        },
    }),
  ],
};

/** Lead CSV import and export (issue 39): the dashboard's files, through the same lead rules as the API. */
export const leadCsvFeature = feature({
  sections: [leadCsvApi],
  context: ({ deps, services }: FeatureEnv): CsvContext => {
    const now = () => deps.clock.now();
    const leads = new LeadsService(deps.store, services.leadContexts, now, services.events);
    return {
      imports: new LeadImportService(deps.store, leads, now),
      exports: new LeadExportService(new LeadsListService(deps.store, services.leadContexts)),
    };
  },
});
