// @ts-check
// Invoices (invoices-interface 4.3, 8): status chips, filters kept in the address (#/invoices?status=…),
// sort, "load more", and the server's totals of what the filters select. #/invoices/new and
// #/invoices/<_id> open the new-invoice form and an invoice.
import { api } from './api.js';
import { dateField } from './date-field.js';
import { errorBanner, field, h, mount } from './dom.js';
import { STATUS_CHOICES, day, invoicesBase, loadTotals, money, statusChip, totalsBlock } from './invoice-format.js';
import { renderInvoiceDetail } from './view-invoice-detail.js';
import { renderInvoiceNew } from './view-invoice-new.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').OperatorSchemas['InvoicePage']['data'][number]} ListedInvoice
 * @typedef {ListedInvoice & { billedTo: { name?: string }, finalTotal: { total: string | number } }} Invoice a listed
 *   invoice, with what the list reads of billedTo and finalTotal (the document gives both only as objects)
 * @typedef {Record<string, string>} Filters the address's filters (client, status, from, to), '' when unset
 */

const PAGE = 20;
const SORTS = [
  ['', 'Newest first'],
  ['invoiceDate:-1', 'Invoice date, latest first'],
  ['invoiceDate:1', 'Invoice date, earliest first'],
  ['invoiceNumber:1', 'Number, A → Z'],
  ['invoiceNumber:-1', 'Number, Z → A'],
];
const FILTER_KEYS = ['client', 'status', 'from', 'to', 'sort'];

/** The filters in the address after "#/invoices?". */
export function filtersFromHash() {
  const query = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?') + 1) : '';
  const read = new URLSearchParams(query);
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, read.get(key) ?? '']));
}

/** The API's filters (4.3) for the address's ones. */
/** @param {Filters} filters */
export function apiFilters(filters) {
  const params = new URLSearchParams();
  if (filters.client) params.set('client', filters.client);
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('invoiceDate[$gte]', filters.from);
  if (filters.to) params.set('invoiceDate[$lte]', filters.to);
  return params;
}

/** One invoice as a row: number, buyer, dates, amounts, status chip. */
/**
 * @param {Invoice} invoice
 * @param {Business} business
 */
export function invoiceRow(invoice, business) {
  const { locale, currency } = invoice;
  return h(
    'li',
    { class: 'invoice-row', dataset: { invoiceId: invoice._id } },
    h(
      'div',
      { class: 'invoice-row-main' },
      h('a', { href: `#/invoices/${encodeURIComponent(invoice._id)}`, class: 'invoice-number' }, invoice.invoiceNumber),
      statusChip(invoice.status),
      h(
        'p',
        { class: 'muted small-text' },
        h(
          'a',
          { href: `#/client-list/${encodeURIComponent(invoice.client)}` },
          invoice.billedTo.name ?? invoice.client,
        ),
        ` · ${day(invoice.invoiceDate, locale, business.timeZone)}`,
        invoice.dueDate ? ` · due ${day(invoice.dueDate, locale, business.timeZone)}` : '',
      ),
    ),
    h(
      'div',
      { class: 'invoice-row-amounts' },
      h('span', { class: 'amount' }, money(invoice.finalTotal.total, currency, locale)),
      invoice.status === 'CANCELED'
        ? null
        : h('span', { class: 'muted small-text' }, `due ${money(invoice.amountDue, currency, locale)}`),
    ),
  );
}

/** A list of invoices with "load more": the page loader is given the skip and answers the API's page. */
/**
 * @param {Ctx} ctx
 * @param {(skip: number) => Promise<{ data: Invoice[], total: number }>} loadPage
 * @param {string} emptyText
 */
