// @ts-check
// The lead list view, beside the board: the leads a filter matches as a table with sortable and
// chosen columns, a page at a time. The address holds the list's own query string
// (#/lead-list?pipeline=Sales&stage=Won), so a link shares the view and Back restores the filters
// before; saved filters are the operator's, on the server (lead-list-saved.js); selected leads take
// bulk actions (lead-bulk.js).
import { api, getSession } from './api.js';
import { csvImportCard, exportLeads } from './csv-import.js';
import { errorBanner, h, mount } from './dom.js';
import { bulkBar } from './lead-bulk.js';
import { COLUMNS, chosenColumns, keepColumns, leadTitle } from './lead-list-columns.js';
import { listFilters } from './lead-list-filters.js';
import { savedFiltersBar } from './lead-list-saved.js';
import { addressQuery, leadListSpec, sortOf, withSort } from './lead-list-spec.js';
import { leadsBase, loadLeadConfig } from './lead-config.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./lead-list-spec.js').LeadListSpec} LeadListSpec
 * @typedef {import('./lead-list-columns.js').Column} Column
 */
/**
 * What the list shows: the leads loaded so far, the selection bulk actions take, the columns chosen.
 * @typedef {{ leads: Lead[], total: number, selected: Set<string>, columns: string[], onSelection?: () => void }}
 *   ListState
 * @typedef {{ ctx: Ctx, config: LeadConfig, spec: LeadListSpec, params: URLSearchParams, state: ListState,
 *   message: HTMLElement }} LeadListView
 */

/**
 * Shows the list for these filters: a new address, so Back returns to the one before.
 * @param {URLSearchParams} params
 */
export function showList(params) {
  const query = params.toString();
  location.hash = `#/lead-list${query ? `?${query}` : ''}`;
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderLeadList(main, ctx) {
  const [config, spec] = await Promise.all([loadLeadConfig(ctx.business), leadListSpec()]);
  const params = addressQuery(spec);
  /** @type {ListState} */
  const state = { leads: [], total: 0, selected: new Set(), columns: chosenColumns() };
  const message = h('div');
  const table = h('div', { class: 'lead-list-table' });
  const shown = h('p', { class: 'muted list-shown', role: 'status' });
  const more = h('button', { type: 'button', class: 'secondary load-more' }, 'Load more');
  /** @type {LeadListView} */
  const view = { ctx, config, spec, params, state, message };

  const draw = () => drawTable(view, table, draw);
  const load = async (/** @type {number} */ skip) => {
    const page = new URLSearchParams(params);
    page.set('$limit', String(spec.maxLimit));
    if (skip > 0) page.set('$skip', String(skip));
    /** @type {import('./dashboard-types.js').Schemas['LeadPage']} */
    const answer = (await api('GET', `${leadsBase(ctx.business)}?${page}`))?.[0] ?? { items: [], total: 0 };
    const known = new Set(state.leads.map((l) => l.leadId));
    // A lead edited between pages may come twice: it is shown once.
    state.leads.push(...answer.items.filter((l) => !known.has(l.leadId)));
    state.total = answer.total ?? state.leads.length;
    draw();
    const left = state.total - state.leads.length;
    const capped = spec.maxSkip !== undefined && state.leads.length > spec.maxSkip;
    shown.textContent = `${state.leads.length} of ${state.total} leads shown${
      left > 0 && capped ? `. Narrow the filters to reach the other ${left}.` : '.'
    }`;
    more.hidden = left <= 0 || capped || answer.items.length === 0;
  };
  const reload = async () => {
    state.leads = [];
    await load(0);
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      await load(state.leads.length);
    } catch (error) {
      if (error.status !== 401) mount(message, errorBanner(error.message));
    } finally {
      more.disabled = false;
    }
  });

  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        {},
        h('h1', {}, 'Lead list'),
        h(
          'p',
          { class: 'subtitle' },
          'Filter, sort and select leads; the address keeps the filters, to share or come back to.',
        ),
      ),
      h(
        'div',
        { class: 'toolbar' },
        h('a', { href: '#/leads', class: 'button secondary' }, 'Board view'),
        h('button', { type: 'button', class: 'secondary', onclick: () => exportCsv(view) }, 'Export CSV'),
      ),
    ),
    listFilters(config, params, showList),
    savedFiltersBar(ctx, params, showList),
    columnChooser(state, draw),
    csvImportCard(ctx, reload),
    bulkBar(view, reload),
    message,
    table,
    h('div', { class: 'list-foot' }, shown, more),
  );
  try {
    await load(0);
  } catch (error) {
    if (error.status === 401) return;
    // The address may name what no longer exists (a renamed stage): say so, keep the page usable.
    mount(message, errorBanner(`These filters could not be used: ${error.message}`));
  }
}

