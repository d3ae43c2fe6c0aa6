// @ts-check
// Pipelines page: loads the configuration, edits a working copy, saves it whole with PUT,
// and shows validation errors next to the fields they name.
import { api, seg } from './api.js';
import { confirmAction, errorBanner, h, mount, toast } from './dom.js';
import { clearFieldErrors, describePath, errorSummary, errorsOf, showFieldErrors } from './field-errors.js';
import { toBody, toModel } from './pipeline-model.js';
import { renderPipelineList } from './pipeline-editor.js';
import { renderReasonCatalog } from './reason-catalog.js';

/** @typedef {import('./field-errors.js').FieldError} FieldError */

/** "pipelines[0].stages[1].closure" → "Pipeline “Sales” › stage “Won” › closure", by the names being edited. */
/** @param {import('./pipeline-model.js').Model} model */
function describeIn(model) {
  /** @type {(kind: string, n: number, name: string | undefined) => string} */
  const named = (kind, n, name) => (name?.trim() ? `${kind} “${name.trim()}”` : `${kind} ${n + 1}`);
  return (/** @type {string} */ path) => {
    const p = /^pipelines\[(\d+)\](?:\.stages\[(\d+)\])?(.*)$/.exec(path ?? '');
    if (p) {
      const pipeline = model.pipelines[Number(p[1])];
      const stage = p[2] === undefined ? null : pipeline?.stages[Number(p[2])];
      const head = named('Pipeline', Number(p[1]), pipeline?.name);
      return `${head}${p[2] === undefined ? '' : ` › ${named('stage', Number(p[2]), stage?.name)}`}${describePath(p[3]).replace(/^ › /, ' › ')}`;
    }
    const r = /^stageReasons\[(\d+)\](.*)$/.exec(path ?? '');
    if (r) return `${named('Reason', Number(r[1]), model.stageReasons[Number(r[1])]?.label)}${describePath(r[2])}`;
    return describePath(path);
  };
}

/**
 * @param {HTMLElement} main
 * @param {import('./dashboard-types.js').ViewContext & { business: import('./dashboard-types.js').Business }} ctx
 */
export async function renderPipelines(main, ctx) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/pipelines`;
  const message = h('div', { class: 'messages' });
  const editor = h(
    'div',
    { class: 'editor', 'aria-busy': 'true' },
    h('p', { class: 'loading', role: 'status' }, 'Loading the pipeline configuration…'),
  );
  const status = h('span', { class: 'save-status', 'aria-live': 'polite' }, 'Loading…');
  // Nothing to save or discard before the configuration has arrived.
  const save = h('button', { type: 'button', class: 'primary', disabled: true }, 'Save configuration');
  const discard = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Discard changes');

  /** @type {import('./pipeline-editor.js').EditorControl} */
  const ctl = {
    model: toModel(null), // the configuration once loaded
    editor,
    isDirty: false,
    pickers: [],
    dirty() {
      if (ctl.isDirty) return;
      ctl.isDirty = true;
      status.textContent = 'Unsaved changes';
      status.classList.add('dirty');
    },
    clean() {
      ctl.isDirty = false;
      status.textContent = 'All changes saved';
      status.classList.remove('dirty');
    },
    /** A structural change renumbers rows: errors shown for the old numbering no longer apply. */
    rebuild() {
      mount(message);
      ctl.dirty();
      ctl.render();
    },
    render() {
      ctl.pickers = [];
      mount(editor, renderPipelineList(ctl), renderReasonCatalog(ctl));
    },
    refreshPickers() {
      for (const fill of ctl.pickers) fill();
    },
  };

  const load = async () => {
    const data = await api('GET', path);
    ctl.model = toModel(Array.isArray(data) ? data[0] : data);
    ctl.render();
    ctl.clean();
    editor.removeAttribute('aria-busy');
    save.disabled = false;
    discard.disabled = false;
  };

  save.addEventListener('click', async () => {
    save.disabled = true;
    mount(message);
    clearFieldErrors(editor);
    try {
      const data = await api('PUT', path, toBody(ctl.model));
      ctl.model = toModel(Array.isArray(data) ? data[0] : data);
      ctl.render();
      ctl.clean();
      toast('Pipeline configuration saved.');
    } catch (error) {
      if (error.status === 401) return;
      const errors = errorsOf(error);
      const unplaced = showFieldErrors(editor, errors);
      mount(
        message,
        errorSummary(
          error.message,
          errors.length ? errors : [/** @type {FieldError} */ ({ message: error.message })],
          describeIn(ctl.model),
        ),
      );
      if (unplaced.length === errors.length) message.scrollIntoView({ block: 'start' });
    } finally {
      save.disabled = false;
    }
  });
  discard.addEventListener('click', async () => {
    if (
      ctl.isDirty &&
      !(await confirmAction(
        'Discard changes?',
        'Go back to the saved configuration? The edits made since the last save are lost.',
        'Discard changes',
        true,
      ))
    )
      return;
    mount(message);
    try {
      await load();
      toast('Changes discarded.', 'info');
    } catch (error) {
      if (error.status !== 401) mount(message, errorBanner(error.message));
    }
  });

  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Pipelines'),
      h(
        'p',
        { class: 'subtitle' },
        `Sales pipelines of ${ctx.business.name}. Apps read them from GET /api/v1/businesses/${ctx.business.urlKey}/pipelines.`,
      ),
    ),
    message,
    editor,
    h(
      'div',
      { class: 'save-bar', role: 'region', 'aria-label': 'Save pipeline configuration' },
      status,
      h('div', { class: 'save-actions' }, discard, save),
    ),
  );
  ctx.setLeaveGuard(() => ctl.isDirty);
  try {
    await load();
  } catch (error) {
    editor.removeAttribute('aria-busy');
    status.textContent = 'Not loaded';
    throw error;
  }
}
