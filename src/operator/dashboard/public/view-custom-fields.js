// Custom fields of clients: name, type, options for SELECT, archive; saved whole with PUT.
import { api, seg } from './api.js';
import { actionButton, errorBanner, field, h, mount, toast } from './dom.js';
import { clearFieldErrors, errorSummary, showFieldErrors } from './field-errors.js';
import { boundInput, entryToolbar } from './pipeline-editor.js';

const TYPES = [
  ['TEXT', 'Text'], ['NUMBER', 'Number'], ['DATE', 'Date (YYYY-MM-DD)'], ['BOOLEAN', 'Yes / no'], ['SELECT', 'Choice from a list'],
];

const toModel = (defs) => (defs ?? []).map((d) => ({
  id: d.id, name: d.name ?? '', type: d.type ?? 'TEXT', options: (d.options ?? []).join(', '), isArchived: Boolean(d.isArchived),
}));

function toBody(fields) {
  return {
    fields: fields.map((f) => {
      const body = {};
      if (f.id) body.id = f.id;
      body.name = f.name;
      body.type = f.type;
      if (f.type === 'SELECT') body.options = f.options.split(',').map((o) => o.trim()).filter(Boolean);
      body.isArchived = f.isArchived;
      return body;
    }),
  };
}

function fieldRow(index, ctl) {
  const item = ctl.fields[index];
  const path = `fields[${index}]`;
  const type = h('select', { dataset: { field: `${path}.type` } },
    TYPES.map(([value, text]) => h('option', { value, selected: item.type === value }, text)));
  type.addEventListener('change', () => { item.type = type.value; ctl.rebuild(); });
  return h('div', { class: `cf-row${item.isArchived ? ' is-archived' : ''}`, role: 'group', 'aria-label': `Custom field ${index + 1}`, dataset: { field: path } },
    field('Field name', boundInput(item, 'name', `${path}.name`, ctl, { maxlength: 200 })),
    field('Type', type),
    item.type === 'SELECT'
      ? field('Options', boundInput(item, 'options', `${path}.options`, ctl, { placeholder: 'Comma-separated, e.g. Gold, Silver' }))
      : h('div', { class: 'field placeholder' }),
    h('div', { class: 'badges' },
      item.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      item.id ? null : h('span', { class: 'badge badge-new' }, 'Not saved yet')),
    entryToolbar('field', ctl.fields, index, ctl),
  );
}

export function enabledNotice(ctx) {
  if (ctx.business.customFieldsEnabled) return null;
  return h('div', { class: 'banner banner-info', role: 'note' },
    'Custom fields are turned off for this business: apps cannot send values until they are enabled. ',
    actionButton('Enable custom fields', async () => {
      await api('PATCH', `/businesses/${seg(ctx.business.urlKey)}`, { customFieldsEnabled: true });
      toast('Custom fields enabled.');
      await ctx.refreshBusinesses();
    }, { class: 'secondary small' }));
}

export async function renderCustomFields(main, ctx) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/custom-fields`;
  const message = h('div');
  const list = h('section', { class: 'card', 'aria-labelledby': 'cf-title' });
  const status = h('span', { class: 'save-status', 'aria-live': 'polite' }, 'All changes saved');
  const ctl = {
    fields: [],
    isDirty: false,
    dirty() { ctl.isDirty = true; status.textContent = 'Unsaved changes'; status.classList.add('dirty'); },
    clean() { ctl.isDirty = false; status.textContent = 'All changes saved'; status.classList.remove('dirty'); },
    rebuild() { ctl.dirty(); ctl.render(); },
    render() {
      const add = h('button', { type: 'button', class: 'secondary', onclick: () => { ctl.fields.push({ name: '', type: 'TEXT', options: '', isArchived: false }); ctl.rebuild(); } }, '+ Add field');
      mount(list, h('div', { class: 'card-head' }, h('h2', { id: 'cf-title' }, 'Client custom fields'), add),
        ctl.fields.length === 0
          ? h('div', { class: 'empty' }, h('p', {}, 'No custom field yet. Apps send values keyed by the field name.'))
          : ctl.fields.map((_, i) => fieldRow(i, ctl)));
    },
  };
  const load = async () => { ctl.fields = toModel(await api('GET', path)); ctl.render(); ctl.clean(); };
  const save = actionButton('Save custom fields', async () => {
    mount(message);
    clearFieldErrors(list);
    try {
      ctl.fields = toModel(await api('PUT', path, toBody(ctl.fields)));
      ctl.render();
      ctl.clean();
      toast('Custom fields saved.');
    } catch (error) {
      if (error.status === 401) return;
      showFieldErrors(list, error.fieldErrors);
      mount(message, errorSummary(error.message, error.fieldErrors.length ? error.fieldErrors : [{ message: error.message }]));
    }
  }, { class: 'primary' });
  const discard = actionButton('Discard changes', async () => {
    mount(message);
    try { await load(); } catch (error) { if (error.status !== 401) mount(message, errorBanner(error.message)); }
  }, { class: 'secondary' });
  mount(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Custom fields'),
      h('p', { class: 'subtitle' }, `Extra client fields of ${ctx.business.name}. A renamed field keeps its stored values.`)),
    enabledNotice(ctx),
    message,
    list,
    h('div', { class: 'save-bar', role: 'region', 'aria-label': 'Save custom fields' }, status, h('div', { class: 'save-actions' }, discard, save)),
  );
  ctx.setLeaveGuard(() => ctl.isDirty);
  await load();
}