/**
 * The leads these filters match, all of them, as a CSV download.
 * @param {LeadListView} view
 */
async function exportCsv({ ctx, params, message }) {
  mount(message, h('p', { class: 'loading', role: 'status' }, 'Preparing the CSV file…'));
  try {
    await exportLeads(ctx, params, getSession()?.token);
    mount(message);
  } catch (error) {
    mount(message, errorBanner(error.message));
  }
}

/**
 * @param {ListState} state
 * @param {() => void} draw
 */
function columnChooser(state, draw) {
  const boxes = COLUMNS.map((column) => {
    const box = h('input', {
      type: 'checkbox',
      name: 'column',
      value: column.key,
      checked: state.columns.includes(column.key),
    });
    box.addEventListener('change', () => {
      const chosen = COLUMNS.map((c) => c.key).filter((key) =>
        key === column.key ? box.checked : state.columns.includes(key),
      );
      if (chosen.length === 0) {
        box.checked = true;
        return;
      }
      state.columns = chosen;
      keepColumns(chosen);
      draw();
    });
    return h('label', { class: 'choice' }, box, ` ${column.label}`);
  });
  return h(
    'details',
    { class: 'card column-chooser' },
    h('summary', {}, 'Columns'),
    h('fieldset', {}, h('legend', { class: 'visually-hidden' }, 'Columns shown'), boxes),
  );
}

/**
 * @param {LeadListView} view
 * @param {HTMLElement} container
 * @param {() => void} draw
 */
function drawTable({ config, spec, params, state }, container, draw) {
  if (state.leads.length === 0) {
    mount(container, h('div', { class: 'empty card' }, h('p', {}, 'No lead matches these filters.')));
    return;
  }
  const columns = COLUMNS.filter((c) => state.columns.includes(c.key));
  const sort = sortOf(params);
  const all = h('input', {
    type: 'checkbox',
    'aria-label': 'Select all shown leads',
    checked: state.leads.every((l) => state.selected.has(l.leadId)),
  });
  all.addEventListener('change', () => {
    for (const lead of state.leads) all.checked ? state.selected.add(lead.leadId) : state.selected.delete(lead.leadId);
    draw();
  });
  const head = (/** @type {Column} */ column) => {
    const field = column.sort && spec.sortFields.includes(column.sort) ? column.sort : null;
    const current = field && sort?.field === field ? sort.direction : 0;
    const ariaSort = current === 1 ? 'ascending' : current === -1 ? 'descending' : undefined;
    const label = field
      ? h(
          'button',
          {
            type: 'button',
            class: 'sort-button',
            onclick: () => showList(withSort(params, field, current === -1 ? 1 : -1)),
          },
          column.label,
          current ? (current === 1 ? ' ▲' : ' ▼') : '',
        )
      : column.label;
    return h('th', { scope: 'col', 'aria-sort': ariaSort }, label);
  };
  const row = (/** @type {Lead} */ lead) => {
    const box = h('input', {
      type: 'checkbox',
      'aria-label': `Select ${leadTitle(lead)}`,
      checked: state.selected.has(lead.leadId),
    });
    box.addEventListener('change', () => {
      box.checked ? state.selected.add(lead.leadId) : state.selected.delete(lead.leadId);
      draw();
    });
    return h(
      'tr',
      { dataset: { leadId: lead.leadId }, class: state.selected.has(lead.leadId) ? 'current' : '' },
      h('td', { class: 'select-cell' }, box),
      columns.map((c) => h('td', { 'data-label': c.label, class: c.num ? 'num' : '' }, c.cell(lead, config))),
    );
  };
  mount(
    container,
    h(
      'table',
      { class: 'data-table compact stack', 'aria-label': 'Leads' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'select-cell' }, all), columns.map(head))),
      h('tbody', {}, state.leads.map(row)),
    ),
  );
  state.onSelection?.();
}
