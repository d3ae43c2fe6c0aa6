// @ts-check
// One editor for the lead configuration lists (sources, tags, members, lead custom fields): rows of
// inputs, reorder / archive / remove, saved whole with PUT, errors placed next to the field they name.
// The same pattern as the pipeline and client custom field editors.
import { api } from './api.js';
import { actionButton, confirmAction, errorBanner, field, h, mount, toast } from './dom.js';
import { clearFieldErrors, errorSummary, showFieldErrors } from './field-errors.js';
import { boundInput } from './pipeline-editor.js';
import { move } from './pipeline-model.js';

/** @typedef {{ isArchived: boolean }} ListItem what every list's row carries */

/**
 * One input of a row, bound to item[key].
 * @template {ListItem} T
 * @typedef {object} ListColumn
 * @property {keyof T & string} key
 * @property {string} label
 * @property {'text' | 'email' | 'select'} [type]
 * @property {[string, string][]} [choices] a select's [value, text] pairs
 * @property {(item: T) => boolean} [when] shown only for the items it answers true for
 * @property {Record<string, unknown>} [attrs] the input's attributes (maxlength, placeholder, class …)
 * @property {boolean} [lockedOnceSaved] read-only once the item is saved (a key leads refer to)
 * @property {string} [hint]
 */

/**
 * @template {ListItem} T
 * @typedef {object} ListSpec
 * @property {string} title
 * @property {string} noun
 * @property {HTMLElement | null} [notice]
 * @property {string} listKey the body key; also the error paths' root
 * @property {string} path the API path read with GET and saved with PUT
 * @property {string} intro
 * @property {string} empty
 * @property {string} saved the toast once saved
 * @property {ListColumn<T>[]} columns
 * @property {(data: any) => T[]} fromServer the items of the server's answer (each list's own shape)
 * @property {(items: T[]) => unknown} toBody
 * @property {() => T} blank a new item
 * @property {(item: T) => boolean} isSaved
 */

/**
 * The editor's working copy and the actions on it.
 * @template {ListItem} T
 * @typedef {{ items: T[], isDirty: boolean, dirty: () => void, clean: () => void, rebuild: () => void,
 *   render: () => void }} ListControl
 */

/**
 * @typedef {{ element: HTMLElement, isDirty: () => boolean, load: () => Promise<void> }} ListEditor
 */

/**
 * @template {ListItem} T
 * @param {ListSpec<T>} spec
 * @returns {ListEditor}
 */
export function listEditor(spec) {
  const message = h('div');
  const list = h('div', { class: 'list-rows', dataset: { field: spec.listKey } });
  const status = h('span', { class: 'save-status', 'aria-live': 'polite' }, 'All changes saved');
  /** @type {ListControl<T>} */
  const ctl = {
    items: [],
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
    rebuild() {
      ctl.dirty();
      ctl.render();
    },
    render() {
      mount(
        list,
        ctl.items.length === 0
          ? h('div', { class: 'empty' }, h('p', {}, spec.empty))
          : ctl.items.map((_, i) => row(spec, ctl, i)),
      );
    },
  };
  // Until the saved list has arrived, the editor holds an empty one in its place: Save would replace every
  // saved entry with nothing, and an entry added would vanish when the list arrives. So Add and Save wait
  // for it (and stay off when it fails to load; Discard loads it again).
  const loaded = (/** @type {boolean} */ yes) => {
    add.disabled = !yes;
    save.disabled = !yes;
  };
  const load = async () => {
    loaded(false);
    mount(list, h('p', { class: 'loading', role: 'status' }, `Loading ${spec.noun}s…`));
    ctl.items = spec.fromServer(await api('GET', spec.path));
    ctl.render();
    ctl.clean();
    loaded(true);
  };
  const add = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        ctl.items.push(spec.blank());
        ctl.rebuild();
        /** @type {HTMLInputElement | null} */ (list.querySelector('.list-row:last-child input'))?.focus();
      },
    },
    `+ Add ${spec.noun}`,
  );
  const save = actionButton(
    `Save ${spec.noun}s`,
    async () => {
      mount(message);
      clearFieldErrors(list);
      try {
        ctl.items = spec.fromServer(await api('PUT', spec.path, spec.toBody(ctl.items)));
        ctl.render();
        ctl.clean();
        toast(spec.saved);
      } catch (error) {
        if (error.status === 401) return;
        showFieldErrors(list, error.fieldErrors);
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
      clearFieldErrors(list);
      try {
        await load();
      } catch (error) {
        if (error.status !== 401) mount(message, errorBanner(error.message));
      }
    },
    { class: 'secondary' },
  );
  const titleId = `${spec.listKey}-title`;
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': titleId },
    h(
      'div',
      { class: 'card-head' },
      h('div', {}, h('h2', { id: titleId }, spec.title), h('p', { class: 'subtitle' }, spec.intro)),
      add,
    ),
    spec.notice ?? null,
    message,
    list,
    h('div', { class: 'card-foot' }, status, h('div', { class: 'save-actions' }, discard, save)),
  );
  return { element, isDirty: () => ctl.isDirty, load };
}

