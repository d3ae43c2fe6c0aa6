// @ts-check
// Audit log: who did what, when, to which business, newest first, a page at a time (GET /audit).
import { api, setCurrentBusiness } from './api.js';
import { errorBanner, formatDate, h, mount } from './dom.js';
import { describeChange } from './field-change.js';

const PAGE_SIZE = 50;

/** @typedef {import('./dashboard-types.js').OperatorSchemas['AuditPage']['entries'][number]} AuditEntry one entry of GET /admin/v1/audit */

/**
 * The log's action codes in words; an action this page does not know yet shows its code.
 * @type {Record<string, string>}
 */
const ACTIONS = {
  'business.create': 'Created business',
  'business.update': 'Changed business settings',
  'business.archive': 'Archived business',
  'business.restore': 'Restored business',
  'app.create': 'Created app',
  'app.rotate-secret': 'Rotated app secret',
  'app.rotate-key': 'Rotated app key',
  'app.attach': 'Attached app',
  'app.detach': 'Detached app',
  'app.archive': 'Archived app',
  'app.restore': 'Restored app',
  'operator.create': 'Invited operator',
  'operator.change-password': 'Changed own password',
  'pipelines.replace': 'Saved pipelines',
  'custom-fields.replace': 'Saved custom fields',
  'client.create': 'Created client',
  'client.archive': 'Archived client',
  'client.restore': 'Restored client',
  'client.delete': 'Deleted client',
  'client.document': 'Added document to client',
  'lead.create': 'Lead created',
  'lead.edit': 'Lead edited',
  'lead.remove': 'Lead removed',
  'lead-sources.replace': 'Saved lead sources',
  'tags.replace': 'Saved tags',
  'members.replace': 'Saved members',
  'lead-custom-fields.replace': 'Saved lead custom fields',
  'invoice.create': 'Created invoice',
  'invoice.cancel': 'Canceled invoice',
  'invoice.payment.record': 'Recorded payment',
  'invoice.payment.remove': 'Removed payment',
  'invoice.share-link.revoke': 'Revoked invoice share link',
  'invoice-settings.put': 'Saved invoice settings',
  'webhook.create': 'Added webhook endpoint',
  'webhook.update': 'Changed webhook endpoint',
  'webhook.delete': 'Removed webhook endpoint',
  'webhook.rotate-secret': 'Rotated webhook secret',
  'webhook.test': 'Sent webhook test',
  'webhook.resend': 'Resent webhook delivery',
};

/**
 * Detail members that name a record of the line's business: shown as links to its page. The page
 * belongs to that business, so following the link selects it first.
 * @type {Record<string, string>}
 */
const RECORD_ROUTES = { leadId: 'leads', clientId: 'client-list', invoiceId: 'invoices' };

/**
 * @param {string} key
 * @param {unknown} value
 * @param {string | null} business
 */
