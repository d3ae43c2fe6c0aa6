// @ts-check
// Audit log: who did what, when, to which business, newest first, a page at a time (GET /audit).
import { api } from './api.js';
import { errorBanner, formatDate, h, mount } from './dom.js';

const PAGE_SIZE = 50;

/**
 * One entry of GET /admin/v1/audit, as the document's AuditPage schema (src/operator/operator.openapi.ts) says.
 * @typedef {{ at: string, operator: string, action: string, business: string | null, detail: Record<string, unknown> }} AuditEntry
 */

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
};

/**
 * The detail object as short "key: value" lines; lists joined with commas.
 * @param {AuditEntry['detail']} detail
 */
function detailOf(detail) {
  const entries = Object.entries(detail ?? {});
  if (entries.length === 0) return h('span', { class: 'muted' }, '—');
  return h(
    'dl',
    { class: 'audit-detail' },
    entries.map(([key, value]) => [
      h('dt', {}, key),
      h(
        'dd',
        {},
        Array.isArray(value)
          ? value.join(', ')
          : typeof value === 'object' && value !== null
            ? JSON.stringify(value)
            : String(value),
      ),
    ]),
  );
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
          h(
            'td',
            { dataset: { label: 'What' } },
            ACTIONS[e.action] ?? e.action,
            ' ',
            h('code', { class: 'muted' }, e.action),
          ),
          h(
            'td',
            { dataset: { label: 'Business' } },
            e.business ? h('code', {}, e.business) : h('span', { class: 'muted' }, '—'),
          ),
          h('td', { dataset: { label: 'Detail' } }, detailOf(e.detail)),
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
    /** @type {{ entries: AuditEntry[], hasMore: boolean }} */
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