/**
 * @template {ListItem} T
 * @param {ListSpec<T>} spec
 * @param {ListControl<T>} ctl
 * @param {T} item
 * @param {ListColumn<T>} column
 * @param {string} path
 */
function control(spec, ctl, item, column, path) {
  if (column.type === 'select') {
    const select = h(
      'select',
      { dataset: { field: path } },
      (column.choices ?? []).map(([value, text]) => h('option', { value, selected: item[column.key] === value }, text)),
    );
    select.addEventListener('change', () => {
      /** @type {Record<string, unknown>} */ (item)[column.key] = select.value;
      ctl.rebuild();
    });
    return select;
  }
  const locked = column.lockedOnceSaved && spec.isSaved(item);
  return boundInput(item, column.key, path, ctl, {
    type: column.type ?? 'text',
    readonly: locked,
    ...(column.attrs ?? {}),
  });
}

/**
 * @template {ListItem} T
 * @param {ListSpec<T>} spec
 * @param {ListControl<T>} ctl
 * @param {number} index
 */
function row(spec, ctl, index) {
  const item = ctl.items[index];
  const path = `${spec.listKey}[${index}]`;
  const noun = spec.noun;
  const saved = spec.isSaved(item);
  /**
   * @param {string} text
   * @param {string} label
   * @param {() => unknown} onclick
   */
  const tool = (text, label, onclick, disabled = false, cls = 'icon') =>
    h(
      'button',
      { type: 'button', class: `secondary small ${cls}`, 'aria-label': label, title: label, disabled, onclick },
      text,
    );
  const structural = (/** @type {() => unknown} */ fn) => () => {
    fn();
    ctl.rebuild();
  };
  const remove = async () => {
    // A saved entry may be on leads: the server refuses to remove it then, and archiving is the way.
    if (
      saved &&
      !(await confirmAction(
        `Remove this ${noun}?`,
        `It disappears when you save. If leads carry it, saving is refused: archive it instead.`,
        `Remove ${noun}`,
        true,
      ))
    )
      return;
    ctl.items.splice(index, 1);
    ctl.rebuild();
  };
  return h(
    'div',
    {
      class: `list-row${item.isArchived ? ' is-archived' : ''}`,
      role: 'group',
      'aria-label': `${spec.noun.charAt(0).toUpperCase()}${spec.noun.slice(1)} ${index + 1}`,
      dataset: { field: path },
    },
    h(
      'div',
      { class: 'list-fields' },
      spec.columns
        .filter((c) => !c.when || c.when(item))
        .map((c) => field(c.label, control(spec, ctl, item, c, `${path}.${c.key}`), c.hint)),
    ),
    h(
      'div',
      { class: 'badges' },
      item.isArchived ? h('span', { class: 'badge badge-muted' }, 'Archived') : null,
      saved ? null : h('span', { class: 'badge badge-new' }, 'Not saved yet'),
    ),
    h(
      'div',
      { class: 'toolbar', role: 'group', 'aria-label': `${noun} actions` },
      tool(
        '↑',
        `Move ${noun} up`,
        structural(() => move(ctl.items, index, -1)),
        index === 0,
      ),
      tool(
        '↓',
        `Move ${noun} down`,
        structural(() => move(ctl.items, index, 1)),
        index === ctl.items.length - 1,
      ),
      tool(
        item.isArchived ? 'Unarchive' : 'Archive',
        `${item.isArchived ? 'Unarchive' : 'Archive'} ${noun}`,
        structural(() => {
          item.isArchived = !item.isArchived;
        }),
        false,
        '',
      ),
      tool('Remove', `Remove ${noun}`, remove, false, 'danger-text'),
    ),
  );
}
