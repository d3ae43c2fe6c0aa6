// @ts-check
// Renders pipelines and their stages from the working copy. Typing updates the model in place;
// structural actions (add, remove, reorder, archive, primary) change the model and rebuild.
import { labels, limit } from './api-document.js';
import { field, h, uid } from './dom.js';
import { move, newPipeline, newStage } from './pipeline-model.js';

/**
 * What the pipelines view hands its editors (view-pipelines.js): the working copy and the actions on it.
 * @typedef {object} EditorControl
 * @property {import('./pipeline-model.js').Model} model
 * @property {HTMLElement} editor
 * @property {boolean} isDirty
 * @property {(() => void)[]} pickers refill the stage reason pickers after the catalog changed
 * @property {() => void} dirty
 * @property {() => void} clean
 * @property {() => void} rebuild
 * @property {() => void} render
 * @property {() => void} refreshPickers
 */

/**
 * An input bound to obj[key]; every keystroke updates the model and marks the editor dirty.
 * @template {Record<string, any>} T
 * @param {T} obj
 * @param {keyof T & string} key
 * @param {string} path
 * @param {Pick<EditorControl, 'dirty'>} ctl
 * @param {Record<string, unknown>} [attrs]
 */
export function boundInput(obj, key, path, ctl, attrs = {}) {
  const input = h('input', { type: 'text', ...attrs, dataset: { field: path } });
  input.value = obj[key];
  input.addEventListener('input', () => {
    /** @type {Record<string, unknown>} */ (obj)[key] = input.value;
    ctl.dirty();
  });
  return input;
}

/**
 * @param {string} text
 * @param {string} label
 * @param {(event: MouseEvent) => void} onclick
 */
function toolButton(text, label, onclick, disabled = false, cls = 'icon') {
  return h(
    'button',
    { type: 'button', class: `secondary small ${cls}`, 'aria-label': label, title: label, disabled, onclick },
    text,
  );
}

/**
 * Focus after a rebuild (rebuilt elements are new, so focus would otherwise fall to the top of the
 * page): the entry whose data-field is `path` itself when it is a control, else the first enabled
 * element inside it matching the first selector of `prefer` that matches any.
 * @param {string} path
 */
export function focusEntry(path, prefer = ['input, select']) {
  /** @type {HTMLElement | null} */
  const entry = document.querySelector(`[data-field="${CSS.escape(path)}"]`);
  if (!entry) return;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(entry.tagName)) {
    entry.focus();
    return;
  }
  for (const selector of [...prefer, 'button']) {
    const target = [...entry.querySelectorAll(selector)].find(
      (el) => !(/** @type {HTMLButtonElement} */ (el).disabled),
    );
    if (target instanceof HTMLElement) {
      target.focus();
      return;
    }
  }
}

/**
 * Adds an entry through `add()`, rebuilds, and puts the cursor in the new entry's first field.
 * @param {Pick<EditorControl, 'rebuild'>} ctl
 * @param {() => void} add
 * @param {string} path
 */
export function addAndFocus(ctl, add, path) {
  add();
  ctl.rebuild();
  focusEntry(path);
}

/**
 * Up, down, archive/unarchive, and remove for entries not saved yet (saved ones are archived instead).
 * `archiveBlocked` is the reason an entry cannot be archived now (the primary pipeline), shown beside it.
 * After each, focus stays with the entry (at its new place) instead of falling to the top of the page.
 * @param {string} kind
 * @param {{ id?: string, saved?: boolean, isArchived: boolean }[]} list
 * @param {number} index
 * @param {Pick<EditorControl, 'rebuild'>} ctl
 * @param {string | null} [archiveBlocked]
 */
