import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import { csvStream } from '../validation/csv-import.js';
import { presentClient } from './client.present.js';
import { CLIENT_CSV_COLUMNS } from './client-csv.columns.js';
import type { ClientsService } from './clients.service.js';
import { readClientListQuery } from './clients-list.js';

/** Clients read per page of the walk. */
const PAGE = 500;

/**
 * Clients to CSV (issue 39, docs/decisions.md "Client CSV import and export"): every client the list's
 * search matches (archived, deleted and dashboard clients included, each with its status), newest
 * first, in the import's columns (client-csv.columns.ts), written as they are read.
 */
export class ClientExportService {
  constructor(
    private readonly clients: ClientsService,
    private readonly store: Store,
  ) {}

  /** The CSV as a stream; the query is checked (400/404) before the first byte is sent. */
  async export(urlKey: string, raw: unknown): Promise<Readable> {
    const given = (raw ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (key !== 'q')
        throw new AppError(
          'INVALID_QUERY_FIELD',
          `${key} is not accepted here: the export holds every matching client`,
        );
    }
    const query = readClientListQuery(given);
    const context = await this.clients.context(urlKey);
    const pageAt = (skip: number) => this.store.clientLists.list(urlKey, { ...query, limit: PAGE, skip });
    const first = await pageAt(0);
    async function* clients() {
      let page = first;
      for (let skip = 0; ; ) {
        for (const c of page.items) {
          yield { ...presentClient({ ...c, balance: {} }, context), status: c.status };
        }
        skip += page.items.length;
        if (page.items.length < PAGE) return;
        page = await pageAt(skip);
      }
    }
    return csvStream(CLIENT_CSV_COLUMNS, clients());
  }
}
