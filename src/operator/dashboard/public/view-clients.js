// Clients: look one up by clientId, read its record and balance, archive or delete it.
import { api, seg } from './api.js';
import { actionButton, confirmAction, errorBanner, field, formatDate, h, mount, toast } from './dom.js';

const BALANCE_MEMBERS = [
  ['invoice', 'Invoices'], ['proforma', 'Proforma invoices'], ['creditNote', 'Credit notes'], ['paymentReceipt', 'Payment receipts'],
  ['debitNote', 'Debit notes'], ['salesOrder', 'Sales orders'], ['invoicePayment', 'Invoice payments'], ['proformaPayment', 'Proforma payments'],
  ['expenditure', 'Expenditure'], ['expenditurePayment', 'Expenditure payments'], ['creditConsumed', 'Credit consumed'],
];
const CONTACT = [['email', 'E-mail'], ['phone', 'Phone'], ['clientType', 'Type'], ['locale', 'Locale'], ['dueInDays', 'Due in (days)'], ['source', 'Source']];
const ADDRESS = ['street', 'building', 'city', 'district', 'state', 'pincode', 'country'];
const TAX = [['gstin', 'GSTIN'], ['gstState', 'GST state'], ['panNumber', 'PAN'], ['trnNumber', 'TRN'], ['tinNumber', 'TIN'],
  ['sstNumber', 'SST'], ['taxPayerType', 'Tax payer type'], ['vatNumber', 'VAT number']];
const STATUS_BADGE = { active: 'badge-ok', archived: 'badge-muted', deleted: 'badge-danger' };

const show = (value) => (value === null || value === undefined || value === '' ? '—' : String(value));

function facts(title, pairs) {
  return h('section', { class: 'card', 'aria-label': title }, h('h3', {}, title),
    h('dl', { class: 'facts' }, pairs.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, show(value))])));
}

function balanceCard(balance) {
  const currency = balance?.currency ?? '';
  const format = (n) => (typeof n === 'number' ? n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : '—');
  return h('section', { class: 'card tall', 'aria-label': 'Balance' }, h('h3', {}, `Balance${currency ? ` (${currency})` : ''}`),
    h('table', { class: 'data-table compact', 'aria-label': 'Balance' },
      h('tbody', {}, BALANCE_MEMBERS.map(([key, label]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, format(balance?.[key])))))));
}

function listCard(title, rows, columns) {
  if (!rows || rows.length === 0) return null;
  return h('section', { class: 'card wide', 'aria-label': title }, h('h3', {}, title),
    h('table', { class: 'data-table compact' },
      h('thead', {}, h('tr', {}, columns.map(([, label]) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map(([key]) => h('td', {}, show(row[key]))))))));
}

function clientRecord(client, actions) {
  const status = client.status ?? 'active';
  const custom = Object.entries(client.customFields ?? {});
  return h('article', { class: 'client', 'aria-label': `Client ${client.name}` },
    h('div', { class: 'client-head' },
      h('div', {}, h('h2', {}, client.name),
        h('p', { class: 'subtitle' }, 'Client ID ', h('code', {}, client.clientId ?? '—'),
          client.alias ? ` · also known as ${client.alias}` : '',
          ` · ${[client.isClient ? 'Customer' : null, client.isVendor ? 'Vendor' : null].filter(Boolean).join(' and ')}`)),
      h('div', { class: 'client-status' }, h('span', { class: `badge ${STATUS_BADGE[status] ?? ''}` }, `Status: ${status}`), actions)),
    h('p', { class: 'muted small-text' }, `Created ${formatDate(client.createdAt)} · updated ${formatDate(client.updatedAt)}`),
    h('div', { class: 'record-grid' },
      facts('Contact', CONTACT.map(([k, l]) => [l, client[k]])),
      facts('Address', ADDRESS.map((k) => [k[0].toUpperCase() + k.slice(1), client[k]])),
      balanceCard(client.balance),
      facts('Tax identifiers', TAX.map(([k, l]) => [l, client[k]])),
      custom.length ? facts('Custom fields', custom) : null,
      listCard('Additional ids', client.additionalIds, [['label', 'Code'], ['value', 'Value'], ['showInInvoice', 'On invoice'], ['useForEInvoice', 'E-invoice']]),
      listCard('Shipping addresses', client.shippingDetails, [['name', 'Name'], ['street', 'Street'], ['city', 'City'], ['state', 'State'], ['pincode', 'Pincode'], ['country', 'Country']]),
      listCard('Bank accounts', client.bankAccounts, [['bankAccountName', 'Bank'], ['bankAccountHolderName', 'Holder'], ['bankAccountNumber', 'Number'], ['iban', 'IBAN'], ['swift', 'SWIFT'], ['isPrimary', 'Primary']]),
    ),
    h('details', { class: 'card raw' }, h('summary', {}, 'Full record (JSON)'), h('pre', { class: 'mono' }, JSON.stringify(client, null, 2))),
  );
}

export async function renderClients(main, ctx) {
  const base = `/businesses/${seg(ctx.business.urlKey)}/clients`;
  const clientId = h('input', { type: 'search', name: 'clientId', required: true, maxlength: 128, placeholder: 'The reference the app sent, e.g. CUST-0042' });
  const result = h('div', { class: 'client-result', 'aria-live': 'polite' });
  const lookup = async (id) => {
    const client = await api('GET', `${base}/${seg(id)}`);
    mount(result, clientRecord(client, clientActions(client, id)));
  };
  const act = (label, verb, method, suffix, danger) => actionButton(label, async () => {
    const id = clientId.dataset.current;
    const ok = await confirmAction(`${label}?`, `${label} “${id}”? Apps will no longer see it, and its clientId stays taken.`, label, danger);
    if (!ok) return;
    try {
      await api(method, `${base}/${seg(id)}${suffix}`);
      toast(`Client ${verb}.`);
      await lookup(id);
    } catch (error) { if (error.status !== 401) mount(result, errorBanner(error.message)); }
  }, { class: danger ? 'danger small' : 'secondary small' });
  const clientActions = (client) => ((client.status ?? 'active') === 'active'
    ? h('div', { class: 'toolbar' }, act('Archive client', 'archived', 'POST', '/archive', false), act('Delete client', 'deleted', 'DELETE', '', true))
    : null);
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Look up');
  const form = h('form', { class: 'card inline-form', role: 'search', 'aria-label': 'Find a client' }, field('Client ID', clientId), submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = clientId.value.trim();
    if (!id) return;
    clientId.dataset.current = id;
    submit.disabled = true;
    try {
      await lookup(id);
    } catch (error) {
      if (error.status === 404) mount(result, h('div', { class: 'empty' }, h('p', {}, `No client with ID “${id}” in ${ctx.business.name}.`)));
      else if (error.status !== 401) mount(result, errorBanner(error.message));
    } finally {
      submit.disabled = false;
    }
  });
  mount(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Clients'),
      h('p', { class: 'subtitle' }, `Look up a client of ${ctx.business.name} by the clientId its app chose.`)),
    form,
    result,
  );
  clientId.focus();
}
