// @ts-check
// Lead settings: the configuration lead writes resolve against (leads-interface 2.5 and 7): lead
// sources, tags, members, lead custom fields, and the business's time zone. One tab per list.
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { actionButton, confirmAction, errorBanner, field, h, mount, toast } from './dom.js';
import { clearFieldErrors, showFieldErrors } from './field-errors.js';
import { listEditor } from './list-editor.js';
// Lead custom fields follow the business's customFieldsEnabled, as client custom fields do (leads-interface 2.5).
import { enabledNotice } from './view-custom-fields.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./list-editor.js').ListEditor} ListEditor
 */
/**
 * The lists as the operator API answers them, and each as its editor's row.
 * @typedef {import('./dashboard-types.js').OperatorSchemas['LeadSource']} LeadSource
 * @typedef {import('./dashboard-types.js').OperatorSchemas['Tag']} Tag
 * @typedef {import('./dashboard-types.js').OperatorSchemas['Member']} Member
 * @typedef {import('./dashboard-types.js').OperatorSchemas['CustomFieldDefinition']} LeadCustomField
 * @typedef {{ key: string, label: string, isArchived: boolean, saved: boolean }} SourceRow
 * @typedef {{ id?: string, name: string, isArchived: boolean }} TagRow
 * @typedef {{ email: string, name: string, isArchived: boolean, saved: boolean }} MemberRow
 * @typedef {{ id?: string, name: string, type: string, options: string, isArchived: boolean }} FieldRow
 */

/** @type {[string, string][]} */
const FIELD_TYPES = [
  ['TEXT', 'Text'],
  ['NUMBER', 'Number'],
  ['DATE', 'Date (YYYY-MM-DD)'],
  ['BOOLEAN', 'Yes / no'],
  ['SELECT', 'Choice from a list'],
];
const archived = (/** @type {{ isArchived?: boolean }} */ item) => Boolean(item.isArchived);
const KEY_LENGTH = 64;

/**
 * A source key from its label (defect 12): A-Z, 0-9 and _, as the server takes keys; "Trade fair" → TRADE_FAIR.
 * @param {string} label
 */
export function keyOfLabel(label) {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, KEY_LENGTH);
}

/**
 * `base`, or base_2, base_3, … : the first not in `taken` (keys are unique within the business).
 * @param {string} base
 * @param {Set<string>} taken
 */
function uniqueKey(base, taken) {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, KEY_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * While a new source's label is typed, its key follows (derived, unique among the list's keys) until the
 * operator edits the key by hand; a saved key is read-only and never follows. Listens on the editor, so
 * the shared list editor needs no hook.
 * @param {HTMLElement} element
 */
function deriveSourceKeys(element) {
  const keyInput = (/** @type {HTMLInputElement} */ label) =>
    /** @type {HTMLInputElement | null} */ (
      element.querySelector(
        `input[data-field="${CSS.escape((label.dataset.field ?? '').replace(/\.label$/, '.key'))}"]`,
      )
    );
  element.addEventListener('input', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement) || !event.isTrusted) return;
    if (!(target.dataset.field ?? '').endsWith('.label')) return;
    const key = keyInput(target);
    // A key typed by hand (neither empty nor the one derived last) is the operator's: left alone.
    if (!key || key.readOnly || (key.value !== '' && key.dataset.derived !== key.value)) return;
    const taken = new Set(
      [...element.querySelectorAll('input[data-field$=".key"]')]
        .filter((i) => i instanceof HTMLInputElement)
        .filter((i) => i !== key)
        .map((i) => i.value.trim()),
    );
    const base = keyOfLabel(target.value);
    key.value = base === '' ? '' : uniqueKey(base, taken);
    key.dataset.derived = key.value;
    key.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/**
 * @param {string} base
 * @param {Ctx} ctx
 */
