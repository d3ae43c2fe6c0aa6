// Renders pipelines and their stages from the working copy. Typing updates the model in place;
// structural actions (add, remove, reorder, archive, primary) change the model and rebuild.
import { field, h } from './dom.js';
import { STATES, move, newPipeline, newStage } from './pipeline-model.js';

const STATE_LABELS = { NEW: 'New', OPEN: 'Open', CLOSED: 'Closed (won)', DROPPED: 'Dropped', REJECTED: 'Rejected' };

/** An input bound to obj[key]; every keystroke updates the model and marks the editor dirty. */
export function boundInput(obj, key, path, ctl, attrs = {}) {
  const input = h('input', { type: 'text', ...attrs, dataset: { field: path } });
  input.value = obj[key];
  input.addEventListener('input', () => { obj[key] = input.value; ctl.dirty(); });
  return input;
}

function toolButton(text, label, onclick, disabled = false, cls = 'icon') {
  return h('button', { type: 'button', class: `secondary small ${cls}`, 'aria-label': label, title: label, disabled, onclick }, text);
}

/** Up, down, archive/unarchive, and remove for entries not saved yet (saved ones are archived instead). */
export function entryToolbar(kind, list, index, ctl) {
  const item = list[index];
  const structural = (fn) => () => { fn(); ctl.rebuild(); };
  const saved = kind === 'reason' ? item.saved : Boolean(item.id);
  return h('div', { class: 'toolbar', role: 'group', 'aria-label': `${kind} actions` },
    toolButton('↑', `Move ${kind} up`, structural(() => move(list, index, -1)), index === 0),
    toolButton('↓', `Move ${kind} down`, structural(() => move(list, index, 1)), index === list.length - 1),
    toolButton(item.isArchived ? 'Unarchive' : 'Archive', `${item.isArchived ? 'Unarchive' : 'Archive'} ${kind}`,
      structural(() => { item.isArchived = !item.isArchived; }), false, ''),
    saved ? null : toolButton('Remove', `Remove ${kind}`, structural(() => list.splice(index, 1)), false, 'danger-text'),
  );
}

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
      box.append(h('label', { class: `chip${reason.isArchived ? ' archived' : ''}`, title: `Key: ${reason.key}` },
        input, ' ', text, reason.isArchived ? ' (archived)' : ''));
    }
    for (const key of unknown) {
      box.append(h('span', { class: 'chip missing', title: 'This key is not in the catalog' }, key, ' (not in catalog)'));
    }
  };
  fill();
  ctl.pickers.push(fill);
  return box;
}

function stageEditor(pipeline, stageIndex, pIndex, ctl) {
  const stage = pipeline.stages[stageIndex];
  const path = `pipelines[${pIndex}].stages[${stageIndex}]`;
  const state = h('select', { dataset: { field: `${path}.state` } },
    STATES.map((s) => h('option', { value: s, selected: stage.state === s }, STATE_LABELS[s])));
  state.addEventListener('change', () => { stage.state = state.value; ctl.dirty(); });
  return h('fieldset', { class: `stage${stage.isArchived ? ' is-archived' : ''}`, dataset: { field: path } },
    h('legend', {}, `Stage ${stageIndex + 1}`),
    h('div', { class: 'stage-head' },
      stage.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      entryToolbar('stage', pipeline.stages, stageIndex, ctl)),
    h('div', { class: 'stage-grid' },
      field('Stage name', boundInput(stage, 'name', `${path}.name`, ctl, { maxlength: 500 })),
      field('State', state),
      field('Closure %', boundInput(stage, 'closure', `${path}.closure`, ctl, { type: 'number', min: 0, max: 100, step: 'any', class: 'short' })),
      field('Decay (hours)', boundInput(stage, 'decayThresholdHours', `${path}.decayThresholdHours`, ctl, { type: 'number', min: 0, step: 'any', class: 'short' })),
      field('Labels', boundInput(stage, 'labels', `${path}.labels`, ctl, { placeholder: 'Comma-separated' })),
    ),
    reasonPicker(stage, path, ctl),
  );
}

function pipelineEditor(index, ctl) {
  const list = ctl.model.pipelines;
  const pipeline = list[index];
  const path = `pipelines[${index}]`;
  const primary = h('input', { type: 'checkbox', checked: pipeline.isPrimary, dataset: { field: `${path}.isPrimary` } });
  primary.addEventListener('change', () => {
    // At most one primary pipeline: choosing one clears the others.
    for (const p of list) p.isPrimary = false;
    pipeline.isPrimary = primary.checked;
    ctl.rebuild();
  });
  const addStage = h('button', { type: 'button', class: 'secondary' }, '+ Add stage');
  addStage.addEventListener('click', () => { pipeline.stages.push(newStage(pipeline.stages.length === 0)); ctl.rebuild(); });
  return h('fieldset', { class: `pipeline${pipeline.isArchived ? ' is-archived' : ''}`, dataset: { field: path } },
    h('legend', {}, `Pipeline ${index + 1}`),
    h('div', { class: 'pipeline-head' },
      h('div', { class: 'badges' },
        pipeline.isPrimary ? h('span', { class: 'badge badge-ok' }, 'Primary') : null,
        pipeline.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
        pipeline.id ? null : h('span', { class: 'badge badge-new' }, 'Not saved yet')),
      entryToolbar('pipeline', list, index, ctl)),
    h('div', { class: 'pipeline-grid' },
      field('Pipeline name', boundInput(pipeline, 'name', `${path}.name`, ctl, { maxlength: 500 })),
      field('Description', boundInput(pipeline, 'description', `${path}.description`, ctl, { placeholder: 'Optional' })),
      h('div', { class: 'field checkbox' }, h('label', {}, primary, ' Primary pipeline (default for new leads)')),
    ),
    h('div', { class: 'stages', dataset: { field: `${path}.stages` } },
      pipeline.stages.length === 0 ? h('p', { class: 'muted' }, 'No stages yet.') : null,
      pipeline.stages.map((_, j) => stageEditor(pipeline, j, index, ctl))),
    h('div', { class: 'row-actions' }, addStage),
  );
}

export function renderPipelineList(ctl) {
  const add = h('button', { type: 'button', class: 'secondary' }, '+ Add pipeline');
  add.addEventListener('click', () => { ctl.model.pipelines.push(newPipeline(ctl.model.pipelines.length === 0)); ctl.rebuild(); });
  return h('section', { class: 'card', 'aria-labelledby': 'pipelines-title', dataset: { field: 'pipelines' } },
    h('div', { class: 'card-head' }, h('h2', { id: 'pipelines-title' }, 'Pipelines and stages'), add),
    ctl.model.pipelines.length === 0
      ? h('div', { class: 'empty' }, h('p', {}, 'No pipeline yet. Add one to describe how leads move through your sales process.'))
      : ctl.model.pipelines.map((_, i) => pipelineEditor(i, ctl)),
  );
}
