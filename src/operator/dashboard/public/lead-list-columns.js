// @ts-check
// The list view's columns: what each shows of a lead, which list sort field orders it (when the
// API sorts by it), and which show until the operator chooses (kept in this browser).
import { formatDate, h } from './dom.js';
import { STATUS_LABELS, formatBudget, formatDay, memberLabel } from './lead-config.js';

/**
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {{ key: string, label: string, sort?: string, num?: boolean,
 *   cell: (lead: Lead, config: LeadConfig) => import('./dom.js').Child }} Column
 */

const day = (/** @type {string | null | undefined} */ value) => (value ? formatDay(value.slice(0, 10)) : '');
const instant = (/** @type {string | null | undefined} */ value) => (value ? formatDate(value) : '');

/** @type {Column[]} */
export const COLUMNS = [
  {
    key: 'subject',
    label: 'Subject',
    cell: (lead) => h('a', { href: `#/leads/${encodeURIComponent(lead.leadId)}` }, leadTitle(lead)),
  },
  { key: 'customer', label: 'Customer', cell: (lead) => lead.customer?.name ?? '' },
  { key: 'contact', label: 'Contact', cell: (lead) => lead.contact?.name ?? '' },
  { key: 'pipeline', label: 'Pipeline', cell: (lead) => lead.pipeline },
  { key: 'stage', label: 'Stage', cell: (lead) => lead.stage },
  { key: 'status', label: 'Status', cell: (lead) => STATUS_LABELS[lead.status] ?? lead.status },
  { key: 'budget', label: 'Budget', sort: 'budget.amount', num: true, cell: (lead) => formatBudget(lead.budget) ?? '' },
  { key: 'assignedTo', label: 'Assignee', cell: (lead, config) => memberLabel(config, lead.assignedTo) ?? '' },
  { key: 'tags', label: 'Tags', cell: (lead) => lead.tags.join(', ') },
  { key: 'leadSource', label: 'Source', cell: (lead) => lead.leadSource ?? '' },
  { key: 'followUpDate', label: 'Follow-up', sort: 'followUpDate', cell: (lead) => day(lead.followUpDate) },
  { key: 'createdAt', label: 'Created', sort: 'createdAt', cell: (lead) => instant(lead.createdAt) },
  { key: 'updatedAt', label: 'Updated', sort: 'updatedAt', cell: (lead) => instant(lead.updatedAt) },
];

const DEFAULT = ['subject', 'customer', 'stage', 'budget', 'assignedTo', 'followUpDate', 'createdAt'];
const STORAGE_KEY = 'crmkit.leadList.columns';

/** A lead's name in the list and in messages: its subject, else its customer's name. */
export const leadTitle = (/** @type {Lead} */ lead) => lead.subject || lead.customer?.name || lead.leadId;

/** The keys of the columns shown: the operator's choice in this browser, else the default. */
export function chosenColumns() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (Array.isArray(kept)) {
      const known = kept.filter((key) => COLUMNS.some((c) => c.key === key));
      if (known.length > 0) return known;
    }
  } catch {
    // A damaged value is the default.
  }
  return DEFAULT;
}

/** @param {string[]} keys */
export function keepColumns(keys) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(keys));
}
