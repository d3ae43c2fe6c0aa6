import type { Store } from '../storage/store.js';
import { eachRow, ImportTally, importRules, parseCsvPart, type ImportInput } from '../validation/csv-import.js';
import { readBody } from '../validation/read-body.js';
import { todayIn } from './lead.dates.js';
import { validateCreate } from './lead.validate.js';
import { LEAD_CSV_COLUMNS, LEAD_CSV_HEADERS } from './lead-csv.columns.js';
import type { Author, LeadsService } from './leads.service.js';

/** Rows of a preview checked at once. */
const PREVIEW_CONCURRENCY = 4;
/** Rows written in one transaction. */
const CHUNK = 500;

export const IMPORT_RULES = importRules('LeadImportInput', 'leads');

/**
 * Leads from CSV (issue 39, docs/decisions.md "Lead CSV import and export"): each row is created as
 * POST /leads creates a lead, idempotent on its externalId, so a file imported twice stores its leads
 * once. A dry run checks each row with the same validation and writes nothing. The text is parsed as a
 * stream fed in slices, and rows are written a chunk per transaction, every read and write awaited: a
 * large file never holds the event loop, and other requests are answered between its queries.
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
    if (counts.dryRun) {
      await eachRow(ready, PREVIEW_CONCURRENCY, async (row) => {
        try {
          validateCreate(row.body, context, todayIn(context.timeZone, this.now()), 'api');
          const stored = row.key === null ? undefined : await this.store.leads.findByExternalId(urlKey, row.key);
          if (stored) counts.unchanged += 1;
          else counts.created += 1;
        } catch (error) {
          tally.failWith(row, error);
        }
      });
    } else {
      // A transaction per chunk, not per row (docs/performance-leads.md "Import"): each row still
      // decided and answered on its own, the writes of CHUNK rows committed together.
      for (let at = 0; at < ready.length; at += CHUNK) {
        const chunk = ready.slice(at, at + CHUNK);
        const outcomes = await this.leads.createMany(
          urlKey,
          chunk.map((row) => row.body),
          by,
        );
        for (const [i, outcome] of outcomes.entries()) {
          if ('error' in outcome) tally.failWith(chunk[i]!, outcome.error);
          else if (outcome.idempotent) counts.unchanged += 1;
          else counts.created += 1;
        }
      }
    }
    return tally.answer('externalId');
  }
}
