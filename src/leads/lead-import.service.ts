import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { Store } from '../storage/store.js';
import { entry } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';
import { todayIn } from './lead.dates.js';
import { validateCreate } from './lead.validate.js';
import { bodyOfRow, unknownHeaders } from './lead-csv.columns.js';
import type { Author, LeadsService } from './leads.service.js';

/** Rows one request may carry: the dashboard sends a file in parts of this many records at most. */
export const MAX_IMPORT_ROWS = 1000;
/** Rows of one part written at once. */
const IMPORT_CONCURRENCY = 4;
/** Row errors listed in one answer; the counts cover them all. */
const MAX_LISTED_ERRORS = 200;
/** The text is fed to the parser in slices of this size, a turn of the event loop each. */
const SLICE = 16 * 1024;

export const IMPORT_RULES = entry(
  'LeadImportInput',
  'A part of a leads CSV file: its header line and up to 1,000 records.',
  [
    [
      'csv',
      {
        type: 'string',
        required: true,
        minLength: 1,
        description: 'CSV text (RFC 4180), UTF-8, first line the headers.',
      },
    ],
    [
      'dryRun',
      { type: 'boolean', default: false, description: 'true: check every row and write nothing (the preview).' },
    ],
    [
      'firstRow',
      {
        type: 'integer',
        minimum: 1,
        maximum: 10_000_000,
        description:
          "The file's number of this part's first record (default 1), so row errors are numbered in the whole file.",
      },
    ],
  ],
);

export interface RowError {
  row: number;
  externalId: string | null;
  code: string;
  message: string;
  errors?: FieldError[];
}

export interface ImportAnswer {
  dryRun: boolean;
  rows: number;
  /** Stored now (a dry run: would be). */
  created: number;
  /** Already stored under the row's externalId with the same details: nothing written (a dry run: the externalId is taken). */
  unchanged: number;
  failed: number;
  errors: RowError[];
}

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

  async run(urlKey: string, body: unknown, by: Author): Promise<ImportAnswer> {
    const input = readBody<{ csv: string; dryRun: boolean; firstRow?: number }>(body, IMPORT_RULES);
    const context = await this.leads.context(urlKey);
    const records = await parseRecords(input.csv);
    const first = input.firstRow ?? 1;
    const answer: ImportAnswer = {
      dryRun: input.dryRun === true,
      rows: 0,
      created: 0,
      unchanged: 0,
      failed: 0,
      errors: [],
    };
    const seen = new Map<string, number>();
    const errors: RowError[] = [];
    const fail = (error: RowError) => {
      answer.failed += 1;
      errors.push(error);
    };
    const ready: { row: number; externalId: string | null; lead: Record<string, unknown> }[] = [];
    for (const [index, { headers, cells }] of records.entries()) {
      const row = first + index;
      answer.rows += 1;
      if (cells.length !== headers.length) {
        const message = `has ${cells.length} cells where the header has ${headers.length}`;
        fail({ row, externalId: null, code: 'INVALID_FIELD_VALUE', message });
        continue;
      }
      const lead = bodyOfRow(Object.fromEntries(headers.map((h, i) => [h, cells[i]!])));
      const externalId = typeof lead.externalId === 'string' ? lead.externalId : null;
      const repeated = externalId === null ? undefined : seen.get(externalId);
      if (repeated !== undefined) {
        fail({ row, externalId, code: 'INVALID_FIELD_VALUE', message: `externalId repeats row ${repeated}` });
        continue;
      }
      if (externalId !== null) seen.set(externalId, row);
      ready.push({ row, externalId, lead });
    }
    const one = async ({ row, externalId, lead }: (typeof ready)[number]) => {
      try {
        if (answer.dryRun) {
          validateCreate(lead, context, todayIn(context.timeZone, this.now()), 'api');
          const stored = externalId === null ? undefined : await this.store.leads.findByExternalId(urlKey, externalId);
          if (stored) answer.unchanged += 1;
          else answer.created += 1;
        } else {
          const { idempotent } = await this.leads.create(urlKey, lead, by);
          if (idempotent) answer.unchanged += 1;
          else answer.created += 1;
        }
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const fieldErrors = error.fieldErrors?.length ? { errors: error.fieldErrors } : {};
        fail({ row, externalId, code: error.code, message: error.message, ...fieldErrors });
      }
    };
    // A few rows at a time, each its own transaction (externalIds are distinct, checked above): the
    // store's pool and SQLite's group commit take them together; other requests keep their share.
    let next = 0;
    const worker = async () => {
      while (next < ready.length) await one(ready[next++]!);
    };
    await Promise.all(Array.from({ length: IMPORT_CONCURRENCY }, worker));
    answer.errors = errors.sort((a, b) => a.row - b.row).slice(0, MAX_LISTED_ERRORS);
    return answer;
  }
}

interface ParsedRecord {
  headers: string[];
  cells: string[];
}

/** Every record after the header line; the whole part refused (400 on `csv`) when it cannot be read. */
async function parseRecords(csv: string): Promise<ParsedRecord[]> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  const slices = function* () {
    for (let at = 0; at < csv.length; at += SLICE) yield csv.slice(at, at + SLICE);
  };
  Readable.from(slices()).pipe(parser);
  let headers: string[] | null = null;
  const records: ParsedRecord[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (headers === null) {
        headers = record.map((h) => h.trim());
        const unknown = unknownHeaders(headers);
        if (unknown.length > 0) throw csvError(`unknown columns: ${unknown.join(', ')}`);
        continue;
      }
      if (records.length === MAX_IMPORT_ROWS) throw csvError(`at most ${MAX_IMPORT_ROWS} records per request`);
      records.push({ headers, cells: record });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw csvError((error as Error).message);
  }
  if (headers === null) throw csvError('the first line must hold the column names');
  return records;
}

const csvError = (text: string) => {
  const message = `csv: ${text}`;
  return new AppError('INVALID_FIELD_VALUE', message, [{ field: 'csv', code: 'INVALID_FIELD_VALUE', message }]);
};