function editors(base, ctx) {
  return {
    sources: listEditor(
      /** @satisfies {import('./list-editor.js').ListSpec<SourceRow>} */ ({
        title: 'Lead sources',
        noun: 'source',
        listKey: 'sources',
        path: `${base}/lead-sources`,
        saved: 'Lead sources saved.',
        intro:
          'Where leads come from. Apps send the key or the label; leads keep the key, so a saved key cannot change. ' +
          'A new source’s key is made from its label; change it before saving if you like.',
        empty: 'No lead source. Leads can then carry none.',
        columns: [
          { key: 'label', label: 'Label', attrs: { maxlength: limit('LeadSourceInput.label') } },
          {
            key: 'key',
            label: 'Key',
            lockedOnceSaved: true,
            attrs: { maxlength: limit('LeadSourceInput.key'), class: 'mono upper', placeholder: 'e.g. TRADE_FAIR' },
          },
        ],
        fromServer: (data) =>
          (data?.sources ?? []).map((/** @type {LeadSource} */ s) => ({
            key: s.key,
            label: s.label,
            isArchived: archived(s),
            saved: true,
          })),
        toBody: (items) => ({
          sources: items.map((s) => ({ key: s.key.trim().toUpperCase(), label: s.label, isArchived: s.isArchived })),
        }),
        blank: () => ({ key: '', label: '', isArchived: false, saved: false }),
        isSaved: (item) => item.saved,
      }),
    ),
    tags: listEditor(
      /** @satisfies {import('./list-editor.js').ListSpec<TagRow>} */ ({
        title: 'Tags',
        noun: 'tag',
        listKey: 'tags',
        path: `${base}/tags`,
        saved: 'Tags saved.',
        intro: 'Labels leads can carry. A renamed tag stays on its leads.',
        empty: 'No tag yet.',
        columns: [{ key: 'name', label: 'Tag name', attrs: { maxlength: limit('TagInput.name') } }],
        fromServer: (data) =>
          (data?.tags ?? []).map((/** @type {Tag} */ t) => ({ id: t.id, name: t.name, isArchived: archived(t) })),
        toBody: (items) => ({
          tags: items.map((t) => ({ ...(t.id ? { id: t.id } : {}), name: t.name, isArchived: t.isArchived })),
        }),
        blank: () => ({ name: '', isArchived: false }),
        isSaved: (item) => Boolean(item.id),
      }),
    ),
    members: listEditor(
      /** @satisfies {import('./list-editor.js').ListSpec<MemberRow>} */ ({
        title: 'Members',
        noun: 'member',
        listKey: 'members',
        path: `${base}/members`,
        saved: 'Members saved.',
        intro:
          'People leads can be assigned to, known by e-mail. An archived member keeps their leads but gets no new ones.',
        empty: 'No member yet: leads cannot be assigned.',
        columns: [
          { key: 'name', label: 'Name', attrs: { maxlength: limit('MemberInput.name') } },
          {
            key: 'email',
            label: 'E-mail',
            type: 'email',
            lockedOnceSaved: true,
            attrs: { maxlength: limit('MemberInput.email') },
          },
        ],
        fromServer: (data) =>
          (data?.members ?? []).map((/** @type {Member} */ m) => ({
            email: m.email,
            name: m.name,
            isArchived: archived(m),
            saved: true,
          })),
        toBody: (items) => ({
          members: items.map((m) => ({ email: m.email.trim(), name: m.name, isArchived: m.isArchived })),
        }),
        blank: () => ({ email: '', name: '', isArchived: false, saved: false }),
        isSaved: (item) => item.saved,
      }),
    ),
    fields: listEditor(
      /** @satisfies {import('./list-editor.js').ListSpec<FieldRow>} */ ({
        title: 'Lead custom fields',
        noun: 'field',
        listKey: 'fields',
        notice: enabledNotice(ctx),
        path: `${base}/lead-custom-fields`,
        saved: 'Lead custom fields saved.',
        intro: 'Extra fields of leads, apart from the client custom fields. A renamed field keeps its values.',
        empty: 'No lead custom field yet.',
        columns: [
          { key: 'name', label: 'Field name', attrs: { maxlength: limit('LeadCustomFieldsInput.fields[].name') } },
          { key: 'type', label: 'Type', type: 'select', choices: FIELD_TYPES },
          {
            key: 'options',
            label: 'Options',
            when: (f) => f.type === 'SELECT',
            attrs: { placeholder: 'Comma-separated, e.g. Gold, Silver' },
          },
        ],
        fromServer: (data) =>
          (data ?? []).map((/** @type {LeadCustomField} */ d) => ({
            id: d.id,
            name: d.name,
            type: d.type,
            options: (d.options ?? []).join(', '),
            isArchived: archived(d),
          })),
        toBody: (items) => ({
          fields: items.map((f) => ({
            ...(f.id ? { id: f.id } : {}),
            name: f.name,
            type: f.type,
            ...(f.type === 'SELECT'
              ? {
                  options: f.options
                    .split(',')
                    .map((o) => o.trim())
                    .filter(Boolean),
                }
              : {}),
            isArchived: f.isArchived,
          })),
        }),
        blank: () => ({ name: '', type: 'TEXT', options: '', isArchived: false }),
        isSaved: (item) => Boolean(item.id),
      }),
    ),
  };
}

