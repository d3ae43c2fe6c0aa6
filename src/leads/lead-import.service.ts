import type { Store } from '../storage/store.js';
import { ImportTally, importRules, parseCsvPart, type ImportInput } from '../validation/csv-import.js';
import { readBody } from '../validation/read-body.js';
import { todayIn } from './lead.dates.js';
import { validateCreate } from './lead.validate.js';
import { LEAD_CSV_COLUMNS, LEAD_CSV_HEADERS } from './lead-csv.columns.js';
import { type Author, type LeadsService, YIELD_EVERY, yieldToOthers } from './leads.service.js';

/**
 * Rows written in one transaction. 100, not 500: the same rows/s, and the other requests wait for a
 * shorter transaction (SQLite holds its one connection for it) and get a turn between chunks more often
 * (docs/performance-leads.md "Import": list GET p50 18-39 ms against 258-422 on SQLite).
 */
const CHUNK = 100;

export const IMPORT_RULES = importRules('LeadImportInput', 'leads');

/**
 * Leads from CSV (issue 39, docs/decisions.md "Lead CSV import and export"): each row is created as
 * POST /leads creates a lead, idempotent on its externalId, so a file imported twice stores its leads
 * once. A dry run checks each row with the same validation against one read of the part's externalIds,
 * and writes nothing. The text is parsed as a stream fed in slices, and rows are written a chunk per
 * transaction, the event loop yielded between chunks: a large file never holds the loop for long, and
 * other requests are answered between its queries.
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
      const today = todayIn(context.timeZone, this.now());
      const keys = ready.map((row) => row.key).filter((key): key is string => key !== null);
      const stored = await this.store.leads.findByExternalIds(urlKey, keys);
      for (const [index, row] of ready.entries()) {
        if (index % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
        try {
          validateCreate(row.body, context, today, 'api');
          if (row.key !== null && stored.has(row.key)) counts.unchanged += 1;
          else counts.created += 1;
        } catch (error) {
          tally.failWith(row, error);
        }
      }
    } else {
      // A transaction per chunk, not per row, and a multi-row INSERT per table in it (docs/performance-leads.md
      // "Import"): each row still decided and answered on its own.
      for (let at = 0; at < ready.length; at += CHUNK) {
        // Between chunks the requests that arrived meanwhile are answered first.
        if (at > 0) await yieldToOthers();
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
