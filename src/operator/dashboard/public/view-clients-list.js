// @ts-check
// The clients of a business: paged, searchable by name or clientId, each with its leads
// (the leads list filtered by clientId); imported from and exported to CSV (csv-import.js).
import { limit } from './api-document.js';
import { api, latestOnly, seg } from './api.js';
import { CLIENT_CSV, csvImportCard, exportCsv } from './csv-import.js';
import { errorBanner, field, formatDate, h, mount } from './dom.js';
import { STATUS_LABELS, formatBudget, leadsBase } from './lead-config.js';
import { cardTitle } from './lead-move.js';
import { renderClientDetail } from './view-client-detail.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').ClientSummary} ClientSummary
 * @typedef {import('./dashboard-types.js').Schemas['LeadPage']} LeadPage
 * @typedef {import('./dashboard-types.js').OperatorSchemas['ClientPage']} ClientPage
 */

const PAGE = 20;
/** @type {Record<ClientSummary['status'], string>} */
const STATUS_BADGE = { active: 'badge-ok', archived: 'badge-muted', deleted: 'badge-danger' };
/** The list's search and page, kept while the operator visits other pages. */
const view = { urlKey: /** @type {string | null} */ (null), q: '', skip: 0 };

/**
 * @param {Ctx} ctx
 * @param {ClientSummary & { clientId: string }} client
 * @param {HTMLElement} slot
 * @param {HTMLButtonElement} button
 */
async function leadsOf(ctx, client, slot, button) {
  if (slot.childElementCount > 0) {
    mount(slot);
    button.setAttribute('aria-expanded', 'false');
    return;
  }
  button.setAttribute('aria-expanded', 'true');
  mount(slot, h('p', { class: 'loading', role: 'status' }, 'Loading leads…'));
  try {
    /** @type {LeadPage} */
    const page = (
      await api('GET', `${leadsBase(ctx.business)}?clientId=${encodeURIComponent(client.clientId)}&$limit=50`)
    )?.[0] ?? { items: [], total: 0 };
    mount(
      slot,
      page.items.length === 0
        ? h('p', { class: 'muted' }, `${client.name} has no lead.`)
        : h(
            'ul',
            { class: 'client-leads', 'aria-label': `Leads of ${client.name}` },
            page.items.map((lead) =>
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
    if (error.status !== 401) mount(slot, errorBanner(error.message));
  }
}

/**
 * @param {Ctx} ctx
 * @param {ClientSummary} client
 */
function clientRow(ctx, client) {
  const slot = h('div', { class: 'client-leads-slot' });
  const clientId = client.clientId;
  const button = clientId
    ? h(
        'button',
        { type: 'button', class: 'secondary small', 'aria-expanded': 'false', 'aria-label': `Leads of ${client.name}` },
        'Leads',
      )
    : null;
  if (clientId && button) button.addEventListener('click', () => leadsOf(ctx, { ...client, clientId }, slot, button));
  return h(
    'li',
    { class: 'client-row' },
    h(
      'div',
      { class: 'client-row-main' },
      h(
        'div',
        {},
        client.clientId
          ? h(
              'a',
              { href: `#/client-list/${encodeURIComponent(client.clientId)}` },
              h('strong', {}, client.name ?? '—'),
            )
          : h('strong', {}, client.name ?? '—'),
        ' ',
        h('span', { class: `badge ${STATUS_BADGE[client.status] ?? ''}` }, client.status),
        h(
          'p',
          { class: 'muted small-text' },
          client.clientId ? h('code', {}, client.clientId) : 'No clientId (made in the dashboard)',
          [client.email, client.phone, client.city].filter(Boolean).map((v) => ` · ${v}`),
          ` · added ${formatDate(client.createdAt)}`,
        ),
      ),
      button,
    ),
    slot,
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderClientsList(main, ctx) {
  if (ctx.param) return renderClientDetail(main, ctx, ctx.param);
  if (view.urlKey !== ctx.business.urlKey) Object.assign(view, { urlKey: ctx.business.urlKey, q: '', skip: 0 });
  const base = `/businesses/${seg(ctx.business.urlKey)}/clients`;
  const search = h('input', {
    type: 'search',
    name: 'q',
    value: view.q,
    maxlength: limit('listClientsAsOperator?q'),
    placeholder: 'Name or clientId',
  });
  const results = h('div', { 'aria-live': 'polite' });
  // A second search (or page) asked before the first answered: only the latest is drawn.
  const startLoad = latestOnly();
  const load = async () => {
    const isLatest = startLoad();
    mount(results, h('p', { class: 'loading', role: 'status' }, 'Loading clients…'));
    const params = new URLSearchParams({ $limit: String(PAGE), $skip: String(view.skip) });
    if (view.q) params.set('q', view.q);
    try {
      /** @type {ClientPage} */
      const page = (await api('GET', `${base}?${params}`))[0];
      if (!isLatest()) return;
      const last = Math.min(page.skip + page.items.length, page.total);
      const pager = h(
        'nav',
        { class: 'pager', 'aria-label': 'Client pages' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary small',
            disabled: page.skip === 0,
            onclick: () => {
              view.skip = Math.max(0, view.skip - PAGE);
              load();
            },
          },
          '← Previous',
        ),
        h('span', { class: 'muted' }, page.total === 0 ? '' : `${page.skip + 1}–${last} of ${page.total}`),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary small',
            disabled: last >= page.total,
            onclick: () => {
              view.skip += PAGE;
              load();
            },
          },
          'Next →',
        ),
      );
      mount(
        results,
        page.items.length === 0
          ? h(
              'div',
              { class: 'empty card' },
              h('p', {}, view.q ? `No client matches “${view.q}”.` : `${ctx.business.name} has no client yet.`),
            )
          : h(
              'section',
              { class: 'card', 'aria-label': 'Clients' },
              h(
                'ul',
                { class: 'client-list' },
                page.items.map((c) => clientRow(ctx, c)),
              ),
              pager,
            ),
      );
    } catch (error) {
      if (isLatest() && error.status !== 401) mount(results, errorBanner(error.message));
    }
  };
  const form = h(
    'form',
    { class: 'card inline-form', role: 'search', 'aria-label': 'Find clients' },
    field('Search clients', search),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    view.q = search.value.trim();
    view.skip = 0;
    load();
  });
  const message = h('div', { 'aria-live': 'polite' });
  const download = async () => {
    mount(message, h('p', { class: 'loading', role: 'status' }, 'Preparing the CSV file…'));
    try {
      await exportCsv(ctx, CLIENT_CSV, new URLSearchParams(view.q ? { q: view.q } : {}));
      mount(message);
    } catch (error) {
      mount(message, errorBanner(error.message));
    }
  };
  const exportButton = h('button', { type: 'button', class: 'secondary', onclick: download }, 'Export CSV');
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Client list'),
      h(
        'p',
        { class: 'subtitle' },
        `Every client of ${ctx.business.name}, newest first. Open a client's leads from its row.`,
      ),
    ),
    form,
    h('div', { class: 'csv-actions' }, exportButton),
    message,
    csvImportCard(ctx, load, CLIENT_CSV),
    results,
  );
  await load();
}
