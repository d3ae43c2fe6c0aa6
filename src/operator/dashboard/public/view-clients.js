// @ts-check
// Clients: look one up by clientId, read its record and balance, archive or delete it.
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { actionButton, confirmAction, errorBanner, field, formatDate, h, mount, toast } from './dom.js';
import { money } from './locale-format.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').OperatorClient} OperatorClient
 * @typedef {import('./dashboard-types.js').Schemas['Balance']} Balance
 * @typedef {keyof OperatorClient & string} ClientKey
 */

/** @type {[keyof Balance, string][]} */
const BALANCE_MEMBERS = [
  ['invoice', 'Invoices'],
  ['proforma', 'Proforma invoices'],
  ['creditNote', 'Credit notes'],
  ['paymentReceipt', 'Payment receipts'],
  ['debitNote', 'Debit notes'],
  ['salesOrder', 'Sales orders'],
  ['invoicePayment', 'Invoice payments'],
  ['proformaPayment', 'Proforma payments'],
  ['expenditure', 'Expenditure'],
  ['expenditurePayment', 'Expenditure payments'],
  ['creditConsumed', 'Credit consumed'],
];
/** @type {[ClientKey, string][]} */
const CONTACT = [
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['clientType', 'Type'],
  ['locale', 'Locale'],
  ['dueInDays', 'Due in (days)'],
  ['source', 'Source'],
];
/** @type {ClientKey[]} */
const ADDRESS = ['street', 'building', 'city', 'district', 'state', 'pincode', 'country'];
/** @type {[ClientKey, string][]} */
const TAX = [
  ['gstin', 'GSTIN'],
  ['gstState', 'GST state'],
  ['panNumber', 'PAN'],
  ['trnNumber', 'TRN'],
  ['tinNumber', 'TIN'],
  ['sstNumber', 'SST'],
  ['taxPayerType', 'Tax payer type'],
  ['vatNumber', 'VAT number'],
];
/** @type {Record<NonNullable<OperatorClient['status']>, string>} */
const STATUS_BADGE = { active: 'badge-ok', archived: 'badge-muted', deleted: 'badge-danger' };

/**
 * The API's codes in words; the code itself stays in a tooltip and in the JSON record.
 * @type {Record<string, Record<string, string>>}
 */
const WORDS = {
  clientType: { INDIVIDUAL: 'Individual', COMPANY: 'Company' },
  taxPayerType: {
    REG: 'Registered (GST)',
    UNREG: 'Unregistered business',
    B2C: 'Consumer (B2C)',
    EXP: 'Export',
    TDS: 'Tax deductor (TDS)',
    VATR: 'VAT registered',
    VATNR: 'Not VAT registered',
    GCCVATR: 'GCC, VAT registered',
    GCCVATNR: 'GCC, not VAT registered',
    NGCC: 'Outside the GCC',
  },
  source: {
    API: 'An app (API)',
    DASHBOARD: 'Dashboard',
    INVOICE: 'Invoice',
    CLIENT_DASHBOARD: 'Client dashboard',
    CLIENT_UPLOAD: 'Client upload',
    INVOICE_BULK_UPLOAD: 'Invoice bulk upload',
    LEADFORM: 'Lead form',
    PORTFOLIO: 'Portfolio',
    ZOHO: 'Zoho',
    MARIKA: 'Marika',
    LEADAPI: 'Lead API',
  },
};
/** "credit_limit" or "creditLimit" → "Credit limit": custom field names and list keys read as labels. */
const humanize = (/** @type {string} */ key) => {
  const words = String(key)
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const show = (/** @type {unknown} */ value) =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'boolean'
      ? value
        ? 'Yes'
        : 'No'
      : String(value);
/**
 * A code in words, the code in its tooltip; anything else as it is.
 * @param {string} kind
 * @param {unknown} value
 */
const word = (kind, value) => {
  const words = typeof value === 'string' ? WORDS[kind]?.[value] : undefined;
  return words ? h('span', { title: String(value) }, words) : value;
};

/**
 * @param {string} title
 * @param {[import('./dom.js').Child, unknown][]} pairs [label, value]
 */
function facts(title, pairs) {
  return h(
    'section',
    { class: 'card', 'aria-label': title },
    h('h3', {}, title),
    h(
      'dl',
      { class: 'facts' },
      pairs.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value instanceof Node ? value : show(value))]),
    ),
  );
}

