// @ts-check
// A lead's field change in words (docs/leads.md "Field history"): the lead's timeline and the audit
// log's `lead.edit` lines both say a change this way.
import { formatMoney } from './lead-config.js';
import { calendarDay } from './locale-format.js';

/**
 * A change as FIELD_CHANGE entries and `detail.changes` carry it: values as the lead answers them.
 * @typedef {{ field: string, from: unknown, to: unknown }} FieldChange
 */

/** @type {Record<string, string>} */
const LABELS = {
  subject: 'Subject',
  details: 'Details',
  budget: 'Budget',
  leadSource: 'Lead source',
  followUpDate: 'Follow-up',
  assignedTo: 'Assignee',
  tags: 'Tags',
  pipeline: 'Pipeline',
  stage: 'Stage',
  stageReasons: 'Reasons',
};

/** @type {Record<string, string>} */
const BLOCKS = { customer: 'Customer', contact: 'Contact' };

/** @type {Record<string, string>} */
const MEMBERS = { clientId: 'client', contactId: 'contact', email: 'e-mail', pincode: 'PIN code' };

/** Long texts (details) are cut: the lead's page shows the whole value. */
const MAX_TEXT = 80;

/** @param {string} field */
export function fieldLabel(field) {
  if (field.startsWith('customFields.')) return field.slice('customFields.'.length);
  const [block, member] = field.split('.');
  if (member && BLOCKS[block]) return `${BLOCKS[block]} ${MEMBERS[member] ?? member}`;
  return LABELS[field] ?? field;
}

/**
 * @param {string} field
 * @param {unknown} value
 */
export function valueText(field, value) {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'budget' && typeof value === 'object') {
    const budget = /** @type {{ amount: number, currency: string }} */ (value);
    return formatMoney(budget.amount, budget.currency);
  }
  if (field === 'followUpDate' && typeof value === 'string') return calendarDay(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/** "Budget: ₹100.00 → ₹200.00". @param {FieldChange} change */
export function describeChange(change) {
  return `${fieldLabel(change.field)}: ${valueText(change.field, change.from)} → ${valueText(change.field, change.to)}`;
}