export function entryToolbar(kind, list, index, ctl, archiveBlocked = null) {
  const item = /** @type {{ id?: string, saved?: boolean, isArchived: boolean }} */ (list[index]);
  const label = (/** @type {string} */ verb) =>
    verb.startsWith('Move') ? `Move ${kind} ${verb.slice(5)}` : `${verb} ${kind}`;
  /**
   * @param {() => void} fn
   * @param {number | null} focusIndex
   * @param {string[]} prefer
   * @returns {(event: MouseEvent) => void}
   */
  const structural = (fn, focusIndex, prefer) => (event) => {
    const own = /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (event.currentTarget).closest('[data-field]'));
    // The entry's path at its new index ("…stages[2]" → "…stages[1]"), or the enclosing list after a removal.
    const next =
      focusIndex === null
        ? /** @type {HTMLElement | null | undefined} */ (own.parentElement?.closest('[data-field]'))?.dataset.field
        : own.dataset.field?.replace(/\[\d+\]$/, `[${focusIndex}]`);
    fn();
    ctl.rebuild();
    if (next)
      focusEntry(
        next,
        prefer.map((verb) => `.toolbar button[aria-label="${label(verb)}"]`),
      );
  };
  const saved = kind === 'reason' ? item.saved : Boolean(item.id);
  const toggle = item.isArchived ? 'Unarchive' : 'Archive';
  const blockedId = archiveBlocked ? uid('why') : null;
  return h(
    'div',
    { class: 'toolbar', role: 'group', 'aria-label': `${kind} actions` },
    toolButton(
      '↑',
      label('Move up'),
      structural(() => move(list, index, -1), index - 1, ['Move up', 'Move down']),
      index === 0,
    ),
    toolButton(
      '↓',
      label('Move down'),
      structural(() => move(list, index, 1), index + 1, ['Move down', 'Move up']),
      index === list.length - 1,
    ),
    archiveBlocked && !item.isArchived
      ? [
          h(
            'button',
            { type: 'button', class: 'secondary small', disabled: true, 'aria-describedby': blockedId },
            'Archive',
          ),
          h('span', { class: 'toolbar-note', id: blockedId }, archiveBlocked),
        ]
      : toolButton(
          toggle,
          label(toggle),
          structural(
            () => {
              item.isArchived = !item.isArchived;
            },
            index,
            [item.isArchived ? 'Archive' : 'Unarchive'],
          ),
          false,
          '',
        ),
    saved
      ? null
      : toolButton(
          'Remove',
          label('Remove'),
          structural(() => list.splice(index, 1), null, []),
          false,
          'danger-text',
        ),
  );
}

/**
 * @typedef {import('./pipeline-model.js').StageDraft} StageDraft
 * @typedef {import('./pipeline-model.js').PipelineDraft} PipelineDraft
 */

/**
 * @param {StageDraft} stage
 * @param {string} path
 * @param {EditorControl} ctl
 */
function reasonPicker(stage, path, ctl) {
  const box = h('fieldset', { class: 'reason-picker', dataset: { field: `${path}.reasons` } });
  const fill = () => {
    const reasons = ctl.model.stageReasons.filter((r) => r.key.trim() !== '');
    const known = new Set(reasons.map((r) => r.key));
    const unknown = stage.reasons.filter((k) => !known.has(k));
    box.replaceChildren(h('legend', {}, 'Reasons'));
    if (reasons.length === 0 && unknown.length === 0) {
      box.append(h('p', { class: 'muted small-text' }, 'No stage reasons yet: add them to the catalog below.'));
    }
    for (const reason of reasons) {
      const input = h('input', { type: 'checkbox', checked: stage.reasons.includes(reason.key) });
      input.addEventListener('change', () => {
        stage.reasons = input.checked ? [...stage.reasons, reason.key] : stage.reasons.filter((k) => k !== reason.key);
        ctl.dirty();
      });
      const text = reason.label.trim() || reason.key;
      box.append(
        h(
          'label',
          { class: `chip${reason.isArchived ? ' archived' : ''}`, title: `Key: ${reason.key}` },
          input,
          ' ',
          text,
          reason.isArchived ? ' (archived)' : '',
        ),
      );
    }
    for (const key of unknown) {
      box.append(
        h('span', { class: 'chip missing', title: 'This key is not in the catalog' }, key, ' (not in catalog)'),
      );
    }
  };
  fill();
  ctl.pickers.push(fill);
  return box;
}

/**
 * @param {PipelineDraft} pipeline
 * @param {number} stageIndex
 * @param {number} pIndex
 * @param {EditorControl} ctl
 */
function stageEditor(pipeline, stageIndex, pIndex, ctl) {
  const stage = /** @type {StageDraft} */ (pipeline.stages[stageIndex]);
  const path = `pipelines[${pIndex}].stages[${stageIndex}]`;
  const state = h(
    'select',
    { dataset: { field: `${path}.state` } },
    Object.entries(labels('Stage.state')).map(([s, label]) =>
      h('option', { value: s, selected: stage.state === s }, label),
    ),
  );
  state.addEventListener('change', () => {
    stage.state = state.value;
    ctl.dirty();
  });
  return h(
    'fieldset',
    { class: `stage${stage.isArchived ? ' is-archived' : ''}`, dataset: { field: path } },
    h('legend', {}, `Stage ${stageIndex + 1}`),
    h(
      'div',
      { class: 'stage-head' },
      stage.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      entryToolbar('stage', pipeline.stages, stageIndex, ctl),
    ),
    h(
      'div',
      { class: 'stage-grid' },
      field(
        'Stage name',
        boundInput(stage, 'name', `${path}.name`, ctl, {
          maxlength: limit('PipelineConfigurationInput.pipelines[].stages[].name'),
        }),
      ),
      field('State', state),
      field(
        'Closure %',
        boundInput(stage, 'closure', `${path}.closure`, ctl, {
          type: 'number',
          min: limit('PipelineConfigurationInput.pipelines[].stages[].closure', 'minimum'),
          max: limit('PipelineConfigurationInput.pipelines[].stages[].closure', 'maximum'),
          step: 'any',
          class: 'short',
        }),
      ),
      field(
        'Decay (hours)',
        boundInput(stage, 'decayThresholdHours', `${path}.decayThresholdHours`, ctl, {
          type: 'number',
          min: limit('PipelineConfigurationInput.pipelines[].stages[].decayThresholdHours', 'minimum'),
          step: 'any',
          class: 'short',
        }),
      ),
      field('Labels', boundInput(stage, 'labels', `${path}.labels`, ctl, { placeholder: 'Comma-separated' })),
    ),
    reasonPicker(stage, path, ctl),
    requiredReasonToggle(stage, path, ctl),
  );
}

