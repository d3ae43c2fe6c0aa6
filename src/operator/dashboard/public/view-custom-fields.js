// @ts-check
// Custom fields of clients: name, type, options for SELECT, archive; saved whole with PUT.
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { actionButton, confirmAction, errorBanner, field, h, mount, toast } from './dom.js';
import { clearFieldErrors, describePath, errorSummary, errorsOf, showFieldErrors } from './field-errors.js';
import { addAndFocus, boundInput, entryToolbar } from './pipeline-editor.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').CustomFieldDefinition} CustomFieldDefinition
 * @typedef {import('./field-errors.js').FieldError} FieldError
 * @typedef {CustomFieldDefinition['type']} FieldType
 */
/**
 * A field as the editor holds it: options as typed (comma-separated), and the type it was saved with.
 * @typedef {{ id?: string, name: string, type: FieldType, savedType: FieldType, options: string, isArchived: boolean }}
 *   FieldRow
 * @typedef {{ fields: FieldRow[], isDirty: boolean, dirty: () => void, clean: () => void, rebuild: () => void,
 *   render: () => void }} FieldsControl
 */

/** @type {[FieldType, string][]} */
const TYPES = [
  ['TEXT', 'Text'],
  ['NUMBER', 'Number'],
  ['DATE', 'Date (YYYY-MM-DD)'],
  ['BOOLEAN', 'Yes / no'],
  ['SELECT', 'Choice from a list'],
];
const TYPE_NAMES = Object.fromEntries(TYPES);

/**
 * @param {CustomFieldDefinition[] | null | undefined} defs
 * @returns {FieldRow[]}
 */
const toModel = (defs) =>
  (defs ?? []).map((d) => ({
    id: d.id,
    name: d.name ?? '',
    type: d.type ?? 'TEXT',
    savedType: d.type ?? 'TEXT',
    options: (d.options ?? []).join(', '),
    isArchived: Boolean(d.isArchived),
  }));

const optionList = (/** @type {string} */ text) =>
  text
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/** @param {FieldRow[]} fields */
function toBody(fields) {
  return {
    fields: fields.map((f) => {
      /** @type {{ id?: string, name?: string, type?: FieldType, options?: string[], isArchived?: boolean }} */
      const body = {};
      if (f.id) body.id = f.id;
      body.name = f.name;
      body.type = f.type;
      if (f.type === 'SELECT') body.options = optionList(f.options);
      body.isArchived = f.isArchived;
      return body;
    }),
  };
}

/**
 * What the page can tell before asking the server, in the words of its own controls.
 * @param {FieldRow[]} fields
 * @returns {FieldError[]}
 */
function pageErrors(fields) {
  return fields.flatMap((f, i) =>
    f.type === 'SELECT' && optionList(f.options).length === 0
      ? [
          {
            field: `fields[${i}].options`,
            code: 'INVALID_FIELD_VALUE',
            message: 'List at least one option, separated by commas.',
          },
        ]
      : [],
  );
}

/**
 * @param {number} index
 * @param {FieldsControl} ctl
 */
function fieldRow(index, ctl) {
  const item = ctl.fields[index];
  const path = `fields[${index}]`;
  const type = h(
    'select',
    { dataset: { field: `${path}.type` } },
    TYPES.map(([value, text]) => h('option', { value, selected: item.type === value }, text)),
  );
  type.addEventListener('change', () => {
    item.type = /** @type {FieldType} */ (type.value);
    ctl.rebuild();
    /** @type {HTMLSelectElement | null} */ (
      document.querySelector(`[data-field="${CSS.escape(`${path}.type`)}"]`)
    )?.focus();
  });
  // A saved field's type is fixed while clients hold values under it (the server counts them).
  const typeHint =
    item.id && item.type !== item.savedType
      ? `Was ${TYPE_NAMES[item.savedType]}. Saving is refused if clients already hold values for this field.`
      : undefined;
  return h(
    'div',
    {
      class: `cf-row${item.isArchived ? ' is-archived' : ''}`,
      role: 'group',
      'aria-label': `Custom field ${index + 1}`,
      dataset: { field: path },
    },
    field(
      'Field name',
      boundInput(item, 'name', `${path}.name`, ctl, { maxlength: limit('CustomFieldsInput.fields[].name') }),
    ),
    field('Type', type, typeHint),
    item.type === 'SELECT'
      ? field(
          'Options',
          boundInput(item, 'options', `${path}.options`, ctl),
          'Separate the options with commas, e.g. Gold, Silver.',
        )
      : h('div', { class: 'field placeholder' }),
    h(
      'div',
      { class: 'badges' },
      item.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      item.id ? null : h('span', { class: 'badge badge-new' }, 'Not saved yet'),
    ),
    entryToolbar('field', ctl.fields, index, ctl),
  );
}

