// @ts-check
// The stage-reason catalog: key and label per entry, in configured order. Keys of saved
// entries are stable (stages and leads refer to them), so only new entries have an editable key.
import { limit } from './api-document.js';
import { field, h } from './dom.js';
import { keyFromLabel, newReason } from './pipeline-model.js';
import { addAndFocus, entryToolbar } from './pipeline-editor.js';

/** @typedef {import('./pipeline-editor.js').EditorControl} EditorControl */

/**
 * @param {EditorControl} ctl
 * @param {string} oldKey
 * @param {string} newKey
 */
function renameKey(ctl, oldKey, newKey) {
  if (oldKey === '' || oldKey === newKey) return;
  for (const pipeline of ctl.model.pipelines) {
    for (const stage of pipeline.stages) stage.reasons = stage.reasons.map((k) => (k === oldKey ? newKey : k));
  }
}

/**
 * @param {number} index
 * @param {EditorControl} ctl
 */
function reasonRow(index, ctl) {
  const list = ctl.model.stageReasons;
  const reason = /** @type {import('./pipeline-model.js').ReasonDraft} */ (list[index]);
  const path = `stageReasons[${index}]`;
  const key = h('input', {
    type: 'text',
    class: 'mono',
    readonly: reason.saved,
    maxlength: limit('PipelineConfigurationInput.stageReasons[].key'),
    dataset: { field: `${path}.key` },
  });
  key.value = reason.key;
  const label = h('input', {
    type: 'text',
    maxlength: limit('PipelineConfigurationInput.stageReasons[].label'),
    dataset: { field: `${path}.label` },
  });
  label.value = reason.label;
  const setKey = (/** @type {string} */ value) => {
    renameKey(ctl, reason.key, value);
    reason.key = value;
    key.value = value;
  };
  key.addEventListener('input', () => {
    reason.keyEdited = true;
    setKey(key.value);
    ctl.dirty();
    ctl.refreshPickers();
  });
  label.addEventListener('input', () => {
    reason.label = label.value;
    if (!reason.saved && !reason.keyEdited) setKey(keyFromLabel(label.value));
    ctl.dirty();
    ctl.refreshPickers();
  });
  return h(
    'div',
    {
      class: `reason-row${reason.isArchived ? ' is-archived' : ''}`,
      role: 'group',
      'aria-label': `Reason ${index + 1}`,
      dataset: { field: path },
    },
    h('span', { class: 'row-number', 'aria-hidden': 'true' }, String(index + 1)),
    field('Label', label),
    field('Key', key),
    h('div', { class: 'badges' }, reason.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null),
    entryToolbar('reason', list, index, ctl),
  );
}

/** @param {EditorControl} ctl */
export function renderReasonCatalog(ctl) {
  const add = h('button', { type: 'button', class: 'secondary' }, '+ Add reason');
  add.addEventListener('click', () =>
    addAndFocus(ctl, () => ctl.model.stageReasons.push(newReason()), `stageReasons[${ctl.model.stageReasons.length}]`),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'reasons-title', dataset: { field: 'stageReasons' } },
    h(
      'div',
      { class: 'card-head' },
      h(
        'div',
        {},
        h('h2', { id: 'reasons-title' }, 'Stage reasons'),
        h(
          'p',
          { class: 'subtitle' },
          'The catalog a stage picks its reasons from. Leads send the label; the key is stable once saved.',
        ),
      ),
      add,
    ),
    ctl.model.stageReasons.length === 0
      ? h('div', { class: 'empty' }, h('p', {}, 'No stage reason yet.'))
      : h(
          'div',
          { class: 'reason-list' },
          ctl.model.stageReasons.map((_, i) => reasonRow(i, ctl)),
        ),
  );
}
