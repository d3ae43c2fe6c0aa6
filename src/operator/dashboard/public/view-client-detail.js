// @ts-check
// One client (#/client-list/<clientId>): its details, its balance (service-interface 2.4, invoices 3.7),
// its invoices with the server's totals, and its leads. Reached from the client list, a lead's customer
// and an invoice's buyer.
import { api, seg } from './api.js';
import { errorBanner, formatDate, h, mount } from './dom.js';
import { invoicesBase, loadTotals, money, totalsBlock } from './invoice-format.js';
import { STATUS_LABELS, formatBudget, leadsBase } from './lead-config.js';
import { cardTitle } from './lead-move.js';
import { invoiceList } from './view-invoices.js';

/** @type {[keyof OperatorClient, string][]} */
const DETAILS = [
  ['clientId', 'clientId'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['street', 'Street'],
  ['city', 'City'],
  ['state', 'State'],
  ['country', 'Country'],
  ['gstin', 'GSTIN'],
  ['trnNumber', 'TRN'],
  ['vatNumber', 'VAT number'],
  ['source', 'Source'],
];
// The balance members an invoice changes (3.7.3), then those only the operator's documents change.
/** @type {[Exclude<keyof OperatorClient['balance'], 'currency'>, string][]} */
const BALANCE = [
  ['invoice', 'Invoiced'],
  ['invoicePayment', 'Invoice payments'],
  ['creditNote', 'Credit notes'],
  ['paymentReceipt', 'Payment receipts'],
  ['debitNote', 'Debit notes'],
];

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').OperatorClient} OperatorClient
 */

/** @param {OperatorClient} client */
function detailsCard(client) {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'client-details-title' },
    h('h2', { id: 'client-details-title' }, 'Details'),
    h(
      'dl',
      { class: 'facts kv' },
      DETAILS.filter(([key]) => client[key]).map(([key, label]) =>
        h('div', {}, h('dt', {}, label), h('dd', {}, String(client[key]))),
      ),
      h('div', {}, h('dt', {}, 'Added'), h('dd', {}, formatDate(client.createdAt))),
    ),
  );
}

/**
 * @param {OperatorClient} client
 * @param {string | undefined} locale
 */
function balanceCard(client, locale) {
  const { balance } = client;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'client-balance-title' },
    h('h2', { id: 'client-balance-title' }, `Balance (${balance.currency})`),
    h(
      'dl',
      { class: 'facts kv client-balance' },
      BALANCE.filter(([key]) => key === 'invoice' || key === 'invoicePayment' || balance[key]).map(([key, label]) =>
        h(
          'div',
          {},
          h('dt', {}, label),
          h('dd', { dataset: { balance: key } }, money(balance[key], balance.currency, locale)),
        ),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {OperatorClient} client
 */
async function leadsCard(ctx, client) {
  const slot = h(
    'section',
    { class: 'card', 'aria-labelledby': 'client-leads-title' },
    h('h2', { id: 'client-leads-title' }, 'Leads'),
  );
  try {
    // A client made in the dashboard has no clientId, so no lead names it: nothing to ask.
    const query = `clientId=${encodeURIComponent(client.clientId ?? '')}&$limit=50`;
    const page = client.clientId === null ? null : (await api('GET', `${leadsBase(ctx.business)}?${query}`))?.[0];
    const leads = page?.items ?? [];
    slot.append(
      leads.length === 0
        ? h('p', { class: 'muted' }, `${client.name} has no lead.`)
        : h(
            'ul',
            { class: 'client-leads' },
            leads.map((/** @type {import('./dashboard-types.js').Lead} */ lead) =>
              h(
                'li',
                {},
                h('a', { href: `#/leads/${encodeURIComponent(lead.leadId)}` }, cardTitle(lead)),
                ` · ${lead.pipeline} › ${lead.stage} `,
                h('span', { class: 'badge' }, STATUS_LABELS[lead.status] ?? lead.status),
                formatBudget(lead.budget) ? ` ${formatBudget(lead.budget)}` : '',
              ),
            ),
          ),
    );
  } catch (error) {
    if (error.status !== 401) slot.append(errorBanner(error.message));
  }
  return slot;
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 * @param {string} clientId
 */
export async function renderClientDetail(main, ctx, clientId) {
  /** @type {OperatorClient} */
  let client;
  try {
    client = await api('GET', `/businesses/${seg(ctx.business.urlKey)}/clients/${seg(clientId)}`);
  } catch (error) {
    if (error.status !== 404) throw error;
    mount(
      main,
      h('h1', {}, 'Client not found'),
      h(
        'div',
        { class: 'empty card' },
        h('p', {}, `No client “${clientId}” in ${ctx.business.name}.`),
        h('a', { href: '#/client-list', class: 'button primary' }, 'Back to clients'),
      ),
    );
    return;
  }
  const filters = new URLSearchParams({ client: clientId });
  const totals = await loadTotals(ctx.business, filters);
  const invoices = invoiceList(
    ctx,
    (/** @type {number} */ skip) =>
      api('GET', `${invoicesBase(ctx.business)}/invoices?${filters}&$limit=20&$skip=${skip}`),
    `${client.name} has no invoice.`,
  );
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('p', {}, h('a', { href: '#/client-list' }, '← Back to clients')),
      h('h1', {}, client.name ?? clientId, ' ', h('span', { class: 'badge' }, client.status)),
    ),
    h('div', { class: 'two-columns' }, detailsCard(client), balanceCard(client, totals.locale)),
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'client-invoices-title' },
      h('h2', { id: 'client-invoices-title' }, 'Invoices'),
      totalsBlock(totals, `Totals of ${client.name}'s invoices`),
      invoices.element,
    ),
    await leadsCard(ctx, client),
  );
  await invoices.next();
}
