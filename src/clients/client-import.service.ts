import { eachRow, ImportTally, importRules, parseCsvPart, type ImportInput } from '../validation/csv-import.js';
import { readBody } from '../validation/read-body.js';
import { CLIENT_CSV_COLUMNS, CLIENT_CSV_HEADERS } from './client-csv.columns.js';
import type { ClientsService } from './clients.service.js';

/** Rows of one part written at once, each its own transaction. */
const IMPORT_CONCURRENCY = 4;

export const CLIENT_IMPORT_RULES = importRules('ClientImportInput', 'clients');

/**
 * Clients from CSV (issue 39, docs/decisions.md "Client CSV import and export"): each row is created
 * as POST /api/v1/…/clients creates a client, idempotent on its clientId, so a file imported twice
 * stores its clients once. A dry run asks the same create what it would do and writes nothing.
 */
export class ClientImportService {
  constructor(private readonly clients: ClientsService) {}

  async run(urlKey: string, body: unknown) {
    const input = readBody<ImportInput>(body, CLIENT_IMPORT_RULES);
    await this.clients.context(urlKey);
    const records = await parseCsvPart(input.csv, CLIENT_CSV_HEADERS);
    const tally = new ImportTally(input.dryRun === true);
    const keyOf = (client: Record<string, unknown>) => (typeof client.clientId === 'string' ? client.clientId : null);
    const ready = tally.read(records, input.firstRow ?? 1, CLIENT_CSV_COLUMNS, keyOf, 'clientId');
    const { counts } = tally;
    await eachRow(ready, IMPORT_CONCURRENCY, async (row) => {
      try {
        const outcome = counts.dryRun
          ? await this.clients.check(urlKey, row.body)
          : (await this.clients.create(urlKey, row.body)).idempotent
            ? 'unchanged'
            : 'new';
        if (outcome === 'new') counts.created += 1;
        else counts.unchanged += 1;
      } catch (error) {
        tally.failWith(row, error);
      }
    });
    return tally.answer('clientId');
  }
}