function detailValue(key, value, business) {
  const route = RECORD_ROUTES[key];
  if (route && business && typeof value === 'string')
    return h(
      'a',
      { href: `#/${route}/${encodeURIComponent(value)}`, onclick: () => setCurrentBusiness(business) },
      h('code', {}, value),
    );
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * The action in words; a lead edit says what changed (`detail.changes`), one change a line.
 * @param {AuditEntry} e
 */
function actionOf(e) {
  const words = ACTIONS[e.action] ?? e.action;
  const changes = /** @type {import('./field-change.js').FieldChange[] | undefined} */ (e.detail?.changes);
  if (!Array.isArray(changes)) return { words, list: null };
  if (changes.length === 0) return { words: `${words} (no field changed)`, list: null };
  const list = h(
    'ul',
    { class: 'audit-changes' },
    changes.map((change) => h('li', {}, describeChange(change))),
  );
  return { words: `${words}:`, list };
}

/**
 * The detail object as short "key: value" lines; lists joined with commas; record ids as links. The
 * changes of a lead edit are said with the action.
 * @param {AuditEntry} e
 */
function detailOf(e) {
  const entries = Object.entries(e.detail ?? {}).filter(([key]) => key !== 'changes');
  if (entries.length === 0) return h('span', { class: 'muted' }, '—');
  return h(
    'dl',
    { class: 'audit-detail' },
    entries.map(([key, value]) => [h('dt', {}, key), h('dd', {}, detailValue(key, value, e.business))]),
  );
}

/** @param {AuditEntry} e */
function whatCell(e) {
  const { words, list } = actionOf(e);
  return h('td', { dataset: { label: 'What' } }, words, ' ', h('code', { class: 'muted' }, e.action), list);
}

/** @param {AuditEntry[]} entries */
function entriesTable(entries) {
  return h(
    'table',
    { class: 'data-table stack', 'aria-label': 'Audit log' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['When', 'Who', 'What', 'Business', 'Detail'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      entries.map((e) =>
        h(
          'tr',
          {},
          h('td', { dataset: { label: 'When' } }, h('time', { datetime: e.at }, formatDate(e.at))),
          h('td', { dataset: { label: 'Who' } }, e.operator || h('span', { class: 'muted' }, 'system')),
          whatCell(e),
          h(
            'td',
            { dataset: { label: 'Business' } },
            e.business ? h('code', {}, e.business) : h('span', { class: 'muted' }, '—'),
          ),
          h('td', { dataset: { label: 'Detail' } }, detailOf(e)),
        ),
      ),
    ),
  );
}

/** @param {HTMLElement} main */
export async function renderAudit(main) {
  const list = h('section', { class: 'card', 'aria-live': 'polite' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Audit log pages' });
  let page = 1;

  /**
   * @param {number} wanted the page to show
   * @param {string} [focusSelector] the pager button to keep the keyboard's focus on
   */
  const load = async (wanted, focusSelector) => {
    const buttons = [...pager.querySelectorAll('button')];
    buttons.forEach((b) => {
      b.disabled = true;
    });
    mount(list, h('p', { class: 'loading', role: 'status' }, 'Loading the audit log…'));
    /** @type {import('./dashboard-types.js').OperatorSchemas['AuditPage']} */
    let data;
    try {
      data = await api('GET', `/audit?page=${wanted}&pageSize=${PAGE_SIZE}`);
    } catch (caught) {
      const error = /** @type {import('./api.js').ApiError} */ (caught);
      buttons.forEach((b) => {
        b.disabled = false;
      });
      if (error.status !== 401) mount(list, errorBanner(error.message));
      return;
    }
    page = wanted;
    mount(
      list,
      data.entries.length === 0
        ? h(
            'div',
            { class: 'empty' },
            h(
              'p',
              {},
              page === 1
                ? 'Nothing recorded yet. Every change made by an operator (businesses, apps, pipelines, custom fields, clients, accounts) appears here.'
                : 'No older entries.',
            ),
          )
        : entriesTable(data.entries),
    );
    mount(
      pager,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary small',
          disabled: page === 1,
          onclick: () => load(page - 1, '.pager button:first-child'),
        },
        '← Newer',
      ),
      h('span', { class: 'pager-label' }, `Page ${page}`),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary small',
          disabled: !data.hasMore,
          onclick: () => load(page + 1, '.pager button:last-child'),
        },
        'Older →',
      ),
    );
    // Keyboard users keep their place: the button pressed, or its partner when that one is now disabled.
    if (focusSelector) {
      const wantedButton = /** @type {HTMLButtonElement | null} */ (main.querySelector(focusSelector));
      (wantedButton && !wantedButton.disabled
        ? wantedButton
        : [...pager.querySelectorAll('button')].find((b) => !b.disabled)
      )?.focus();
    }
  };

  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Audit log'),
      h('p', { class: 'subtitle' }, 'Who changed what, and when, newest first. Entries cannot be edited or removed.'),
    ),
    list,
    pager,
  );
  await load(1);
}
