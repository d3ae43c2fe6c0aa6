import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { entry, type EntrySpec } from './field-spec.js';
import type { JsonSchema } from './json-schema.js';

/**
 * The CSV machinery the lead and client files share (issue 39, docs/decisions.md "CSV import and
 * export"): a table of columns read both ways (a row → a create body, a record → a row), the part
 * reader (headers checked, rows counted), the per-row tally of an import, and the export's writer,
 * which neutralises cells a spreadsheet would run as a formula. Each feature gives only its columns
 * and what one row does.
 */

export type CsvBody = Record<string, unknown>;

export interface CsvColumn<T> {
  header: string;
  /** Where the cell's text goes in the create body; absent for read-only columns. */
  write?: (body: CsvBody, text: string) => void;
  read: (item: T) => string;
}

/** Records one request may carry: the dashboard sends a file in parts of this many records at most. */
export const MAX_IMPORT_ROWS = 1000;
/** Row errors listed in one answer; the counts cover them all. */
export const MAX_LISTED_ERRORS = 200;
/** The text is fed to the parser in slices of this size, a turn of the event loop each. */
const SLICE = 16 * 1024;

export const LIST_SEPARATOR = ';';
export const listOf = (text: string) =>
  text
    .split(LIST_SEPARATOR)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** `customer.name` → body.customer.name = value. */
export function setPath(body: CsvBody, path: string, value: unknown): void {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) body[head] = value;
  else body[head] = { ...((body[head] as CsvBody | undefined) ?? {}), [tail]: value };
}
export const getPath = (item: unknown, path: string): unknown => path.split('.').reduce((v: any, k) => v?.[k], item);

const textOf = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A column copied as text both ways. */
export const plainColumn = <T>(header: string, path = header): CsvColumn<T> => ({
  header,
  write: (body, text) => setPath(body, path, text),
  read: (item) => textOf(getPath(item, path)),
});
/** A column an export writes and an import ignores (ids, status, times). */
export const readOnlyColumn = <T>(header: string): CsvColumn<T> => ({
  header,
  read: (item) => textOf(getPath(item, header)),
});

/** The import's body of a part: the same for every file (the OpenAPI document reads it). */
export const importRules = (title: string, what: string): EntrySpec =>
  entry(title, `A part of a ${what} CSV file: its header line and up to ${MAX_IMPORT_ROWS} records.`, [
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
  ]);

export interface ImportInput {
  csv: string;
  dryRun: boolean;
  firstRow?: number;
}

/**
 * A cell the export neutralised ('=1+2 written as "'=1+2") is read back as it was stored, so a file
 * exported imports unchanged (docs/decisions.md "CSV import and export").
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const unneutralised = (text: string) =>
  text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;

/** A row (by header) → the create body: empty cells are left out, read-only columns ignored. */
export function bodyOfRow<T>(columns: readonly CsvColumn<T>[], row: Record<string, string>): CsvBody {
  const body: CsvBody = {};
  for (const column of columns) {
    const text = unneutralised(row[column.header]?.trim() ?? '');
    if (text !== '' && column.write) column.write(body, text);
  }
  return body;
}

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV injection"). */
export const neutralised = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** Records → the CSV file, header line first, every cell neutralised; written as the records come. */
export function csvStream<T>(columns: readonly CsvColumn<T>[], items: AsyncIterable<T>): Readable {
  async function* rows() {
    for await (const item of items) yield columns.map((c) => neutralised(c.read(item)));
  }
  return Readable.from(rows()).pipe(stringify({ header: true, columns: columns.map((c) => c.header) }));
}

export interface ParsedRecord {
  headers: string[];
  cells: string[];
}

