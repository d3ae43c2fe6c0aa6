// Pipelines page: loads the configuration, edits a working copy, saves it whole with PUT,
// and shows validation errors next to the fields they name.
import { api, seg } from './api.js';
import { errorBanner, h, mount, toast } from './dom.js';
import { clearFieldErrors, errorSummary, showFieldErrors } from './field-errors.js';
import { toBody, toModel } from './pipeline-model.js';
import { renderPipelineList } from './pipeline-editor.js';
import { renderReasonCatalog } from './reason-catalog.js';

let unsavedGuard = null;

function guardUnload(ctl) {
  if (unsavedGuard) window.removeEventListener('beforeunload', unsavedGuard);
  unsavedGuard = (event) => { if (ctl.isDirty && document.contains(ctl.editor)) event.preventDefault(); };
  window.addEventListener('beforeunload', unsavedGuard);
}

export async function renderPipelines(main, ctx) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/pipelines`;
  const message = h('div', { class: 'messages' });
  const editor = h('div', { class: 'editor' });
  const status = h('span', { class: 'save-status', 'aria-live': 'polite' }, 'All changes saved');
  const save = h('button', { type: 'button', class: 'primary' }, 'Save configuration');
  const discard = h('button', { type: 'button', class: 'secondary' }, 'Discard changes');

  const ctl = {
    model: null,
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
    rebuild() {
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
      const unplaced = showFieldErrors(editor, error.fieldErrors);
      mount(message, errorSummary(error.message, error.fieldErrors.length ? error.fieldErrors : [{ message: error.message }]));
      if (unplaced.length === error.fieldErrors.length) message.scrollIntoView({ block: 'start' });
    } finally {
      save.disabled = false;
    }
  });
  discard.addEventListener('click', async () => {
    mount(message);
    try { await load(); toast('Changes discarded.', 'info'); } catch (error) { if (error.status !== 401) mount(message, errorBanner(error.message)); }
  });

  mount(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Pipelines'),
      h('p', { class: 'subtitle' }, `Sales pipelines of ${ctx.business.name}. Apps read them from GET /api/v1/businesses/${ctx.business.urlKey}/pipelines.`)),
    message,
    editor,
    h('div', { class: 'save-bar', role: 'region', 'aria-label': 'Save pipeline configuration' }, status, h('div', { class: 'save-actions' }, discard, save)),
  );
  guardUnload(ctl);
  ctx.setLeaveGuard(() => ctl.isDirty);
  await load();
}
