import {
  type CsvBody,
  type CsvColumn,
  LIST_SEPARATOR,
  listOf,
  plainColumn,
  readOnlyColumn,
  setPath,
} from '../validation/csv-import.js';

/**
 * The leads CSV format (issue 39, docs/decisions.md "Lead CSV import and export"): one table of columns
 * that both the import (a row → the body of POST /leads) and the export (a lead → a row) read, so a
 * file exported can be imported again unchanged. Lists are joined by ";"; an empty cell is an absent
 * member. Columns an export writes but an import cannot set (leadId, status, times) are read-only.
 * The machinery (parsing, neutralising, the tally) is shared with clients: src/validation/csv-import.ts.
 */

type Lead = Record<string, any>;

/** A decimal as written in the file; the API takes a JSON number (exact up to its 4 places and 10^13). */
const DECIMAL = /^-?\d+(\.\d+)?$/;

const plain = (header: string, path = header) => plainColumn<Lead>(header, path);
const readOnly = (header: string) => readOnlyColumn<Lead>(header);
const listColumn = (header: string): CsvColumn<Lead> => ({
  header,
  write: (body, text) => setPath(body, header, listOf(text)),
  read: (lead) => (lead[header] ?? []).join(`${LIST_SEPARATOR} `),
});

export const LEAD_CSV_COLUMNS: readonly CsvColumn<Lead>[] = [
  readOnly('leadId'),
  plain('externalId'),
  plain('pipeline'),
  plain('stage'),
  readOnly('status'),
  listColumn('stageReasons'),
  plain('subject'),
  plain('details'),
  plain('customerClientId', 'customer.clientId'),
  plain('customerName', 'customer.name'),
  plain('customerCountry', 'customer.country'),
  plain('customerPhone', 'customer.phone'),
  plain('contactName', 'contact.name'),
  plain('contactEmail', 'contact.email'),
  plain('contactPhone', 'contact.phone'),
  plain('leadSource'),
  plain('assignedTo'),
  listColumn('tags'),
  {
    header: 'followUpDate',
    write: (body, text) => setPath(body, 'followUpDate', text),
    read: (lead) => (lead.followUpDate ? String(lead.followUpDate).slice(0, 10) : ''),
  },
  {
    header: 'budgetAmount',
    // Left as text when it is no decimal, so the create's own check names it (budget.amount).
    write: (body, text) =>
      setPath(body, 'budget', {
        ...((body.budget as CsvBody) ?? {}),
        amount: DECIMAL.test(text) ? Number(text) : text,
      }),
    read: (lead) => (lead.budget ? String(lead.budget.amount) : ''),
  },
  {
    header: 'budgetCurrency',
    write: (body, text) => setPath(body, 'budget', { ...((body.budget as CsvBody) ?? {}), currency: text }),
    read: (lead) => lead.budget?.currency ?? '',
  },
  readOnly('source'),
  readOnly('createdAt'),
  readOnly('updatedAt'),
];

export const LEAD_CSV_HEADERS = LEAD_CSV_COLUMNS.map((c) => c.header);