/** @param {Ctx} ctx */
export function enabledNotice(ctx) {
  if (ctx.business.customFieldsEnabled) return null;
  return h(
    'div',
    { class: 'banner banner-info', role: 'note' },
    'Custom fields are turned off for this business: apps cannot send values until they are enabled. ',
    actionButton(
      'Enable custom fields',
      async () => {
        await api('PATCH', `/businesses/${seg(ctx.business.urlKey)}`, { customFieldsEnabled: true });
        toast('Custom fields enabled.');
        await ctx.refreshBusinesses();
      },
      { class: 'secondary small' },
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderCustomFields(main, ctx) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/custom-fields`;
  const message = h('div');
  const list = h(
    'section',
    { class: 'card', 'aria-labelledby': 'cf-title', 'aria-busy': 'true', dataset: { field: 'fields' } },
    h('p', { class: 'loading', role: 'status' }, 'Loading the custom fields…'),
  );
  const status = h('span', { class: 'save-status', 'aria-live': 'polite' }, 'Loading…');
  /** @type {FieldsControl} */
  const ctl = {
    fields: [],
    isDirty: false,
    dirty() {
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
      const add = h('button', { type: 'button', class: 'secondary' }, '+ Add field');
      add.addEventListener('click', () =>
        addAndFocus(
          ctl,
          () => ctl.fields.push({ name: '', type: 'TEXT', savedType: 'TEXT', options: '', isArchived: false }),
          `fields[${ctl.fields.length}]`,
        ),
      );
      mount(
        list,
        h('div', { class: 'card-head' }, h('h2', { id: 'cf-title' }, 'Client custom fields'), add),
        ctl.fields.length === 0
          ? h('div', { class: 'empty' }, h('p', {}, 'No custom field yet. Apps send values keyed by the field name.'))
          : ctl.fields.map((_, i) => fieldRow(i, ctl)),
      );
    },
  };
  const load = async () => {
    ctl.fields = toModel(await api('GET', path));
    ctl.render();
    ctl.clean();
    list.removeAttribute('aria-busy');
    save.disabled = false;
    discard.disabled = false;
  };
  // "fields[2].type" → "Field “Score” › type": the summary names the field being edited.
  const describe = (/** @type {string} */ at) =>
    describePath(at).replace(/^Field (\d+)/, (whole, n) => {
      const name = ctl.fields[Number(n) - 1]?.name.trim();
      return name ? `Field “${name}”` : whole;
    });
  const showErrors = (/** @type {string} */ summary, /** @type {FieldError[]} */ errors) => {
    showFieldErrors(list, errors);
    mount(message, errorSummary(summary, errors.length ? errors : [{ message: summary }], describe));
  };
  const save = actionButton(
    'Save custom fields',
    async () => {
      mount(message);
      clearFieldErrors(list);
      const local = pageErrors(ctl.fields);
      if (local.length) return showErrors(local[0].message, local);
      try {
        ctl.fields = toModel(await api('PUT', path, toBody(ctl.fields)));
        ctl.render();
        ctl.clean();
        toast('Custom fields saved.');
      } catch (error) {
        if (error.status !== 401) showErrors(error.message, errorsOf(error));
      }
    },
    { class: 'primary', disabled: true },
  );
  const discard = actionButton(
    'Discard changes',
    async () => {
      if (
        ctl.isDirty &&
        !(await confirmAction(
          'Discard changes?',
          'Go back to the saved custom fields? The edits made since the last save are lost.',
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
    },
    { class: 'secondary', disabled: true },
  );
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Custom fields'),
      h(
        'p',
        { class: 'subtitle' },
        `Extra client fields of ${ctx.business.name}. A renamed field keeps its stored values; its type cannot change once clients hold values.`,
      ),
    ),
    enabledNotice(ctx),
    message,
    list,
    h(
      'div',
      { class: 'save-bar', role: 'region', 'aria-label': 'Save custom fields' },
      status,
      h('div', { class: 'save-actions' }, discard, save),
    ),
  );
  ctx.setLeaveGuard(() => ctl.isDirty);
  await load();
}
