import { ok, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import { importOutcomeSchema, MAX_IMPORT_ROWS } from '../validation/csv-import.js';
import { bodyJsonSchema } from '../validation/read-body.js';
import { CLIENT_CSV_HEADERS } from './client-csv.columns.js';
import { ClientExportService } from './client-export.service.js';
import { CLIENT_IMPORT_RULES, ClientImportService } from './client-import.service.js';
import type { ClientsContext } from './clients.routes.js';
import { CLIENT_LIST_LIMITS } from './clients-list.js';

export const ADMIN_CLIENT_IMPORTS = '/admin/v1/businesses/:urlKey/client-imports';
export const ADMIN_CLIENT_EXPORT = '/admin/v1/businesses/:urlKey/client-export';

const operation = operationsOf<ClientsContext>();

const EXAMPLE_CSV = 'clientId,name,email,country,gstin\nERP-1001,Asha Traders,asha@example.com,IN,27AAPFU0939F1ZV\n';

/** Client CSV import and export (issue 39): the dashboard's files, through the client create of the API. */
export const clientCsvApi: ApiSection<ClientsContext> = {
  tag: {
    name: 'Operator: client CSV import and export',
    description:
      `Clients from and to CSV with the columns ${CLIENT_CSV_HEADERS.join(', ')}: one per client field; booleans ` +
      'true/false; additionalIds, shippingDetails, bankAccounts and customFields as JSON.',
  },
  schemas: { ClientImportOutcome: importOutcomeSchema('clientId', 'Clients') },
  operations: [
    operation({
      method: 'post',
      path: ADMIN_CLIENT_IMPORTS,
      operationId: 'importClientsCsv',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Import clients from CSV (or check them: dryRun)',
      description:
        `A header line and up to ${MAX_IMPORT_ROWS} records; a larger file is sent in parts (firstRow numbers each part's rows in the file). ` +
        'Each row is created as POST /api/v1/…/clients creates a client (idempotent on clientId), so importing a file twice stores its clients once; ' +
        'a clientId stored with other details, or archived or deleted, fails its row (IDEMPOTENCY_CONFLICT). ' +
        'Read-only columns (status, source, createdAt, updatedAt) are ignored; an unknown column refuses the part. Rows fail one by one.',
      body: {
        required: true,
        schema: bodyJsonSchema(CLIENT_IMPORT_RULES, 'The CSV part and whether to write.'),
        examples: { preview: { summary: 'Check one row', value: { csv: EXAMPLE_CSV, dryRun: true } } },
      },
      answers: [
        { status: 200, description: 'The counts and the failed rows.', schema: success(ref('ClientImportOutcome')) },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_FIELD', 'INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: ({ clients }) => {
        const imports = new ClientImportService(clients);
        return async (request) => {
          rejectQuery(request);
          return ok(await imports.run(request.params.urlKey, request.body));
        };
      },
    }),
    operation({
      method: 'get',
      path: ADMIN_CLIENT_EXPORT,
      operationId: 'exportClientsCsv',
      guard: 'operator',
      pathParams: { urlKey: 'The business key.' },
      summary: 'Export the clients a search matches as CSV',
      description:
        "Every matching client, whatever its status (no page cap), newest first, with the import's columns. " +
        'Cells a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return) are written ' +
        'with a leading apostrophe, which the import takes off again.',
      query: [
        {
          name: 'q',
          description: `Text the client's name or clientId contains, ignoring case; at most ${CLIENT_LIST_LIMITS.maxQ} characters.`,
          schema: { type: 'string' },
        },
      ],
      answers: [
        {
          status: 200,
          description: 'The CSV file.',
          mediaType: 'text/csv',
          schema: { type: 'string' },
          headers: {
            'Content-Disposition': { description: 'attachment; filename="clients.csv"', schema: { type: 'string' } },
          },
        },
      ],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: ({ clients, store }) => {
        const exports = new ClientExportService(clients, store);
        return async (request, reply) => {
          const csv = await exports.export(request.params.urlKey, request.query);
          reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="clients.csv"');
          return csv;
        };
      },
    }),
  ],
};
