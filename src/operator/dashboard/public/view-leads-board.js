// The leads board: one column per live stage of a pipeline, in configured order. Cards move by
// drag and drop or through their "Move" menu; filters narrow every column. #/leads/<leadId> opens
// one lead (view-lead-detail.js).
import { api } from './api.js';
import { errorBanner, field, h, mount, toast } from './dom.js';
import { STATUS_LABELS, followUpBadge, formatMoney, formatBudget, leadsBase, loadLeadConfig, memberLabel } from './lead-config.js';
import { cardTitle, chooseStage, moveLead } from './lead-move.js';
import { newLeadForm } from './lead-new.js';
import { renderLeadDetail } from './view-lead-detail.js';

const PAGE = 50;
const noFilters = () => ({ assignedTo: '', tags: '', leadSource: '', status: '', q: '' });
const board = { urlKey: null, pipelineId: null, showArchived: false, filters: noFilters() };

export async function renderLeads(main, ctx) {
  if (ctx.param) return renderLeadDetail(main, ctx, ctx.param);
  mount(main, h('h1', {}, 'Leads'), h('p', { class: 'loading', role: 'status' }, 'Loading the board…'));
  const config = await loadLeadConfig(ctx.business);
  const live = config.pipelines.filter((p) => !p.isArchived);
  if (live.length === 0) {
    mount(main, h('h1', {}, 'Leads'), h('div', { class: 'empty card' },
      h('p', {}, 'No pipeline yet: leads sit in a stage of a pipeline.'),
      h('a', { href: '#/pipelines', class: 'button primary' }, 'Set up a pipeline')));
    return;
  }
  // Filters name another business's configuration: a switch of business starts from none.
  if (board.urlKey !== ctx.business.urlKey) Object.assign(board, { urlKey: ctx.business.urlKey, filters: noFilters() });
  if (!live.some((p) => p.id === board.pipelineId)) board.pipelineId = (live.find((p) => p.isPrimary) ?? live[0]).id;
  const columns = h('div', { class: 'board', role: 'region', 'aria-label': 'Leads board' });
  const message = h('div');
  const creating = h('div');
  const refresh = () => loadColumns(ctx, config, columns, message);
  const add = h('button', { type: 'button', class: 'primary', 'aria-expanded': 'false' }, '+ New lead');
  const close = () => { mount(creating); add.setAttribute('aria-expanded', 'false'); add.focus(); };
  add.addEventListener('click', () => {
    if (creating.childElementCount > 0) { close(); return; }
    add.setAttribute('aria-expanded', 'true');
    const pipeline = config.pipelines.find((p) => p.id === board.pipelineId);
    mount(creating, newLeadForm(ctx, config, pipeline, async () => { close(); await refresh(); }, close));
  });
  mount(main,
    h('div', { class: 'page-head board-head' },
      h('div', {}, h('h1', {}, 'Leads'),
        h('p', { class: 'subtitle' }, `Drag a card to another stage, or use its Move button. Follow-up dates are overdue after the day passes in ${ctx.business.timeZone ?? 'UTC'}.`)),
      add),
    creating,
    filterBar(config, live, refresh),
    message,
    columns,
  );
  await refresh();
}

function select(label, name, options, value, onchange) {
  const el = h('select', { name }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  el.addEventListener('change', () => onchange(el.value));
  return field(label, el);
}

function filterBar(config, live, refresh) {
  const set = (key) => (value) => { board.filters[key] = value; refresh(); };
  const any = ['', 'Any'];
  const search = h('input', { type: 'search', name: 'q', value: board.filters.q, placeholder: 'Subject, customer, contact…' });
  let timer = null;
  search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => set('q')(search.value.trim()), 300); });
  const archived = h('input', { type: 'checkbox', checked: board.showArchived });
  archived.addEventListener('change', () => { board.showArchived = archived.checked; refresh(); });
  return h('form', { class: 'card filters', role: 'search', 'aria-label': 'Filter leads', onsubmit: (e) => { e.preventDefault(); set('q')(search.value.trim()); } },
    select('Pipeline', 'pipeline', live.map((p) => [p.id, p.name]), board.pipelineId, (v) => { board.pipelineId = v; refresh(); }),
    select('Assignee', 'assignedTo', [any, ['UNASSIGNED', 'Unassigned'], ...config.members.map((m) => [m.email, m.isArchived ? `${m.name} (archived)` : m.name])], board.filters.assignedTo, set('assignedTo')),
    select('Tag', 'tags', [any, ...config.tags.map((t) => [t.name, t.name])], board.filters.tags, set('tags')),
    select('Source', 'leadSource', [any, ...config.sources.map((s) => [s.key, s.label])], board.filters.leadSource, set('leadSource')),
    select('Status', 'status', [any, ...Object.entries(STATUS_LABELS)], board.filters.status, set('status')),
    field('Search', search),
    h('div', { class: 'field checkbox' }, h('label', {}, archived, ' Show archived stages')),
  );
}

function query(pipeline, stage) {
  const params = new URLSearchParams({ pipeline: pipeline.name, stage: stage.name, $limit: String(PAGE) });
  for (const [key, value] of Object.entries(board.filters)) if (value) params.set(key, value);
  return params.toString();
}

// Filters can change faster than the answers come: only the latest load may draw the board.
let loadGeneration = 0;

