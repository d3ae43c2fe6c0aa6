import type { Store } from '../storage/store.js';
import {
  eachRow,
  ImportTally,
  importRules,
  parseCsvPart,
  type ImportInput,
  type ReadyRow,
} from '../validation/csv-import.js';
import { readBody } from '../validation/read-body.js';
import { todayIn } from './lead.dates.js';
import { validateCreate } from './lead.validate.js';
import { LEAD_CSV_COLUMNS, LEAD_CSV_HEADERS } from './lead-csv.columns.js';
import type { Author, LeadsService } from './leads.service.js';

/** Rows of one part written at once. */
const IMPORT_CONCURRENCY = 4;

export const IMPORT_RULES = importRules('LeadImportInput', 'leads');

/**
 * Leads from CSV (issue 39, docs/decisions.md "Lead CSV import and export"): each row is created as
 * POST /leads creates a lead, idempotent on its externalId, so a file imported twice stores its leads
 * once. A dry run checks each row with the same validation and writes nothing. The text is parsed as a
 * stream fed in slices and every row's write awaits the store: a large file never holds the event loop.
 */
export class LeadImportService {
  constructor(
    private readonly store: Store,
    private readonly leads: LeadsService,
    private readonly now: () => number,
  ) {}

  async run(urlKey: string, body: unknown, by: Author) {
    const input = readBody<ImportInput>(body, IMPORT_RULES);
    const context = await this.leads.context(urlKey);
    const records = await parseCsvPart(input.csv, LEAD_CSV_HEADERS);
    const tally = new ImportTally(input.dryRun === true);
    const keyOf = (lead: Record<string, unknown>) => (typeof lead.externalId === 'string' ? lead.externalId : null);
    const ready = tally.read(records, input.firstRow ?? 1, LEAD_CSV_COLUMNS, keyOf, 'externalId');
    const { counts } = tally;
    const one = async (row: ReadyRow) => {
      try {
        if (counts.dryRun) {
          validateCreate(row.body, context, todayIn(context.timeZone, this.now()), 'api');
          const stored = row.key === null ? undefined : await this.store.leads.findByExternalId(urlKey, row.key);
          if (stored) counts.unchanged += 1;
          else counts.created += 1;
        } else {
          const { idempotent } = await this.leads.create(urlKey, row.body, by);
          if (idempotent) counts.unchanged += 1;
          else counts.created += 1;
        }
      } catch (error) {
        tally.failWith(row, error);
      }
    };
    // A few rows at a time, each its own transaction: the store's pool and SQLite's group commit take
    // them together; other requests keep their share.
    await eachRow(ready, IMPORT_CONCURRENCY, one);
    return tally.answer('externalId');
  }
}
