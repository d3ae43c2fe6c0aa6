import { type CsvColumn, readOnlyColumn, setPath } from '../validation/csv-import.js';
import type { FieldSpec } from '../validation/field-spec.js';
import { CLIENT_SPEC } from './client.schema.js';

/**
 * The clients CSV format (issue 39, docs/decisions.md "Client CSV import and export"): a column per
 * field of the client field table (client.schema.ts), so a new field is a new column with nothing to
 * add here. Scalars are the field's text; booleans "true"/"false"; lists (additionalIds,
 * shippingDetails, bankAccounts) and customFields a JSON cell, so a file exported imports unchanged.
 * A cell that is not what its field takes is passed on as text, and the create's own check names it.
 * The machinery is shared with leads: src/validation/csv-import.ts.
 */

type Client = Record<string, unknown>;

const WHOLE = /^-?\d{1,15}$/;

function columnOf(header: string, spec: FieldSpec): CsvColumn<Client> {
  const write = (read: (text: string) => unknown) => (body: Record<string, unknown>, text: string) =>
    setPath(body, header, read(text));
  switch (spec.type) {
    case 'boolean':
      return {
        header,
        write: write((text) => ({ true: true, false: false })[text.toLowerCase()] ?? text),
        read: (client) => (typeof client[header] === 'boolean' ? String(client[header]) : ''),
      };
    case 'integer':
      return {
        header,
        write: write((text) => (WHOLE.test(text) ? Number(text) : text)),
        read: (client) => (client[header] === null || client[header] === undefined ? '' : String(client[header])),
      };
    case 'array':
    case 'customFields':
      return {
        header,
        write: write((text) => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return text;
          }
        }),
        read: (client) => {
          const value = client[header];
          const empty = value === null || value === undefined || Object.keys(value as object).length === 0;
          return empty ? '' : JSON.stringify(value);
        },
      };
    default:
      return {
        header,
        write: write((text) => text),
        read: (client) => (client[header] === null || client[header] === undefined ? '' : String(client[header])),
      };
  }
}

export const CLIENT_CSV_COLUMNS: readonly CsvColumn<Client>[] = [
  ...[...CLIENT_SPEC.fields].map(([header, spec]) => columnOf(header, spec)),
  readOnlyColumn<Client>('status'),
  readOnlyColumn<Client>('source'),
  readOnlyColumn<Client>('createdAt'),
  readOnlyColumn<Client>('updatedAt'),
];

export const CLIENT_CSV_HEADERS = CLIENT_CSV_COLUMNS.map((c) => c.header);