async function loadColumns(ctx, config, container, message) {
  const generation = ++loadGeneration;
  const pipeline = config.pipelines.find((p) => p.id === board.pipelineId);
  const stages = pipeline.stages.filter((s) => board.showArchived || !s.isArchived);
  mount(message);
  mount(container, stages.map((stage) => h('section', { class: 'column' }, h('h2', {}, stage.name), h('p', { class: 'loading', role: 'status' }, 'Loading…'))));
  if (stages.length === 0) { mount(container, h('div', { class: 'empty card' }, h('p', {}, 'This pipeline has no live stage.'))); return; }
  try {
    const pages = await Promise.all(stages.map((stage) => api('GET', `${leadsBase(ctx.business)}?${query(pipeline, stage)}`)));
    if (generation !== loadGeneration) return;
    const reload = () => loadColumns(ctx, config, container, message);
    mount(container, stages.map((stage, i) => column(ctx, config, pipeline, stage, pages[i]?.[0] ?? { items: [], total: 0 }, reload, message)));
  } catch (error) {
    if (error.status !== 401 && generation === loadGeneration) mount(message, errorBanner(error.message));
  }
}

/** Budget sums per currency over the cards loaded in the column (at most PAGE of them). */
function budgetSum(items) {
  const sums = new Map();
  for (const lead of items) if (lead.budget) sums.set(lead.budget.currency, (sums.get(lead.budget.currency) ?? 0) + lead.budget.amount);
  return [...sums].map(([currency, amount]) => formatMoney(amount, currency)).join(' + ');
}

function column(ctx, config, pipeline, stage, page, reload, message) {
  const titleId = `col-${stage.id}`;
  const sum = budgetSum(page.items);
  const shown = page.items.length < page.total ? `${page.items.length} of ${page.total} shown` : null;
  const section = h('section', { class: `column${stage.isArchived ? ' is-archived' : ''}`, 'aria-labelledby': titleId, dataset: { stage: stage.name } },
    h('header', { class: 'column-head' },
      h('h2', { id: titleId }, stage.name, stage.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null),
      h('p', { class: 'column-stats' },
        h('span', { class: 'count', 'aria-label': `${page.total} leads` }, String(page.total)),
        h('span', { class: 'muted' }, ` ${STATUS_LABELS[stage.state] ?? stage.state}`),
        sum ? h('span', { class: 'sum', title: shown ? 'Sum of the budgets of the cards shown' : 'Sum of the budgets' }, ` · ${sum}`) : null)),
    page.items.length === 0
      ? h('p', { class: 'column-empty' }, 'No lead here.')
      : h('ul', { class: 'cards', 'aria-label': `Leads in ${stage.name}` }, page.items.map((lead) => h('li', {}, card(ctx, config, pipeline, lead, reload, message)))),
    shown ? h('p', { class: 'muted small-text' }, shown) : null,
  );
  if (!stage.isArchived) dropTarget(section, ctx, config, pipeline, stage, reload, message);
  return section;
}

let dragged = null;

function dropTarget(section, ctx, config, pipeline, stage, reload, message) {
  const accepts = () => dragged && dragged.stage !== stage.name;
  section.addEventListener('dragover', (event) => { if (accepts()) { event.preventDefault(); section.classList.add('drop-here'); } });
  section.addEventListener('dragleave', (event) => { if (!section.contains(event.relatedTarget)) section.classList.remove('drop-here'); });
  section.addEventListener('drop', async (event) => {
    event.preventDefault();
    section.classList.remove('drop-here');
    if (!accepts()) return;
    const lead = dragged;
    dragged = null;
    await runMove(ctx, config, lead, stage, reload, message);
  });
}

async function runMove(ctx, config, lead, stage, reload, message) {
  try {
    const moved = await moveLead(ctx.business, config, lead, stage);
    if (!moved) return;
    toast(`“${cardTitle(lead)}” moved to ${stage.name}.`);
    await reload();
    document.querySelector(`[data-lead-id="${CSS.escape(lead.leadId)}"] .card-move`)?.focus();
  } catch (error) {
    if (error.status !== 401) mount(message, errorBanner(`${cardTitle(lead)} was not moved: ${error.message}`));
  }
}

function card(ctx, config, pipeline, lead, reload, message) {
  const title = cardTitle(lead);
  const assignee = memberLabel(config, lead.assignedTo);
  const budget = formatBudget(lead.budget);
  const move = h('button', { type: 'button', class: 'secondary small card-move', 'aria-haspopup': 'dialog', 'aria-label': `Move ${title}` }, 'Move…');
  move.addEventListener('click', async () => {
    const stage = await chooseStage(pipeline, lead);
    if (stage) await runMove(ctx, config, lead, stage, reload, message);
    else move.focus();
  });
  const el = h('article', { class: 'lead-card', draggable: 'true', dataset: { leadId: lead.leadId }, 'aria-label': title },
    h('a', { class: 'card-title', href: `#/leads/${encodeURIComponent(lead.leadId)}` }, title),
    lead.subject ? h('p', { class: 'card-customer' }, lead.customer?.name) : null,
    h('p', { class: 'card-meta' },
      budget ? h('span', { class: 'card-budget' }, budget) : null,
      h('span', { class: 'card-assignee' }, assignee ?? 'Unassigned')),
    lead.tags.length || lead.followUpDate ? h('p', { class: 'card-tags' },
      followUpBadge(lead, ctx.business.timeZone), lead.tags.map((t) => h('span', { class: 'badge badge-new' }, t))) : null,
    h('div', { class: 'card-actions' }, move),
  );
  el.addEventListener('dragstart', (event) => {
    dragged = lead;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', lead.leadId);
    el.classList.add('dragging');
  });
  el.addEventListener('dragend', () => { el.classList.remove('dragging'); dragged = null; });
  return el;
}