/** Issue 39: lost-reason figures can be trusted only if a lead cannot reach the stage without one. */
/**
 * @param {StageDraft} stage
 * @param {string} path
 * @param {EditorControl} ctl
 */
function requiredReasonToggle(stage, path, ctl) {
  const input = h('input', {
    type: 'checkbox',
    checked: stage.requiresReason,
    dataset: { field: `${path}.requiresReason` },
  });
  input.addEventListener('change', () => {
    stage.requiresReason = input.checked;
    ctl.dirty();
  });
  return h(
    'div',
    { class: 'field checkbox' },
    h('label', {}, input, ' Require at least one reason for leads in this stage'),
  );
}

/**
 * @param {number} index
 * @param {EditorControl} ctl
 */
function pipelineEditor(index, ctl) {
  const list = ctl.model.pipelines;
  const pipeline = /** @type {PipelineDraft} */ (list[index]);
  const path = `pipelines[${index}]`;
  const primary = h('input', {
    type: 'checkbox',
    checked: pipeline.isPrimary,
    dataset: { field: `${path}.isPrimary` },
  });
  primary.addEventListener('change', () => {
    // At most one primary pipeline: choosing one clears the others.
    for (const p of list) p.isPrimary = false;
    pipeline.isPrimary = primary.checked;
    ctl.rebuild();
    focusEntry(`${path}.isPrimary`);
  });
  const addStage = h('button', { type: 'button', class: 'secondary' }, '+ Add stage');
  addStage.addEventListener('click', () =>
    addAndFocus(
      ctl,
      () => pipeline.stages.push(newStage(pipeline.stages.length === 0)),
      `${path}.stages[${pipeline.stages.length}]`,
    ),
  );
  return h(
    'fieldset',
    { class: `pipeline${pipeline.isArchived ? ' is-archived' : ''}`, dataset: { field: path } },
    h('legend', {}, `Pipeline ${index + 1}`),
    h(
      'div',
      { class: 'pipeline-head' },
      h(
        'div',
        { class: 'badges' },
        pipeline.isPrimary ? h('span', { class: 'badge badge-ok' }, 'Primary') : null,
        pipeline.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
        pipeline.id ? null : h('span', { class: 'badge badge-new' }, 'Not saved yet'),
      ),
      entryToolbar(
        'pipeline',
        list,
        index,
        ctl,
        pipeline.isPrimary ? 'The primary pipeline cannot be archived: make another pipeline primary first.' : null,
      ),
    ),
    h(
      'div',
      { class: 'pipeline-grid' },
      field(
        'Pipeline name',
        boundInput(pipeline, 'name', `${path}.name`, ctl, {
          maxlength: limit('PipelineConfigurationInput.pipelines[].name'),
        }),
      ),
      field(
        'Description',
        boundInput(pipeline, 'description', `${path}.description`, ctl, {
          placeholder: 'Optional',
          maxlength: limit('PipelineConfigurationInput.pipelines[].description'),
        }),
      ),
      h('div', { class: 'field checkbox' }, h('label', {}, primary, ' Primary pipeline (default for new leads)')),
    ),
    h(
      'div',
      { class: 'stages', dataset: { field: `${path}.stages` } },
      pipeline.stages.length === 0 ? h('p', { class: 'muted' }, 'No stages yet.') : null,
      pipeline.stages.map((_, j) => stageEditor(pipeline, j, index, ctl)),
    ),
    h('div', { class: 'row-actions' }, addStage),
  );
}

/** @param {EditorControl} ctl */
export function renderPipelineList(ctl) {
  const add = h('button', { type: 'button', class: 'secondary' }, '+ Add pipeline');
  add.addEventListener('click', () =>
    addAndFocus(
      ctl,
      () => ctl.model.pipelines.push(newPipeline(ctl.model.pipelines.length === 0)),
      `pipelines[${ctl.model.pipelines.length}]`,
    ),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'pipelines-title', dataset: { field: 'pipelines' } },
    h('div', { class: 'card-head' }, h('h2', { id: 'pipelines-title' }, 'Pipelines and stages'), add),
    ctl.model.pipelines.length === 0
      ? h(
          'div',
          { class: 'empty' },
          h('p', {}, 'No pipeline yet. Add one to describe how leads move through your sales process.'),
        )
      : ctl.model.pipelines.map((_, i) => pipelineEditor(i, ctl)),
  );
}
