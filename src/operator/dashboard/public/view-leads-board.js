// @ts-check
// The leads board: one column per live stage of a pipeline, in configured order (board-column.js).
// Cards move by drag and drop or through their "Move" menu; filters narrow every column, and each
// column's count and value are the server's, over the whole stage. #/leads/<leadId> opens one lead
// (view-lead-detail.js).
import { api, latestOnly, seg } from './api.js';
import { errorBanner, field, h, mount } from './dom.js';
import { STATUS_LABELS, leadsBase, loadLeadConfig } from './lead-config.js';
import { PAGE, boardColumn } from './board-column.js';
import { boardKeys } from './board-keys.js';
import { newLeadForm } from './lead-new.js';
import { renderLeadDetail } from './view-lead-detail.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').OperatorPipeline} OperatorPipeline
 * @typedef {import('./dashboard-types.js').OperatorStage} OperatorStage
 * @typedef {import('./board-column.js').StageFigures} StageFigures
 * @typedef {import('./board-column.js').BoardEnv} BoardEnv
 * @typedef {{ assignedTo: string, tags: string, leadSource: string, status: string, q: string }} BoardFilters
 * the list's filter parameters ('' when unset)
 */

/** @returns {BoardFilters} */
const noFilters = () => ({ assignedTo: '', tags: '', leadSource: '', status: '', q: '' });
/**
 * The board's choices, kept while the operator visits other pages.
 * @type {{ urlKey: string | null, pipelineId: string | null, showArchived: boolean, filters: BoardFilters }}
 */
const board = { urlKey: null, pipelineId: null, showArchived: false, filters: noFilters() };

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderLeads(main, ctx) {
  if (ctx.param) return renderLeadDetail(main, ctx, ctx.param);
  mount(main, h('h1', {}, 'Leads'), h('p', { class: 'loading', role: 'status' }, 'Loading the board…'));
  const config = await loadLeadConfig(ctx.business);
  const live = config.pipelines.filter((p) => !p.isArchived);
  if (live.length === 0) {
    mount(
      main,
      h('h1', {}, 'Leads'),
      h(
        'div',
        { class: 'empty card' },
        h('p', {}, 'No pipeline yet: leads sit in a stage of a pipeline.'),
        h('a', { href: '#/pipelines', class: 'button primary' }, 'Set up a pipeline'),
      ),
    );
    return;
  }
  // Filters name another business's configuration: a switch of business starts from none.
  if (board.urlKey !== ctx.business.urlKey) Object.assign(board, { urlKey: ctx.business.urlKey, filters: noFilters() });
  if (!live.some((p) => p.id === board.pipelineId))
    board.pipelineId = (live.find((p) => p.isPrimary) ?? live[0])?.id ?? null;
  const columns = h('div', { class: 'board', role: 'region', 'aria-label': 'Leads board' });
  boardKeys(columns);
  const message = h('div');
  const creating = h('div');
  const refresh = () => loadColumns(ctx, config, columns, message);
  const add = h('button', { type: 'button', class: 'primary', 'aria-expanded': 'false' }, '+ New lead');
  const close = () => {
    mount(creating);
    add.setAttribute('aria-expanded', 'false');
    add.focus();
  };
  add.addEventListener('click', () => {
    if (creating.childElementCount > 0) {
      close();
      return;
    }
    add.setAttribute('aria-expanded', 'true');
    const pipeline = config.pipelines.find((p) => p.id === board.pipelineId);
    if (!pipeline) return;
    mount(
      creating,
      newLeadForm(
        ctx,
        config,
        pipeline,
        async () => {
          close();
          await refresh();
        },
        close,
      ),
    );
  });
  const [filtersButton, filters] = filterBar(config, live, refresh);
  mount(
    main,
    h(
      'div',
      { class: 'page-head board-head' },
      h(
        'div',
        {},
        h('h1', {}, 'Leads'),
        h(
          'p',
          { class: 'subtitle' },
          `Drag a card to another stage, or use its Move button (keyboard: arrow keys go from card to card, M moves the card). Follow-up dates are overdue after the day passes in ${ctx.business.timeZone ?? 'UTC'}.`,
        ),
      ),
      h('div', { class: 'board-actions' }, filtersButton, add),
    ),
    creating,
    filters,
    message,
    columns,
  );
  await refresh();
}

/**
 * @param {string} label
 * @param {string} name
 * @param {[string, string][]} options [value, text]
 * @param {string | null} value
 * @param {(value: string) => void} onchange
 */
