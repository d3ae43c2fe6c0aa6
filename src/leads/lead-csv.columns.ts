/**
 * The leads CSV format (issue 39, docs/decisions.md "Lead CSV import and export"): one table of columns
 * that both the import (a row → the body of POST /leads) and the export (a lead → a row) read, so a
 * file exported can be imported again unchanged. Lists are joined by ";"; an empty cell is an absent
 * member. Columns an export writes but an import cannot set (leadId, status, times) are read-only.
 */

type Body = Record<string, unknown>;
type Lead = Record<string, any>;

export const LIST_SEPARATOR = ';';
const list = (text: string) =>
  text
    .split(LIST_SEPARATOR)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** `customer.name` → body.customer.name = value. */
function setPath(body: Body, path: string, value: unknown): void {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) body[head] = value;
  else body[head] = { ...((body[head] as Body | undefined) ?? {}), [tail]: value };
}
const getPath = (lead: Lead, path: string): unknown => path.split('.').reduce((v: any, k) => v?.[k], lead);

/** A decimal as written in the file; the API takes a JSON number (exact up to its 4 places and 10^13). */
const DECIMAL = /^-?\d+(\.\d+)?$/;

interface Column {
  header: string;
  /** Where the value goes in the create body; absent for read-only columns. */
  write?: (body: Body, text: string) => void;
  read: (lead: Lead) => string;
}

const plain = (header: string, path = header): Column => ({
  header,
  write: (body, text) => setPath(body, path, text),
  read: (lead) => {
    const value = getPath(lead, path);
    return value === null || value === undefined ? '' : String(value);
  },
});
const readOnly = (header: string): Column => ({ header, read: (lead) => String(lead[header] ?? '') });

export const LEAD_CSV_COLUMNS: readonly Column[] = [
  readOnly('leadId'),
  plain('externalId'),
  plain('pipeline'),
  plain('stage'),
  readOnly('status'),
  {
    header: 'stageReasons',
    write: (body, text) => setPath(body, 'stageReasons', list(text)),
    read: (lead) => (lead.stageReasons ?? []).join(`${LIST_SEPARATOR} `),
  },
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
  {
    header: 'tags',
    write: (body, text) => setPath(body, 'tags', list(text)),
    read: (lead) => (lead.tags ?? []).join(`${LIST_SEPARATOR} `),
  },
  {
    header: 'followUpDate',
    write: (body, text) => setPath(body, 'followUpDate', text),
    read: (lead) => (lead.followUpDate ? String(lead.followUpDate).slice(0, 10) : ''),
  },
  {
    header: 'budgetAmount',
    // Left as text when it is no decimal, so the create's own check names it (budget.amount).
    write: (body, text) =>
      setPath(body, 'budget', { ...((body.budget as Body) ?? {}), amount: DECIMAL.test(text) ? Number(text) : text }),
    read: (lead) => (lead.budget ? String(lead.budget.amount) : ''),
  },
  {
    header: 'budgetCurrency',
    write: (body, text) => setPath(body, 'budget', { ...((body.budget as Body) ?? {}), currency: text }),
    read: (lead) => lead.budget?.currency ?? '',
  },
  readOnly('source'),
  readOnly('createdAt'),
  readOnly('updatedAt'),
];

export const LEAD_CSV_HEADERS = LEAD_CSV_COLUMNS.map((c) => c.header);

/** Headers the file holds that no column has (an import refuses the file, naming them). */
export const unknownHeaders = (headers: readonly string[]) => headers.filter((h) => !LEAD_CSV_HEADERS.includes(h));

/** A row (by header) → the create body: empty cells are left out, read-only columns ignored. */
export function bodyOfRow(row: Record<string, string>): Body {
  const body: Body = {};
  for (const column of LEAD_CSV_COLUMNS) {
    const text = row[column.header]?.trim() ?? '';
    if (text !== '' && column.write) column.write(body, text);
  }
  return body;
}

/** A lead as presented by the API → its row, in header order. */
export const rowOfLead = (lead: Lead): string[] => LEAD_CSV_COLUMNS.map((c) => c.read(lead));
