// @ts-check
// Bulk actions on the leads selected in the list view: move (with reasons), assign, tag, untag or
// remove, in one request (POST …/lead-bulk-actions). The server writes each lead in its own
// transaction and answers each one's outcome: the summary names the leads that failed and why.
import { api, seg } from './api.js';
import { checkedValues, confirmAction, errorBanner, field, h, mount } from './dom.js';
import { reasonsOf } from './lead-config.js';
import { leadTitle } from './lead-list-columns.js';

/**
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./view-leads-list.js').LeadListView} LeadListView
 * @typedef {'move' | 'assign' | 'tag' | 'untag' | 'remove'} BulkAction
 * @typedef {{ nodes: Node[], read: () => Record<string, unknown> }} ActionControls
 */
/** @typedef {import('./dashboard-types.js').OperatorSchemas['LeadBulkOutcome']} BulkOutcome each lead's outcome of POST …/lead-bulk-actions */

/** @type {[BulkAction, string, string][]} the action, its label, and its past tense for the summary */
const ACTIONS = [
  ['move', 'Move to stage', 'moved'],
  ['assign', 'Assign to', 'assigned'],
  ['tag', 'Add tag', 'tagged'],
  ['untag', 'Remove tag', 'untagged'],
  ['remove', 'Remove leads', 'removed'],
];

/**
 * The members the chosen action needs, as controls; `read()` gives them as the request's members.
 * @param {LeadConfig} config
 * @param {string} action
 * @param {string | null} pipelineName
 * @returns {ActionControls}
 */
function actionControls(config, action, pipelineName) {
  if (action === 'assign') {
    const who = h(
      'select',
      { name: 'bulkAssignee' },
      h('option', { value: '' }, 'Nobody'),
      config.members.filter((m) => !m.isArchived).map((m) => h('option', { value: m.email }, m.name)),
    );
    return { nodes: [field('Assignee', who)], read: () => ({ assignedTo: who.value || null }) };
  }
  if (action === 'tag' || action === 'untag') {
    const tag = h(
      'select',
      { name: 'bulkTag' },
      config.tags.filter((t) => !t.isArchived).map((t) => h('option', { value: t.name }, t.name)),
    );
    return { nodes: [field('Tag', tag)], read: () => ({ tags: [tag.value] }) };
  }
  if (action === 'remove') return { nodes: [], read: () => ({}) };
  const pipelines = config.pipelines.filter((p) => !p.isArchived);
  const pipeline = pipelines.find((p) => p.name === pipelineName) ?? pipelines.find((p) => p.isPrimary) ?? pipelines[0];
  const stages = (pipeline?.stages ?? []).filter((s) => !s.isArchived);
  const stage = h(
    'select',
    { name: 'bulkStage' },
    stages.map((s) => h('option', { value: s.name }, s.name)),
  );
  const reasons = h('fieldset', { class: 'choices bulk-reasons' });
  const drawReasons = () => {
    const offered = reasonsOf(
      config,
      stages.find((s) => s.name === stage.value),
    );
    mount(
      reasons,
      offered.length ? h('legend', {}, 'Reasons') : null,
      offered.map((r) =>
        h('label', { class: 'choice' }, h('input', { type: 'checkbox', value: r.label }), ` ${r.label}`),
      ),
    );
    reasons.hidden = offered.length === 0;
  };
  stage.addEventListener('change', drawReasons);
  drawReasons();
  return {
    nodes: [field(`Stage of ${pipeline?.name ?? ''}`, stage), reasons],
    read: () => ({
      pipeline: pipeline?.name,
      stage: stage.value,
      stageReasons: checkedValues(reasons),
    }),
  };
}

/**
 * @param {LeadListView} view
 * @param {() => Promise<void>} reload
 */
export function bulkBar(view, reload) {
  const { ctx, config, params, state } = view;
  const count = h('strong', { class: 'bulk-count' });
  const action = h(
    'select',
    { name: 'bulkAction' },
    ACTIONS.map(([value, label]) => h('option', { value }, label)),
  );
  const members = h('div', { class: 'bulk-members' });
  const summary = h('div', { class: 'bulk-summary' });
  const apply = h('button', { type: 'submit', class: 'primary' }, 'Apply to selected');
  /** @type {ActionControls} */
  let controls = { nodes: [], read: () => ({}) };
  const drawControls = () => {
    controls = actionControls(config, action.value, params.get('pipeline'));
    mount(members, controls.nodes);
  };
  action.addEventListener('change', drawControls);
  drawControls();
  const bar = h(
    'form',
    { class: 'card bulk-bar', 'aria-label': 'Bulk actions', hidden: true },
    h('div', { class: 'bulk-row' }, count, field('Action', action), members, apply),
    summary,
  );
  const onSelection = () => {
    const n = state.selected.size;
    count.textContent = `${n} selected`;
    bar.hidden = n === 0 && summary.childElementCount === 0;
  };
  state.onSelection = onSelection;
  bar.addEventListener('submit', async (event) => {
    event.preventDefault();
    const leadIds = [...state.selected];
    const [kind, label, done] = ACTIONS.find(([value]) => value === action.value) ?? ACTIONS[0];
    if (
      kind === 'remove' &&
      !(await confirmAction(
        'Remove leads?',
        `Remove ${leadIds.length} leads? They disappear from the API.`,
        'Remove',
        true,
      ))
    )
      return;
    apply.disabled = true;
    mount(summary, h('p', { class: 'loading', role: 'status' }, `${label}: ${leadIds.length} leads…`));
    try {
      const titles = new Map(state.leads.map((l) => [l.leadId, leadTitle(l)]));
      /** @type {BulkOutcome} */
      const answer = await api('POST', `/businesses/${seg(ctx.business.urlKey)}/lead-bulk-actions`, {
        leadIds,
        action: kind,
        ...controls.read(),
      });
      const failed = answer.results.filter((r) => !r.ok);
      state.selected = new Set(failed.map((r) => r.leadId));
      mount(
        summary,
        h(
          'p',
          { role: 'status', class: failed.length ? 'bulk-result warn' : 'bulk-result' },
          `${answer.succeeded} of ${leadIds.length} leads ${done}.`,
        ),
        failed.length
          ? h(
              'div',
              { role: 'alert' },
              h('p', {}, `${failed.length} not ${done} (still selected):`),
              h(
                'ul',
                { class: 'bulk-failures' },
                failed.map((r) => h('li', {}, `${titles.get(r.leadId) ?? r.leadId}: ${r.error?.message ?? 'failed'}`)),
              ),
            )
          : null,
      );
      await reload();
    } catch (error) {
      if (error.status !== 401) mount(summary, errorBanner(error.fieldErrors[0]?.message ?? error.message));
    } finally {
      apply.disabled = false;
      onSelection();
    }
  });
  return bar;
}