/**
 * @param {Ctx} ctx
 * @returns {ListEditor}
 */
function timeZoneCard(ctx) {
  const business = ctx.business;
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const listId = 'time-zone-list';
  const input = h('input', {
    type: 'text',
    name: 'timeZone',
    list: listId,
    value: business.timeZone ?? '',
    autocomplete: 'off',
    dataset: { field: 'timeZone' },
  });
  const message = h('div');
  const form = h(
    'section',
    { class: 'card form-grid', 'aria-labelledby': 'tz-title' },
    h(
      'div',
      {},
      h('h2', { id: 'tz-title' }, 'Time zone'),
      h(
        'p',
        { class: 'subtitle' },
        `“Today” for follow-up dates is the date in this zone. ${business.name} defaults to its country's zone.`,
      ),
    ),
    message,
    field('Time zone (IANA name)', input, 'For example Asia/Kolkata, Asia/Dubai, Europe/London.'),
    h(
      'datalist',
      { id: listId },
      zones.map((z) => h('option', { value: z })),
    ),
  );
  const save = actionButton(
    'Save time zone',
    async () => {
      mount(message);
      clearFieldErrors(form);
      try {
        await api('PATCH', `/businesses/${seg(business.urlKey)}`, { timeZone: input.value.trim() });
        toast('Time zone saved.');
        await ctx.refreshBusinesses();
      } catch (error) {
        if (error.status === 401) return;
        if (showFieldErrors(form, error.fieldErrors).length || !error.fieldErrors.length)
          mount(message, errorBanner(error.message));
      }
    },
    { class: 'primary' },
  );
  form.append(h('div', { class: 'form-actions' }, save));
  return { element: form, isDirty: () => input.value.trim() !== (business.timeZone ?? ''), load: async () => {} };
}

/** @typedef {'sources' | 'tags' | 'members' | 'fields' | 'timeZone'} Tab */
/** @type {[Tab, string][]} */
const TABS = [
  ['sources', 'Lead sources'],
  ['tags', 'Tags'],
  ['members', 'Members'],
  ['fields', 'Lead custom fields'],
  ['timeZone', 'Time zone'],
];
/** @type {Tab} */
let lastTab = 'sources';

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderLeadSettings(main, ctx) {
  const base = `/businesses/${seg(ctx.business.urlKey)}`;
  /** @type {Record<Tab, ListEditor>} */
  const all = { ...editors(base, ctx), timeZone: timeZoneCard(ctx) };
  deriveSourceKeys(all.sources.element);
  const panel = h('div', { class: 'tab-panel', role: 'region', 'aria-live': 'polite' });
  const tabs = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Lead settings sections' });
  /** @type {Tab | null} */
  let current = null;
  const open = async (/** @type {Tab} */ key) => {
    if (
      current &&
      current !== key &&
      all[current].isDirty() &&
      !(await confirmAction(
        'Discard unsaved changes?',
        'This list has changes that are not saved yet. Switch and lose them?',
        'Discard changes',
        true,
      ))
    )
      return;
    current = key;
    lastTab = key;
    mount(
      tabs,
      TABS.map(([k, label]) =>
        h(
          'button',
          {
            type: 'button',
            class: `tab${k === key ? ' active' : ''}`,
            'aria-pressed': k === key ? 'true' : 'false',
            onclick: () => open(k),
          },
          label,
        ),
      ),
    );
    panel.setAttribute('aria-label', TABS.find(([k]) => k === key)?.[1] ?? '');
    mount(panel, all[key].element);
    try {
      await all[key].load();
    } catch (error) {
      if (error.status !== 401) mount(panel, errorBanner(error.message));
    }
  };
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Lead settings'),
      h(
        'p',
        { class: 'subtitle' },
        `What leads of ${ctx.business.name} resolve against: apps send these names, never create them.`,
      ),
    ),
    tabs,
    panel,
  );
  ctx.setLeaveGuard(() => Boolean(current && all[current].isDirty()));
  await open(lastTab);
}
