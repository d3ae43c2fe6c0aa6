// @ts-check
// One column of the leads board: its stage's figures from the server (count and budget sums over the
// whole stage, GET …/lead-stage-totals), its cards 50 at a time with "Load more", and the cards' moves,
// each shown as pending until the server answers (view-leads-board.js lays the columns out).
import { api } from './api.js';
import { errorBanner, h, mount, toast } from './dom.js';
import { STATUS_LABELS, followUpBadge, formatMoney, formatBudget, leadsBase, memberLabel } from './lead-config.js';
import { cardTitle, chooseStage, moveLead } from './lead-move.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').OperatorPipeline} OperatorPipeline
 * @typedef {import('./dashboard-types.js').OperatorStage} OperatorStage
 * @typedef {import('./dashboard-types.js').OperatorSchemas['LeadStageTotals']['stages'][number]} StageFigures a stage's entry of GET …/lead-stage-totals
 * @typedef {StageFigures['budgets'][number]} BudgetSum an exact sum, as a decimal string
 * @typedef {import('./dashboard-types.js').OperatorSchemas['LeadPage']} LeadsPage
 */
/**
 * What the board hands each column: the page's context, and how to read the board again.
 * @typedef {{ ctx: Ctx, config: LeadConfig, pipeline: OperatorPipeline, message: HTMLElement,
 *   reload: () => Promise<void> }} BoardEnv
 */

/** Cards fetched per request: the list's page. */
export const PAGE = 50;

/** The server's exact sums (decimal strings: the document's pattern), each formatted in its currency. */
export const budgetSums = (/** @type {BudgetSum[]} */ budgets) =>
  budgets.map(({ amount, currency }) => formatMoney(/** @type {`${number}`} */ (amount), currency)).join(' + ');

/**
 * A column: `total` is the stage's figures ({count, budgets}), `page` the first page of its leads,
 * `listQuery(skip)` the list's query string for the page starting at skip.
 * @param {BoardEnv} env
 * @param {OperatorStage} stage
 * @param {Pick<StageFigures, 'count' | 'budgets'>} total
 * @param {LeadsPage} page
 * @param {(skip: number) => string} listQuery
 */
export function boardColumn(env, stage, total, page, listQuery) {
  const titleId = `col-${stage.id}`;
  const sum = budgetSums(total.budgets);
  const cards = h('ul', { class: 'cards', 'aria-label': `Leads in ${stage.name}` });
  const empty = h('p', { class: 'column-empty' }, 'No lead here.');
  const shown = h('p', { class: 'muted small-text column-shown', role: 'status' });
  const more = h('button', { type: 'button', class: 'secondary small load-more' }, 'Load more');
  /** @type {Set<string>} */
  const loaded = new Set();
  const add = (/** @type {Lead[]} */ items) => {
    for (const lead of items) {
      if (loaded.has(lead.leadId)) continue; // a lead moved meanwhile may come twice across pages
      loaded.add(lead.leadId);
      cards.append(h('li', {}, card(env, lead)));
    }
    const left = Math.max(total.count, page.total ?? 0) > loaded.size;
    empty.hidden = loaded.size > 0;
    shown.textContent = left ? `${loaded.size} of ${total.count} shown` : '';
    more.hidden = !left;
  };
  let next = page.items.length;
  more.addEventListener('click', async () => {
    more.disabled = true;
    more.textContent = 'Loading…';
    try {
      /** @type {LeadsPage} */
      const answer = (await api('GET', `${leadsBase(env.ctx.business)}?${listQuery(next)}`))?.[0] ?? { items: [] };
      next += answer.items.length;
      add(answer.items);
      if (answer.items.length === 0) more.hidden = true;
    } catch (error) {
      if (error.status !== 401)
        mount(
          env.message,
          errorBanner(
            error.code === 'INVALID_PAGINATION_SKIP'
              ? `The board shows the first ${loaded.size} leads of “${stage.name}”: narrow it with the filters to see the others.`
              : error.message,
          ),
        );
      if (error.code === 'INVALID_PAGINATION_SKIP') more.hidden = true;
    } finally {
      more.disabled = false;
      more.textContent = 'Load more';
    }
  });
  const section = h(
    'section',
    {
      class: `column${stage.isArchived ? ' is-archived' : ''}`,
      'aria-labelledby': titleId,
      dataset: { stage: stage.name, stageId: stage.id },
    },
    h(
      'header',
      { class: 'column-head' },
      h(
        'h2',
        { id: titleId },
        stage.name,
        stage.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      ),
      h(
        'p',
        { class: 'column-stats' },
        h('span', { class: 'count', 'aria-label': `${total.count} leads` }, String(total.count)),
        h('span', { class: 'muted' }, ` ${STATUS_LABELS[stage.state] ?? stage.state}`),
        sum ? h('span', { class: 'sum', title: 'Sum of the budgets of every lead in this stage' }, ` · ${sum}`) : null,
      ),
    ),
    empty,
    cards,
    shown,
    more,
  );
  add(page.items);
  if (!stage.isArchived) dropTarget(section, env, stage);
  return section;
}

