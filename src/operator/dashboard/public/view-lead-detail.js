// @ts-check
// One lead (#/leads/<leadId>): every field editable through the operator PATCH, which sends only
// what changed; the activity timeline; remove the lead after a confirmation.
import { api, seg } from './api.js';
import { actionButton, confirmAction, errorBanner, formatDate, h, mount, toast } from './dom.js';
import { clearFieldErrors, errorSummary, showFieldErrors } from './field-errors.js';
import { activityCard } from './lead-activity.js';
import { STATUS_LABELS, followUpBadge, formatBudget, loadLeadConfig } from './lead-config.js';
import { leadForm } from './lead-form.js';
import { cardTitle } from './lead-move.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 */

/** @type {Record<Lead['status'], string>} */
const STATUS_BADGE = {
  NEW: 'badge-new',
  OPEN: 'badge-new',
  CLOSED: 'badge-ok',
  DROPPED: 'badge-muted',
  REJECTED: 'badge-danger',
};

/**
 * @param {Lead} lead
 * @param {Business} business
 */
function header(lead, business) {
  return h(
    'div',
    { class: 'page-head lead-head' },
    h('p', {}, h('a', { href: '#/leads' }, '← Back to the board')),
    h('h1', {}, cardTitle(lead)),
    h(
      'p',
      { class: 'subtitle' },
      h('span', { class: `badge ${STATUS_BADGE[lead.status] ?? ''}` }, STATUS_LABELS[lead.status] ?? lead.status),
      `${lead.pipeline} › ${lead.stage}`,
      lead.stageReasons.length ? ` (${lead.stageReasons.join(', ')})` : '',
      formatBudget(lead.budget) ? ` · ${formatBudget(lead.budget)}` : '',
      ' ',
      followUpBadge(lead, business.timeZone),
    ),
    h(
      'p',
      { class: 'muted small-text' },
      'Customer ',
      lead.customer.clientId
        ? h('a', { href: `#/client-list/${encodeURIComponent(lead.customer.clientId)}` }, lead.customer.name)
        : lead.customer.name,
      ` (client ${lead.customer.clientId ?? '—'}) · created ${formatDate(lead.createdAt)} via ${lead.source === 'API' ? 'the API' : 'the dashboard'}`,
      lead.externalId ? ` as ${lead.externalId}` : '',
      ` · updated ${formatDate(lead.updatedAt)}`,
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 * @param {string} leadId
 */
export async function renderLeadDetail(main, ctx, leadId) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/leads/${seg(leadId)}`;
  mount(main, h('h1', {}, 'Lead'), h('p', { class: 'loading', role: 'status' }, 'Loading the lead…'));
  /** @type {Lead} */
  let lead;
  /** @type {LeadConfig} */
  let config;
  try {
    [lead, config] = await Promise.all([api('GET', path), loadLeadConfig(ctx.business)]);
  } catch (error) {
    if (error.status !== 404) throw error;
    mount(
      main,
      h('h1', {}, 'Lead not found'),
      h(
        'div',
        { class: 'empty card' },
        h('p', {}, `No lead “${leadId}” in ${ctx.business.name}: it may have been removed.`),
        h('a', { href: '#/leads', class: 'button primary' }, 'Back to the board'),
      ),
    );
    return;
  }
  const message = h('div');
  const head = h('div');
  const formSlot = h('div');
  const activity = activityCard(ctx.business, leadId);
  /** @type {ReturnType<typeof leadForm>} */
  let form;
  const show = (/** @type {Lead} */ current) => {
    lead = current;
    mount(head, header(lead, ctx.business));
    form = leadForm(lead, config, ctx.business);
    mount(formSlot, form.element);
  };
  const save = actionButton(
    'Save lead',
    async () => {
      mount(message);
      clearFieldErrors(formSlot);
      const body = form.diff();
      if (Object.keys(body).length === 0) {
        toast('Nothing changed.', 'info');
        return;
      }
      try {
        show(await api('PATCH', path, body));
        toast('Lead saved.');
        await activity.load();
      } catch (error) {
        if (error.status === 401) return;
        showFieldErrors(formSlot, error.fieldErrors);
        mount(
          message,
          errorSummary(error.message, error.fieldErrors.length ? error.fieldErrors : [{ message: error.message }]),
        );
      }
    },
    { class: 'primary' },
  );
  const discard = actionButton(
    'Discard changes',
    async () => {
      mount(message);
      show(await api('GET', path));
    },
    { class: 'secondary' },
  );
  const remove = actionButton(
    'Remove lead',
    async () => {
      const ok = await confirmAction(
        'Remove this lead?',
        `“${cardTitle(lead)}” disappears from the board and from apps. Its externalId stays taken.`,
        'Remove lead',
        true,
      );
      if (!ok) return;
      try {
        await api('DELETE', path);
        toast('Lead removed.');
        location.hash = '#/leads';
      } catch (error) {
        if (error.status !== 401) mount(message, errorBanner(error.message));
      }
    },
    { class: 'danger' },
  );
  show(lead);
  const layout = h('div', { class: 'lead-layout', dataset: { pane: 'lead' } });
  mount(
    main,
    head,
    message,
    paneTabs(layout),
    mount(
      layout,
      h(
        'div',
        { class: 'lead-main', id: 'lead-pane-lead', role: 'tabpanel', 'aria-labelledby': 'lead-tab-lead' },
        formSlot,
        h(
          'div',
          { class: 'card lead-actions', role: 'region', 'aria-label': 'Save lead' },
          remove,
          h('div', { class: 'save-actions' }, discard, save),
        ),
      ),
      h(
        'div',
        { class: 'lead-side', id: 'lead-pane-activity', role: 'tabpanel', 'aria-labelledby': 'lead-tab-activity' },
        activity.element,
      ),
    ),
  );
  ctx.setLeaveGuard(() => Object.keys(form.diff()).length > 0);
  await activity.load();
}

/**
 * Narrow screens show the form or the activity, one at a time, chosen by two tabs at the top (issue 39
 * defect 11: the activity sat below ~2,500 px of form); wide screens show both side by side and no tabs (CSS).
 */
/** @param {HTMLElement} layout */
function paneTabs(layout) {
  const tabs = [
    ['lead', 'Lead'],
    ['activity', 'Activity'],
  ].map(([pane, label]) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `lead-tab-${pane}`,
        'aria-controls': `lead-pane-${pane}`,
        'aria-selected': String(pane === 'lead'),
        onclick: () => choose(pane),
      },
      label,
    ),
  );
  const choose = (/** @type {string} */ pane) => {
    layout.dataset.pane = pane;
    for (const tab of tabs) tab.setAttribute('aria-selected', String(tab.id === `lead-tab-${pane}`));
  };
  return h('div', { class: 'lead-tabs', role: 'tablist', 'aria-label': 'Lead page' }, tabs);
}