/** @param {Balance | undefined} balance */
function balanceCard(balance) {
  const currency = balance?.currency ?? '';
  const format = (/** @type {unknown} */ n) => (typeof n === 'number' && currency ? money(n, currency) : '—');
  return h(
    'section',
    { class: 'card tall', 'aria-label': 'Balance' },
    h('h3', {}, `Balance${currency ? ` (${currency})` : ''}`),
    h(
      'table',
      { class: 'data-table compact', 'aria-label': 'Balance' },
      h(
        'tbody',
        {},
        BALANCE_MEMBERS.map(([key, label]) =>
          h('tr', {}, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, format(balance?.[key]))),
        ),
      ),
    ),
  );
}

/**
 * @template {object} Row
 * @param {string} title
 * @param {Row[] | undefined} rows
 * @param {[keyof Row & string, string][]} columns [key, label]
 */
function listCard(title, rows, columns) {
  if (!rows || rows.length === 0) return null;
  return h(
    'section',
    { class: 'card wide', 'aria-label': title },
    h('h3', {}, title),
    h(
      'table',
      { class: 'data-table compact' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map(([, label]) => h('th', { scope: 'col' }, label)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            {},
            columns.map(([key]) => h('td', {}, show(row[key]))),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {OperatorClient} client
 * @param {HTMLElement} actions
 */
function clientRecord(client, actions) {
  const status = client.status ?? 'active';
  const custom = Object.entries(client.customFields ?? {});
  return h(
    'article',
    { class: 'client', 'aria-label': `Client ${client.name}` },
    h(
      'div',
      { class: 'client-head' },
      h(
        'div',
        {},
        h('h2', {}, client.name),
        h(
          'p',
          { class: 'subtitle' },
          'Client ID ',
          h('code', {}, client.clientId ?? '—'),
          client.alias ? ` · also known as ${client.alias}` : '',
          ` · ${[client.isClient ? 'Customer' : null, client.isVendor ? 'Vendor' : null].filter(Boolean).join(' and ')}`,
        ),
      ),
      h(
        'div',
        { class: 'client-status' },
        h('span', { class: `badge ${STATUS_BADGE[status] ?? ''}` }, `Status: ${status}`),
        actions,
      ),
    ),
    h(
      'p',
      { class: 'muted small-text' },
      `Created ${formatDate(client.createdAt)} · updated ${formatDate(client.updatedAt)}`,
    ),
    h(
      'div',
      { class: 'record-grid' },
      facts(
        'Contact',
        CONTACT.map(([k, l]) => [l, word(k, client[k])]),
      ),
      facts(
        'Address',
        ADDRESS.map((k) => [k.charAt(0).toUpperCase() + k.slice(1), client[k]]),
      ),
      balanceCard(client.balance),
      facts(
        'Tax identifiers',
        TAX.map(([k, l]) => [l, word(k, client[k])]),
      ),
      custom.length
        ? facts(
            'Custom fields',
            custom.map(([name, value]) => [h('span', { title: `Apps send it as “${name}”` }, humanize(name)), value]),
          )
        : null,
      listCard('Additional ids', client.additionalIds, [
        ['label', 'Code'],
        ['value', 'Value'],
        ['showInInvoice', 'On invoice'],
        ['useForEInvoice', 'E-invoice'],
      ]),
      listCard('Shipping addresses', client.shippingDetails, [
        ['name', 'Name'],
        ['street', 'Street'],
        ['city', 'City'],
        ['state', 'State'],
        ['pincode', 'Pincode'],
        ['country', 'Country'],
      ]),
      listCard('Bank accounts', client.bankAccounts, [
        ['bankAccountName', 'Bank'],
        ['bankAccountHolderName', 'Holder'],
        ['bankAccountNumber', 'Number'],
        ['iban', 'IBAN'],
        ['swift', 'SWIFT'],
        ['isPrimary', 'Primary'],
      ]),
    ),
    h(
      'details',
      { class: 'card raw' },
      h('summary', {}, 'Full record (JSON)'),
      h('pre', { class: 'mono' }, JSON.stringify(client, null, 2)),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderClients(main, ctx) {
  const base = `/businesses/${seg(ctx.business.urlKey)}/clients`;
  const clientId = h('input', {
    type: 'search',
    name: 'clientId',
    required: true,
    maxlength: limit('ClientCreate.clientId'),
    placeholder: 'The reference the app sent, e.g. CUST-0042',
  });
  const result = h('div', { class: 'client-result', 'aria-live': 'polite' });
  const lookup = async (/** @type {string} */ id) => {
    /** @type {OperatorClient} */
    const client = await api('GET', `${base}/${seg(id)}`);
    mount(result, clientRecord(client, clientActions(client)));
  };
  // Archive and delete both hide the client from apps and keep its clientId taken; only archive can be undone.
  /**
   * @type {Record<'archive' | 'restore' | 'delete', { label: string, verb: string, method: 'POST' | 'DELETE',
   *   suffix: string, cls: string, explain: string }>}
   */
  const ACTIONS = {
    archive: {
      label: 'Archive client',
      verb: 'archived',
      method: 'POST',
      suffix: '/archive',
      cls: 'secondary small',
      explain:
        'Archive hides the client from apps (they get 404) and keeps its clientId taken. You can restore it later.',
    },
    restore: {
      label: 'Restore client',
      verb: 'restored',
      method: 'POST',
      suffix: '/restore',
      cls: 'primary small',
      explain: 'Restore makes the client visible to apps again, as it was before it was archived.',
    },
    delete: {
      label: 'Delete client',
      verb: 'deleted',
      method: 'DELETE',
      suffix: '',
      cls: 'danger small',
      explain:
        'Delete is final: apps get 404 and the client can never be restored. Its clientId stays taken and the record is kept for the audit trail.',
    },
  };
  const act = (/** @type {keyof typeof ACTIONS} */ kind) => {
    const a = ACTIONS[kind];
    return actionButton(
      a.label,
      async () => {
        const id = clientId.dataset.current ?? '';
        const ok = await confirmAction(`${a.label}?`, `${a.label} “${id}”? ${a.explain}`, a.label, kind === 'delete');
        if (!ok) return;
        try {
          await api(a.method, `${base}/${seg(id)}${a.suffix}`);
          toast(`Client ${a.verb}.`);
          await lookup(id);
          /** @type {HTMLElement | null} */
          const next = result.querySelector('.client-status button') ?? result.querySelector('h2');
          if (next?.tagName === 'H2') next.setAttribute('tabindex', '-1');
          next?.focus();
        } catch (error) {
          if (error.status !== 401) mount(result, errorBanner(error.message));
        }
      },
      { class: a.cls },
    );
  };
  const explained = (/** @type {(keyof typeof ACTIONS)[]} */ kinds) =>
    h(
      'div',
      { class: 'client-actions' },
      h('div', { class: 'toolbar' }, kinds.map(act)),
      h(
        'ul',
        { class: 'action-notes small-text' },
        kinds.map((k) => h('li', {}, ACTIONS[k].explain)),
      ),
    );
  const clientActions = (/** @type {OperatorClient} */ client) => {
    const status = client.status ?? 'active';
    if (status === 'active') return explained(['archive', 'delete']);
    if (status === 'archived') return explained(['restore', 'delete']);
    return h('p', { class: 'muted small-text' }, 'Deleted clients cannot be restored.');
  };
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Look up');
  const form = h(
    'form',
    { class: 'card inline-form', role: 'search', 'aria-label': 'Find a client' },
    field('Client ID', clientId),
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = clientId.value.trim();
    if (!id) return;
    clientId.dataset.current = id;
    submit.disabled = true;
    try {
      await lookup(id);
    } catch (error) {
      if (error.status === 404)
        mount(result, h('div', { class: 'empty' }, h('p', {}, `No client with ID “${id}” in ${ctx.business.name}.`)));
      else if (error.status !== 401) mount(result, errorBanner(error.message));
    } finally {
      submit.disabled = false;
    }
  });
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Clients'),
      h('p', { class: 'subtitle' }, `Look up a client of ${ctx.business.name} by the clientId its app chose.`),
    ),
    form,
    result,
  );
  clientId.focus();
}
