// @ts-check
// The lead page's form: every field of a lead (leads-interface 2.1) as a labelled control whose
// data-field is the name the PATCH body (and its errors) use, and the diff that becomes the PATCH.
import { limit } from './api-document.js';
import { dateField } from './date-field.js';
import { checkedValues, field, h, mount } from './dom.js';
import { dateOnly, reasonsOf, STATUS_LABELS } from './lead-config.js';
import { currentLocale } from './locale-format.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').Schemas['LeadPatch']} LeadPatch
 * @typedef {import('./dashboard-types.js').CustomFieldDefinition} CustomFieldDefinition
 * @typedef {{ key: string, control: HTMLInputElement, label: string }} BlockRow
 */

/** @type {[keyof import('./dashboard-types.js').Schemas['LeadCustomerInput'], string][]} */
const CUSTOMER = [
  ['name', 'Customer name'],
  ['phone', 'Phone'],
  ['country', 'Country (ISO code)'],
  ['address', 'Address'],
  ['city', 'City'],
  ['state', 'State'],
  ['pincode', 'Pincode'],
];
/** @type {[keyof import('./dashboard-types.js').Schemas['LeadContactInput'], string][]} */
const CONTACT = [
  ['name', 'Contact name'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['country', 'Country (ISO code)'],
  ['designation', 'Designation'],
];

/**
 * @param {string} path
 * @param {string | null | undefined} value
 * @param {Record<string, unknown>} [attrs]
 */
const text = (path, value, attrs = {}) =>
  h('input', { type: 'text', value: value ?? '', ...attrs, dataset: { field: path } });
/**
 * @param {[string, string][]} pairs [value, label]
 * @param {string} value the selected one
 */
const options = (pairs, value) => pairs.map(([v, label]) => h('option', { value: v, selected: v === value }, label));
/** A select's [value, label] pair. */
const pair = (/** @type {string} */ value, /** @type {string} */ label) =>
  /** @type {[string, string]} */ ([value, label]);
const sameSet = (/** @type {string[]} */ a, /** @type {string[]} */ b) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * @param {CustomFieldDefinition} def
 * @param {unknown} value
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function customControl(def, value) {
  const path = `customFields.${def.name}`;
  const shown = value === undefined || value === null ? '' : String(value);
  if (def.type === 'BOOLEAN')
    return h(
      'select',
      { dataset: { field: path } },
      options(
        [
          ['', 'Not set'],
          ['true', 'Yes'],
          ['false', 'No'],
        ],
        shown,
      ),
    );
  if (def.type === 'SELECT')
    return h(
      'select',
      { dataset: { field: path } },
      options([['', 'Not set'], ...(def.options ?? []).map((o) => pair(o, o))], shown),
    );
  return h('input', {
    type: def.type === 'NUMBER' ? 'number' : def.type === 'DATE' ? 'date' : 'text',
    step: 'any',
    value: shown,
    dataset: { field: path },
  });
}

/**
 * @param {CustomFieldDefinition} def
 * @param {string} raw
 */
function customValue(def, raw) {
  if (raw === '') return null;
  if (def.type === 'NUMBER') return Number(raw);
  if (def.type === 'BOOLEAN') return raw === 'true';
  return raw;
}

/**
 * Builds the form for lead; answers {element, diff()} where diff() is the PATCH body of what changed (or {}).
 * @param {Lead} lead
 * @param {LeadConfig} config
 * @param {Business} business
 * @returns {{ element: HTMLElement, diff: () => LeadPatch }}
 */
export function leadForm(lead, config, business) {
  const details = h('textarea', { rows: 4, maxlength: limit('LeadPatch.details'), dataset: { field: 'details' } });
  details.value = lead.details ?? '';
  /**
   * The live entries, and the one the lead carries even when archived.
   * @template {{ isArchived?: boolean }} T
   * @param {T[]} list
   * @param {string | null} current
   * @param {keyof T} key
   */
  const liveOr = (list, current, key) => list.filter((x) => !x.isArchived || x[key] === current);
  const c = {
    subject: text('subject', lead.subject, { maxlength: limit('LeadPatch.subject') }),
    details,
    amount: h('input', {
      type: 'number',
      min: 0,
      step: 'any',
      value: lead.budget?.amount ?? '',
      dataset: { field: 'budget.amount' },
    }),
    currency: text('budget.currency', lead.budget?.currency, {
      maxlength: 3,
      class: 'short upper',
      placeholder: 'Business currency',
    }),
    followUp: h('input', {
      type: 'date',
      value: dateOnly(lead.followUpDate) ?? '',
      dataset: { field: 'followUpDate' },
    }),
    source: h(
      'select',
      { dataset: { field: 'leadSource' } },
      options(
        [['', 'None'], ...liveOr(config.sources, lead.leadSource, 'key').map((s) => pair(s.key, s.label))],
        lead.leadSource ?? '',
      ),
    ),
    assignee: h(
      'select',
      { dataset: { field: 'assignedTo' } },
      options(
        [
          ['', 'Unassigned'],
          ...liveOr(config.members, lead.assignedTo, 'email').map((m) => pair(m.email, `${m.name} (${m.email})`)),
        ],
        lead.assignedTo ?? '',
      ),
    ),
    pipeline: h(
      'select',
      { dataset: { field: 'pipeline' } },
      options(
        liveOr(config.pipelines, lead.pipeline, 'name').map((p) => pair(p.name, p.name)),
        lead.pipeline,
      ),
    ),
    stage: h('select', { dataset: { field: 'stage' } }),
  };
  const reasonsBox = h('fieldset', { class: 'reason-picker', dataset: { field: 'stageReasons' } });
  const fillStages = () => {
    const pipeline = config.pipelines.find((p) => p.name === c.pipeline.value);
    const stages = (pipeline?.stages ?? []).filter(
      (s) => !s.isArchived || (s.name === lead.stage && pipeline?.name === lead.pipeline),
    );
    c.stage.replaceChildren(
      ...options(
        stages.map((s) =>
          pair(s.name, s.name === STATUS_LABELS[s.state] ? s.name : `${s.name} (${STATUS_LABELS[s.state] ?? s.state})`),
        ),
        c.stage.value || lead.stage,
      ),
    );
    fillReasons();
  };
  const fillReasons = () => {
    const pipeline = config.pipelines.find((p) => p.name === c.pipeline.value);
    const stage = pipeline?.stages.find((s) => s.name === c.stage.value);
    const offered = reasonsOf(config, stage);
    const keep = c.stage.value === lead.stage ? lead.stageReasons : [];
    // mount(), not replaceChildren(): the DOM would write the null and the list of labels out as text.
    mount(
      reasonsBox,
      h('legend', {}, 'Stage reasons'),
      offered.length === 0 ? h('p', { class: 'muted small-text' }, 'This stage offers no reasons.') : null,
      offered.map((r) =>
        h(
          'label',
          { class: 'chip' },
          h('input', { type: 'checkbox', value: r.label, checked: keep.includes(r.label) }),
          ' ',
          r.label,
        ),
      ),
    );
  };
  c.pipeline.addEventListener('change', () => {
    c.stage.value = '';
    fillStages();
  });
  c.stage.addEventListener('change', fillReasons);
  fillStages();
  const tagsBox = h(
    'fieldset',
    { class: 'reason-picker', dataset: { field: 'tags' } },
    h('legend', {}, 'Tags'),
    config.tags.length === 0
      ? h('p', { class: 'muted small-text' }, 'No tag configured (Lead settings › Tags).')
      : null,
    liveOr(config.tags, null, 'name')
      .concat(config.tags.filter((t) => t.isArchived && lead.tags.includes(t.name)))
      .map((t) =>
        h(
          'label',
          { class: 'chip' },
          h('input', { type: 'checkbox', value: t.name, checked: lead.tags.includes(t.name) }),
          ' ',
          t.name,
        ),
      ),
  );
  const custom = (business.customFieldsEnabled ? config.fields : [])
    .filter((d) => !d.isArchived)
    .map((def) => ({ def, control: customControl(def, lead.customFields?.[def.name]) }));
  const editable = lead.status === 'NEW' || lead.status === 'OPEN';
  /**
   * @param {'customer' | 'contact'} key
   * @param {[string, string][]} rows
   * @returns {BlockRow[]}
   */
  const block = (key, rows) =>
    rows.map(([k, label]) => ({
      key: k,
      control: text(`${key}.${k}`, /** @type {Record<string, string | undefined>} */ (lead[key])[k], {
        readonly: !editable,
      }),
      label,
    }));
  const customer = block('customer', CUSTOMER);
  const contact = block('contact', CONTACT);

  const element = h(
    'div',
    { class: 'lead-form' },
    h(
      'section',
      { class: 'card form-grid two-up', 'aria-labelledby': 'lead-main-title' },
      h('h2', { id: 'lead-main-title' }, 'Lead'),
      field('Subject', c.subject),
      field('Details', c.details),
      field('Budget amount', c.amount),
      field('Budget currency', c.currency),
      dateField('Follow-up date', c.followUp, currentLocale(), "Not before today in the business's time zone.").element,
      field('Lead source', c.source),
      field('Assigned to', c.assignee),
    ),
    h(
      'section',
      { class: 'card form-grid two-up', 'aria-labelledby': 'lead-stage-title' },
      h('h2', { id: 'lead-stage-title' }, 'Stage and tags'),
      field('Pipeline', c.pipeline),
      field('Stage', c.stage),
      reasonsBox,
      tagsBox,
    ),
    custom.length
      ? h(
          'section',
          { class: 'card form-grid two-up', 'aria-labelledby': 'lead-cf-title', dataset: { field: 'customFields' } },
          h('h2', { id: 'lead-cf-title' }, 'Custom fields'),
          custom.map(({ def, control }) =>
            def.type === 'DATE' && control instanceof HTMLInputElement
              ? dateField(def.name, control, currentLocale()).element
              : field(def.name, control),
          ),
        )
      : null,
    /** @type {['customer' | 'contact', string, BlockRow[]][]} */ ([
      ['customer', 'Customer', customer],
      ['contact', 'Contact', contact],
    ]).map(([key, title, rows]) =>
      h(
        'section',
        { class: 'card form-grid two-up', 'aria-labelledby': `lead-${key}-title`, dataset: { field: key } },
        h('h2', { id: `lead-${key}-title` }, title),
        editable ? null : h('p', { class: 'muted small-text' }, 'Editable only while the lead is New or Open.'),
        rows.map((r) => field(r.label, r.control)),
      ),
    ),
  );

  const diff = () => {
    /** @type {LeadPatch} */
    const body = {};
    /**
     * @param {'subject' | 'details' | 'followUpDate' | 'leadSource' | 'assignedTo'} key
     * @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} control
     * @param {string | null | undefined} old
     */
    const str = (key, control, old) => {
      const v = control.value.trim();
      if (v !== (old ?? '')) body[key] = v === '' ? null : v;
    };
    str('subject', c.subject, lead.subject);
    str('details', c.details, lead.details);
    str('followUpDate', c.followUp, dateOnly(lead.followUpDate));
    str('leadSource', c.source, lead.leadSource);
    str('assignedTo', c.assignee, lead.assignedTo);
    const amount = c.amount.value.trim();
    const currency = c.currency.value.trim().toUpperCase();
    if (amount === '' && lead.budget) body.budget = null;
    else if (
      amount !== '' &&
      (Number(amount) !== lead.budget?.amount || (currency && currency !== lead.budget?.currency))
    ) {
      body.budget = { amount: Number(amount), ...(currency ? { currency } : {}) };
    }
    if (c.pipeline.value !== lead.pipeline) Object.assign(body, { pipeline: c.pipeline.value, stage: c.stage.value });
    else if (c.stage.value !== lead.stage) body.stage = c.stage.value;
    const reasons = checkedValues(reasonsBox);
    if (body.stage ? reasons.length > 0 : !sameSet(reasons, lead.stageReasons)) body.stageReasons = reasons;
    const tags = checkedValues(tagsBox);
    if (!sameSet(tags, lead.tags)) body.tags = tags;
    for (const { def, control } of custom) {
      const value = customValue(def, control.value.trim());
      if (value !== (lead.customFields?.[def.name] ?? null)) (body.customFields ??= {})[def.name] = value;
    }
    for (const [key, rows] of /** @type {['customer' | 'contact', BlockRow[]][]} */ ([
      ['customer', customer],
      ['contact', contact],
    ])) {
      if (!editable) continue;
      const before = /** @type {Record<string, string | undefined>} */ (lead[key]);
      for (const r of rows) {
        const v = r.control.value.trim();
        if (v !== (before[r.key] ?? ''))
          /** @type {Record<string, string | null>} */ ((body[key] ??= {}))[r.key] = v === '' ? null : v;
      }
    }
    return body;
  };
  return { element, diff };
}