export function invoiceList(ctx, loadPage, emptyText) {
  const list = h('ul', { class: 'invoice-list', 'aria-label': 'Invoices' });
  const status = h('p', { class: 'muted small-text', role: 'status' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Load more');
  const element = h('div', { class: 'invoice-list-wrap' }, list, status, more);
  let skip = 0;
  const next = async () => {
    more.disabled = true;
    try {
      const page = await loadPage(skip);
      if (skip === 0 && page.data.length === 0) mount(list, h('li', { class: 'empty' }, emptyText));
      list.append(...page.data.map((/** @type {Invoice} */ invoice) => invoiceRow(invoice, ctx.business)));
      skip += page.data.length;
      status.textContent = page.total ? `Showing ${skip} of ${page.total}` : '';
      more.hidden = skip >= page.total;
    } catch (error) {
      if (error.status !== 401) element.append(errorBanner(error.message));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', next);
  return { element, next };
}

/**
 * @param {Filters} filters
 * @param {Promise<string | undefined>} locale the business's, which the totals answer names
 */
function filterForm(filters, locale) {
  const client = h('input', { type: 'text', name: 'client', value: filters.client, placeholder: 'clientId' });
  const status = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'Any status'),
    STATUS_CHOICES.map(([value, label]) => h('option', { value, selected: value === filters.status }, label)),
  );
  const from = h('input', { type: 'date', name: 'from', value: filters.from });
  const to = h('input', { type: 'date', name: 'to', value: filters.to });
  const sort = h(
    'select',
    { name: 'sort' },
    SORTS.map(([value, label]) => h('option', { value, selected: value === filters.sort }, label)),
  );
  const form = h(
    'form',
    { class: 'card filters invoice-filters', role: 'search', 'aria-label': 'Filter invoices' },
    field('Client', client),
    field('Status', status),
    dateField('Invoice date from', from, locale).element,
    dateField('to', to, locale).element,
    field('Sort', sort),
    h('div', { class: 'button-row' }, h('button', { type: 'submit', class: 'primary' }, 'Apply')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const kept = new URLSearchParams();
    for (const [key, control] of Object.entries({ client, status, from, to, sort }))
      if (control.value.trim()) kept.set(key, control.value.trim());
    // The address is the filters' one home: changing it renders the list again, and a reload keeps them.
    location.hash = `#/invoices${kept.size ? `?${kept}` : ''}`;
  });
  return form;
}

/** Status chips above the list: one click shows one status, the other filters kept (the address again). */
/** @param {Filters} filters */
function statusLinks(filters) {
  const linkTo = (/** @type {string} */ status) => {
    const kept = new URLSearchParams(Object.entries(filters).filter(([key, value]) => value && key !== 'status'));
    if (status) kept.set('status', status);
    return `#/invoices${kept.size ? `?${kept}` : ''}`;
  };
  return h(
    'nav',
    { class: 'status-links', 'aria-label': 'Show only' },
    [['', 'All'], ...STATUS_CHOICES].map(([status, label]) =>
      h(
        'a',
        { href: linkTo(status), class: 'chip-link', 'aria-current': filters.status === status ? 'page' : false },
        label,
      ),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderInvoices(main, ctx) {
  if (ctx.param === 'new') return renderInvoiceNew(main, ctx);
  if (ctx.param && !ctx.param.startsWith('?')) return renderInvoiceDetail(main, ctx, ctx.param);
  const base = invoicesBase(ctx.business);
  const filters = filtersFromHash();
  const query = apiFilters(filters);
  const totalsLoad = loadTotals(ctx.business, query).catch((error) => error);
  const totalsSlot = h(
    'section',
    { class: 'card', 'aria-labelledby': 'totals-title' },
    h('h2', { id: 'totals-title' }, 'Totals of these invoices'),
  );
  const { element, next } = invoiceList(
    ctx,
    (/** @type {number} */ skip) => {
      const params = new URLSearchParams(query);
      params.set('$limit', String(PAGE));
      params.set('$skip', String(skip));
      if (filters.sort) {
        const [sortField, direction] = filters.sort.split(':');
        params.set(`$sort[${sortField}]`, direction);
      }
      return api('GET', `${base}/invoices?${params}`);
    },
    Object.values(filters).some(Boolean)
      ? 'No invoice matches these filters.'
      : `${ctx.business.name} has no invoice yet.`,
  );
  mount(
    main,
    h(
      'div',
      { class: 'page-head page-head-actions' },
      h('h1', {}, 'Invoices'),
      h('a', { href: '#/invoices/new', class: 'button primary' }, 'New invoice'),
    ),
    statusLinks(filters),
    filterForm(
      filters,
      totalsLoad.then((totals) => (totals instanceof Error ? undefined : totals.locale)),
    ),
    totalsSlot,
    h('section', { class: 'card', 'aria-label': 'Invoice list' }, element),
  );
  const [totals] = await Promise.all([totalsLoad, next()]);
  totalsSlot.append(
    totals instanceof Error ? errorBanner(totals.message) : totalsBlock(totals, 'Totals of these invoices'),
  );
}