/** Every record after the header line; the whole part refused (400 on `csv`) when it cannot be read. */
export async function parseCsvPart(csv: string, known: readonly string[]): Promise<ParsedRecord[]> {
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
        const unknown = headers.filter((h) => !known.includes(h));
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

export interface RowError {
  row: number;
  /** The row's key (externalId of a lead, clientId of a client), null when it has none. */
  key: string | null;
  code: string;
  message: string;
  errors?: FieldError[];
}

export interface ImportCounts {
  dryRun: boolean;
  rows: number;
  /** Stored now (a dry run: would be). */
  created: number;
  /** Already stored under the row's key with the same details: nothing written (a dry run: the key is taken). */
  unchanged: number;
  failed: number;
}

/** A row ready for its feature's check or write: its number in the file, its key, its create body. */
export interface ReadyRow {
  row: number;
  key: string | null;
  body: CsvBody;
}

/**
 * The tally of one part: rows read into bodies (a cell count off, or a key repeated within the part,
 * fails the row here), then each feature's outcome per row, then the answer with the first errors.
 */
export class ImportTally {
  readonly counts: ImportCounts;
  private readonly errors: RowError[] = [];

  constructor(dryRun: boolean) {
    this.counts = { dryRun, rows: 0, created: 0, unchanged: 0, failed: 0 };
  }

  fail(error: RowError): void {
    this.counts.failed += 1;
    this.errors.push(error);
  }

  /** An AppError of a row becomes its error; anything else is the server's and is thrown. */
  failWith(ready: ReadyRow, error: unknown): void {
    if (!(error instanceof AppError)) throw error;
    const fieldErrors = error.fieldErrors?.length ? { errors: error.fieldErrors } : {};
    this.fail({ row: ready.row, key: ready.key, code: error.code, message: error.message, ...fieldErrors });
  }

  /** Records → bodies; `keyOf` reads the row's key from its body. */
  read<T>(
    records: ParsedRecord[],
    firstRow: number,
    columns: readonly CsvColumn<T>[],
    keyOf: (body: CsvBody) => string | null,
    keyName: string,
  ): ReadyRow[] {
    const seen = new Map<string, number>();
    const ready: ReadyRow[] = [];
    for (const [index, { headers, cells }] of records.entries()) {
      const row = firstRow + index;
      this.counts.rows += 1;
      if (cells.length !== headers.length) {
        const message = `has ${cells.length} cells where the header has ${headers.length}`;
        this.fail({ row, key: null, code: 'INVALID_FIELD_VALUE', message });
        continue;
      }
      const body = bodyOfRow(columns, Object.fromEntries(headers.map((h, i) => [h, cells[i]!])));
      const key = keyOf(body);
      const repeated = key === null ? undefined : seen.get(key);
      if (repeated !== undefined) {
        this.fail({ row, key, code: 'INVALID_FIELD_VALUE', message: `${keyName} repeats row ${repeated}` });
        continue;
      }
      if (key !== null) seen.set(key, row);
      ready.push({ row, key, body });
    }
    return ready;
  }

  /** The answer, errors by row with the key under the feature's own name (externalId, clientId). */
  answer<K extends string>(keyName: K) {
    const errors = this.errors
      .sort((a, b) => a.row - b.row)
      .slice(0, MAX_LISTED_ERRORS)
      .map(
        ({ key, row, ...rest }) =>
          ({ row, [keyName]: key, ...rest }) as Omit<RowError, 'key'> & Record<K, string | null>,
      );
    return { ...this.counts, errors };
  }
}

/** Runs `one` over the rows, `width` at a time (each its own transaction; keys are distinct within a part). */
export async function eachRow(ready: ReadyRow[], width: number, one: (row: ReadyRow) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ready.length) await one(ready[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** The OpenAPI schema of an import's answer, with the key under its feature's name. */
export function importOutcomeSchema(keyName: string, noun: string): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['dryRun', 'rows', 'created', 'unchanged', 'failed', 'errors'],
    properties: {
      dryRun: { type: 'boolean' },
      rows: { type: 'integer', minimum: 0, description: 'Records read (the header line not counted).' },
      created: { type: 'integer', minimum: 0, description: `${noun} stored (a dry run: that would be).` },
      unchanged: {
        type: 'integer',
        minimum: 0,
        description: `Rows whose ${keyName} is stored already with the same details: nothing written (a dry run: whose ${keyName} is taken).`,
      },
      failed: { type: 'integer', minimum: 0 },
      errors: {
        type: 'array',
        description: `The failed rows, at most ${MAX_LISTED_ERRORS} listed; \`row\` counts records from firstRow.`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['row', keyName, 'code', 'message'],
          properties: {
            row: { type: 'integer' },
            [keyName]: { type: ['string', 'null'] },
            code: { type: 'string' },
            message: { type: 'string' },
            errors: { type: 'array', items: { type: 'object' } },
          },
        },
      },
    },
  };
}
