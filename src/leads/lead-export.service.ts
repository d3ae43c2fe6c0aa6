import type { Readable } from 'node:stream';
import { AppError } from '../errors/app-error.js';
import { csvStream } from '../validation/csv-import.js';
import { LEAD_CSV_COLUMNS } from './lead-csv.columns.js';
import { MAX_LIMIT, MAX_SKIP } from './leads.query.js';
import type { LeadsListService } from './leads-list.service.js';

/** List parameters that page or sync: the export walks every matching lead itself. */
export const EXPORT_REFUSED = ['$limit', '$skip', 'updatedAtFrom', 'after'] as const;
const FREE_TEXT = ['q', 'subject', 'details'];

/**
 * Leads to CSV (issue 39, docs/decisions.md "Lead CSV import and export"): the leads a list filter
 * matches, written as they are read, in the import's columns (lead-csv.columns.ts). The walk goes by
 * createdAt ascending, each page starting at the last page's createdAt (createdAtFrom) and skipping
 * the leads of that instant already written, so it has no $skip cap. With free text the list orders
 * by relevance: the walk then pages by $skip, up to the list's cap.
 */
export class LeadExportService {
  constructor(private readonly lists: LeadsListService) {}

  /** The CSV as a stream; the filters are checked (400/404) before the first byte is sent. */
  async export(urlKey: string, raw: unknown): Promise<Readable> {
    const query: Record<string, unknown> = { ...((raw ?? {}) as Record<string, unknown>) };
    for (const key of Object.keys(query)) {
      if ((EXPORT_REFUSED as readonly string[]).includes(key))
        throw new AppError('INVALID_QUERY_FIELD', `${key} is not accepted here: the export holds every matching lead`);
      // The order is the walk's; a sort kept from the list view is not an error.
      if (key.startsWith('$sort[')) delete query[key];
    }
    const byRelevance = FREE_TEXT.some((key) => query[key] !== undefined);
    const base = { ...query, $limit: String(MAX_LIMIT), ...(byRelevance ? {} : { '$sort[createdAt]': '1' }) };
    const pageOf = (from: unknown, skip: number) =>
      this.lists.list(urlKey, { ...base, ...(from !== undefined && { createdAtFrom: from }), $skip: String(skip) });
    const first = await pageOf(query.createdAtFrom, 0);
    async function* rows() {
      const seen = new Set<string>();
      let page = first;
      let from = query.createdAtFrom;
      let skip = 0;
      while (true) {
        for (const lead of page.items) {
          const leadId = String(lead.leadId);
          if (seen.has(leadId)) continue;
          seen.add(leadId);
          yield lead;
        }
        if (page.items.length < MAX_LIMIT) return;
        if (byRelevance) {
          skip += page.items.length;
        } else {
          const last = String(page.items.at(-1)!.createdAt);
          const atLast = page.items.filter((lead) => lead.createdAt === last).length;
          skip = last === from ? skip + atLast : atLast;
          from = last;
        }
        if (skip > MAX_SKIP) return;
        page = await pageOf(from, skip);
      }
    }
    return csvStream(LEAD_CSV_COLUMNS, rows());
  }
}
