// @ts-check
// Invoice figures as the business writes them (invoices-interface 4.7's locale rules): amounts and dates
// through locale-format.js in a locale the server names (an invoice's `locale`, the business's in the totals
// answer), dates in the business's time zone. Amounts reach Intl as decimal text, which it formats exactly.
import { choices } from './api-document.js';
import { api, seg } from './api.js';
import { h } from './dom.js';
import { day, money } from './locale-format.js';

export { day, money };

/** @typedef {import('./dashboard-types.js').Business} Business */

/** A status chip: the label, with the colour the status means. */
/** @type {Record<string, [string, string]>} */
const STATUS = {
  UNPAID: ['Unpaid', 'badge-new'],
  PARTIALLY_PAID: ['Partly paid', 'badge-warn'],
  PAID: ['Paid', 'badge-ok'],
  CANCELED: ['Canceled', 'badge-muted'],
};
export const STATUS_CHOICES = Object.entries(STATUS).map(([value, [label]]) => [value, label]);

/** @param {string} status */
export function statusChip(status) {
  const [label, tone] = STATUS[status] ?? [status, ''];
  return h('span', { class: `badge status-chip ${tone}`, dataset: { status } }, label);
}

export const invoicesBase = (/** @type {Business} */ business) => `/businesses/${seg(business.urlKey)}`;

/** The business's locale and its invoices' sums per currency, for the filters given (URLSearchParams). */
/**
 * @param {Business} business
 * @param {URLSearchParams} filters
 */
export async function loadTotals(business, filters) {
  const query = filters.toString();
  return api('GET', `${invoicesBase(business)}/invoice-totals${query ? `?${query}` : ''}`);
}

/** The totals as a definition list per currency: invoiced, collected, due. */
/**
 * @param {import('./dashboard-types.js').OperatorSchemas['InvoiceTotals']} totals
 * @param {string} label
 */
export function totalsBlock(totals, label) {
  if (totals.currencies.length === 0) return h('p', { class: 'muted' }, 'No invoice: nothing invoiced yet.');
  return h(
    'div',
    { class: 'invoice-totals', role: 'group', 'aria-label': label },
    totals.currencies.map((row) =>
      h(
        'dl',
        { class: 'totals-row', dataset: { currency: row.currency } },
        h(
          'div',
          {},
          h('dt', {}, 'Invoiced'),
          h('dd', { dataset: { total: 'invoiced' } }, money(row.invoiced, row.currency, totals.locale)),
        ),
        h(
          'div',
          {},
          h('dt', {}, 'Collected'),
          h('dd', { dataset: { total: 'collected' } }, money(row.collected, row.currency, totals.locale)),
        ),
        h(
          'div',
          {},
          h('dt', {}, 'Due'),
          h('dd', { dataset: { total: 'due' } }, money(row.due, row.currency, totals.locale)),
        ),
        h('div', {}, h('dt', {}, 'Invoices'), h('dd', {}, String(row.count))),
      ),
    ),
  );
}

/** The payment methods an invoice payment takes, read from the API's own document (one source: invoice.schema.ts). */
export async function paymentMethods() {
  return choices('PaymentCreate.paymentMethod');
}

/** "ACCOUNT_TRANSFER" → "Account transfer" (UPI, DD kept as they are). */
export const methodLabel = (/** @type {string} */ method) =>
  method.length <= 3 ? method : method.charAt(0) + method.slice(1).toLowerCase().replaceAll('_', ' ');