function select(label, name, options, value, onchange) {
  const el = h(
    'select',
    { name },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  el.addEventListener('change', () => onchange(el.value));
  return field(label, el);
}

/**
 * @param {LeadConfig} config
 * @param {OperatorPipeline[]} live
 * @param {() => Promise<void>} refresh
 * @returns {[HTMLButtonElement, HTMLFormElement]}
 */
function filterBar(config, live, refresh) {
  const set = (/** @type {keyof BoardFilters} */ key) => (/** @type {string} */ value) => {
    board.filters[key] = value;
    refresh();
  };
  /** @type {[string, string]} */
  const any = ['', 'Any'];
  const search = h('input', {
    type: 'search',
    name: 'q',
    value: board.filters.q,
    placeholder: 'Subject, customer, contact…',
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => set('q')(search.value.trim()), 300);
  });
  const archived = h('input', { type: 'checkbox', checked: board.showArchived });
  archived.addEventListener('change', () => {
    board.showArchived = archived.checked;
    refresh();
  });
  const form = h(
    'form',
    {
      id: 'board-filters',
      class: 'card filters folds',
      role: 'search',
      'aria-label': 'Filter leads',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        set('q')(search.value.trim());
      },
    },
    select(
      'Pipeline',
      'pipeline',
      live.map((p) => pair(p.id, p.name)),
      board.pipelineId,
      (v) => {
        board.pipelineId = v;
        refresh();
      },
    ),
    select(
      'Assignee',
      'assignedTo',
      [
        any,
        ['UNASSIGNED', 'Unassigned'],
        ...config.members.map((m) => pair(m.email, m.isArchived ? `${m.name} (archived)` : m.name)),
      ],
      board.filters.assignedTo,
      set('assignedTo'),
    ),
    select('Tag', 'tags', [any, ...config.tags.map((t) => pair(t.name, t.name))], board.filters.tags, set('tags')),
    select(
      'Source',
      'leadSource',
      [any, ...config.sources.map((s) => pair(s.key, s.label))],
      board.filters.leadSource,
      set('leadSource'),
    ),
    select('Status', 'status', [any, ...Object.entries(STATUS_LABELS)], board.filters.status, set('status')),
    field('Search', search),
    h('div', { class: 'field checkbox' }, h('label', {}, archived, ' Show archived stages')),
  );
  return [filtersToggle(form), form];
}

/**
 * On a phone the filters fold behind one button (issue 39 defect 11: they pushed the first card below
 * the screen); it says how many are on. Wider screens show them always and never the button (CSS).
 */
/** @param {HTMLFormElement} form */
function filtersToggle(form) {
  const toggle = h('button', {
    type: 'button',
    class: 'secondary small filters-toggle',
    'aria-expanded': 'false',
    'aria-controls': form.id,
  });
  const label = () => {
    const on = Object.values(board.filters).filter(Boolean).length + (board.showArchived ? 1 : 0);
    toggle.textContent = on ? `Filters (${on})` : 'Filters';
  };
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    form.classList.toggle('is-open', open);
    label();
  });
  form.addEventListener('change', label);
  form.addEventListener('input', label);
  label();
  return toggle;
}

/** A select's [value, text] pair. */
const pair = (/** @type {string} */ value, /** @type {string} */ text) =>
  /** @type {[string, string]} */ ([value, text]);

/**
 * The list's query for one stage's page starting at skip, with the board's filters.
 * @param {OperatorPipeline} pipeline
 * @param {OperatorStage} stage
 */
function query(pipeline, stage, skip = 0) {
  const params = new URLSearchParams({ pipeline: pipeline.name, stage: stage.name, $limit: String(PAGE) });
  if (skip > 0) params.set('$skip', String(skip));
  for (const [key, value] of Object.entries(board.filters)) if (value) params.set(key, value);
  return params.toString();
}

/**
 * The stage totals' query: the same filters, over every stage of the pipeline.
 * @param {OperatorPipeline} pipeline
 */
function totalsQuery(pipeline) {
  const params = new URLSearchParams({ pipeline: pipeline.name });
  for (const [key, value] of Object.entries(board.filters)) if (value) params.set(key, value);
  return params.toString();
}

// Filters can change faster than the answers come: only the latest load may draw the board.
const startBoardLoad = latestOnly();

/**
 * @param {Ctx} ctx
 * @param {LeadConfig} config
 * @param {HTMLElement} container
 * @param {HTMLElement} message
 * @returns {Promise<void>}
 */
async function loadColumns(ctx, config, container, message) {
  const isLatest = startBoardLoad();
  const pipeline = config.pipelines.find((p) => p.id === board.pipelineId);
  if (!pipeline) return;
  const stages = pipeline.stages.filter((s) => board.showArchived || !s.isArchived);
  mount(message);
  mount(
    container,
    stages.map((stage) =>
      h(
        'section',
        { class: 'column' },
        h('h2', {}, stage.name),
        h('p', { class: 'loading', role: 'status' }, 'Loading…'),
      ),
    ),
  );
  if (stages.length === 0) {
    mount(container, h('div', { class: 'empty card' }, h('p', {}, 'This pipeline has no live stage.')));
    return;
  }
  try {
    const base = `/businesses/${seg(ctx.business.urlKey)}`;
    const [totals, ...pages] = await Promise.all([
      api('GET', `${base}/lead-stage-totals?${totalsQuery(pipeline)}`),
      ...stages.map((stage) => api('GET', `${leadsBase(ctx.business)}?${query(pipeline, stage)}`)),
    ]);
    if (!isLatest()) return;
    /** @type {Map<string, Pick<StageFigures, 'count' | 'budgets'>>} */
    const figures = new Map((totals?.[0]?.stages ?? []).map((/** @type {StageFigures} */ s) => [s.id, s]));
    /** @type {BoardEnv} */
    const env = { ctx, config, pipeline, message, reload: () => loadColumns(ctx, config, container, message) };
    mount(
      container,
      stages.map((stage, i) =>
        boardColumn(
          env,
          stage,
          figures.get(stage.id) ?? { count: 0, budgets: [] },
          pages[i]?.[0] ?? { items: [], total: 0 },
          (skip) => query(pipeline, stage, skip),
        ),
      ),
    );
  } catch (error) {
    if (error.status !== 401 && isLatest()) mount(message, errorBanner(error.message));
  }
}