/** @type {{ lead: Lead, el: HTMLElement } | null} the card being dragged, if any */
let dragged = null;

/**
 * @param {HTMLElement} section
 * @param {BoardEnv} env
 * @param {OperatorStage} stage
 */
function dropTarget(section, env, stage) {
  const accepts = () => dragged && dragged.lead.stage !== stage.name;
  section.addEventListener('dragover', (event) => {
    if (accepts()) {
      event.preventDefault();
      section.classList.add('drop-here');
    }
  });
  section.addEventListener('dragleave', (event) => {
    if (!(event.relatedTarget instanceof Node && section.contains(event.relatedTarget)))
      section.classList.remove('drop-here');
  });
  section.addEventListener('drop', async (event) => {
    event.preventDefault();
    section.classList.remove('drop-here');
    if (!dragged || !accepts()) return;
    const { lead, el } = dragged;
    dragged = null;
    await runMove(env, lead, el, stage);
  });
}

/**
 * Moves the card to the destination column at once, marked as moving with its Move… button disabled,
 * until the server answers: then the board is read again, or the card goes back with the reason.
 * @param {BoardEnv} env
 * @param {Lead} lead
 * @param {HTMLElement} el the card
 * @param {OperatorStage} stage
 */
async function runMove(env, lead, el, stage) {
  const button = /** @type {HTMLButtonElement} */ (el.querySelector('.card-move'));
  const item = /** @type {HTMLLIElement} */ (el.closest('li'));
  const home = { parent: item.parentElement, next: item.nextSibling };
  const pending = h('span', { class: 'badge badge-muted card-pending', role: 'status' }, `Moving to ${stage.name}…`);
  const setPending = (/** @type {boolean} */ on) => {
    el.classList.toggle('is-moving', on);
    el.setAttribute('aria-busy', String(on));
    el.draggable = !on;
    button.disabled = on;
    if (on) el.prepend(pending);
    else pending.remove();
  };
  try {
    const moved = await moveLead(env.ctx.business, env.config, lead, stage, () => {
      setPending(true);
      const column = document.querySelector(`.column[data-stage-id="${CSS.escape(stage.id)}"]`);
      column?.querySelector('.cards')?.prepend(item);
      column?.querySelector('.column-empty')?.setAttribute('hidden', '');
    });
    if (!moved) {
      button.focus();
      return;
    }
    toast(`“${cardTitle(lead)}” moved to ${stage.name}.`);
    await env.reload();
    /** @type {HTMLButtonElement | null} */ (
      document.querySelector(`[data-lead-id="${CSS.escape(lead.leadId)}"] .card-move`)
    )?.focus();
  } catch (error) {
    home.parent?.insertBefore(item, home.next);
    setPending(false);
    if (error.status === 401) return;
    mount(env.message, errorBanner(`“${cardTitle(lead)}” was not moved: ${error.message}`));
    toast(`“${cardTitle(lead)}” stayed in ${lead.stage}.`, 'error');
    button.focus();
  }
}

/**
 * @param {BoardEnv} env
 * @param {Lead} lead
 */
function card(env, lead) {
  const title = cardTitle(lead);
  const assignee = memberLabel(env.config, lead.assignedTo);
  const budget = formatBudget(lead.budget);
  const move = h(
    'button',
    {
      type: 'button',
      class: 'secondary small card-move',
      'aria-haspopup': 'dialog',
      'aria-label': `Move ${title}`,
      // One tab stop per card (its title): M or a click reaches Move (board-keys.js).
      tabindex: '-1',
      'aria-keyshortcuts': 'M',
    },
    'Move…',
  );
  const el = h(
    'article',
    { class: 'lead-card', draggable: 'true', dataset: { leadId: lead.leadId }, 'aria-label': title },
    h(
      'a',
      { class: 'card-title', href: `#/leads/${encodeURIComponent(lead.leadId)}`, 'aria-keyshortcuts': 'M' },
      title,
    ),
    lead.subject ? h('p', { class: 'card-customer' }, lead.customer?.name) : null,
    h(
      'p',
      { class: 'card-meta' },
      budget ? h('span', { class: 'card-budget' }, budget) : null,
      h('span', { class: 'card-assignee' }, assignee ?? 'Unassigned'),
    ),
    lead.tags.length || lead.followUpDate
      ? h(
          'p',
          { class: 'card-tags' },
          followUpBadge(lead, env.ctx.business.timeZone),
          lead.tags.map((t) => h('span', { class: 'badge badge-new' }, t)),
        )
      : null,
    h('div', { class: 'card-actions' }, move),
  );
  move.addEventListener('click', async () => {
    const stage = await chooseStage(env.pipeline, lead);
    if (stage) await runMove(env, lead, el, stage);
    else move.focus();
  });
  el.addEventListener('dragstart', (event) => {
    dragged = { lead, el };
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', lead.leadId);
    }
    el.classList.add('dragging');
  });
  el.addEventListener('dragend', () => {
    el.classList.remove('dragging');
    dragged = null;
  });
  return el;
}
