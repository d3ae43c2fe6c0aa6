// @ts-check
// A lead's activity timeline (leads-interface 2.6, read through 4.5) and the form that adds a
// comment (seen by every party) or an internal note (the business only).
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { errorBanner, field, formatDate, h, mount, toast } from './dom.js';
import { describeChange } from './field-change.js';
import { clearFieldErrors, showFieldErrors } from './field-errors.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./field-change.js').FieldChange} FieldChange
 */
/**
 * An activity entry as GET …/leads/:leadId/activities answers it; `changes` is the page's own: the
 * FIELD_CHANGE entries of one edit, grouped (groupEdits).
 * @typedef {import('./dashboard-types.js').OperatorSchemas['LeadActivity'] & { changes?: FieldChange[] }} Activity
 */

/** @type {Record<Activity['type'], string>} */
const TYPE_LABELS = {
  COMMENT: 'Comment',
  INTERNAL_NOTE: 'Internal note',
  STAGE_CHANGE: 'Stage change',
  CREATED: 'Created',
  FIELD_CHANGE: 'Edited',
};

/** @param {Activity} entry */
function describe(entry) {
  if (entry.type === 'FIELD_CHANGE') return null;
  if (entry.type !== 'STAGE_CHANGE') return entry.body ?? null;
  const parts = [];
  if (entry.fromPipeline !== entry.toPipeline && (entry.fromPipeline || entry.toPipeline))
    parts.push(`Pipeline ${entry.fromPipeline ?? '—'} → ${entry.toPipeline ?? '—'}`);
  if (entry.fromStage || entry.toStage) parts.push(`${entry.fromStage ?? '—'} → ${entry.toStage ?? '—'}`);
  if (entry.reasons?.length) parts.push(`Reasons: ${entry.reasons.join(', ')}`);
  return parts.join(' · ') || 'Reasons changed';
}

/** @param {Activity} entry */
function entryItem(entry) {
  return h(
    'li',
    { class: `activity activity-${entry.type.toLowerCase()}` },
    h(
      'p',
      { class: 'activity-head' },
      h('span', { class: 'badge' }, TYPE_LABELS[entry.type] ?? entry.type),
      h('span', { class: 'activity-author' }, entry.author === 'API' ? 'through the API' : entry.author),
      h('time', { datetime: entry.createdAt, class: 'muted' }, formatDate(entry.createdAt)),
    ),
    describe(entry) ? h('p', { class: 'activity-body' }, describe(entry)) : null,
    entry.changes
      ? h(
          'ul',
          { class: 'activity-changes' },
          entry.changes.map((change) => h('li', {}, describeChange(change))),
        )
      : null,
  );
}

/**
 * The field changes of one edit (same author, same instant, one after the other) as one entry with
 * its list of changes: an edit of three fields reads as one "Edited" line, not three.
 */
/** @param {Activity[]} items */
function groupEdits(items) {
  /** @type {Activity[]} */
  const grouped = [];
  for (const entry of items) {
    const last = grouped.at(-1);
    if (entry.type !== 'FIELD_CHANGE') grouped.push(entry);
    else if (last?.changes && last.author === entry.author && last.createdAt === entry.createdAt)
      last.changes.push(asChange(entry));
    else grouped.push({ ...entry, changes: [asChange(entry)] });
  }
  return grouped;
}

/**
 * A FIELD_CHANGE entry as the change it records.
 * @param {Activity} entry
 * @returns {FieldChange}
 */
const asChange = (entry) => ({ field: entry.field ?? '', from: entry.from ?? null, to: entry.to ?? null });

/**
 * The timeline card: loads every page (oldest first) and offers the add-comment form.
 * @param {Business} business
 * @param {string} leadId
 */
export function activityCard(business, leadId) {
  const path = `/businesses/${seg(business.urlKey)}/leads/${seg(leadId)}`;
  const list = h('ol', { class: 'timeline', 'aria-label': 'Activity' });
  const more = h('div');
  const load = async (/** @type {string | null} */ after) => {
    if (!after) mount(list, h('li', { class: 'loading', role: 'status' }, 'Loading the activity…'));
    // The field history is an addition the spec's answer leaves out unless asked for (docs/leads.md).
    const query = `?include=fieldChanges${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    /** @type {import('./dashboard-types.js').OperatorSchemas['LeadActivityPage']} */
    const page = (await api('GET', `${path}/activities${query}`))?.[0] ?? {
      items: [],
      nextCursor: null,
    };
    if (!after) mount(list);
    list.append(...groupEdits(page.items).map(entryItem));
    if (!after && page.items.length === 0) mount(list, h('li', { class: 'empty' }, 'No activity yet.'));
    mount(
      more,
      page.nextCursor
        ? h(
            'button',
            { type: 'button', class: 'secondary small', onclick: () => load(page.nextCursor) },
            'Show later entries',
          )
        : null,
    );
  };
  const body = h('textarea', {
    rows: 3,
    maxlength: limit('LeadNotesInput.body[]'),
    required: true,
    dataset: { field: 'addComments.body' },
  });
  const kind = h(
    'select',
    {},
    h('option', { value: 'addComments' }, 'Comment (visible to everyone)'),
    h('option', { value: 'addInternalNotes' }, 'Internal note (this business only)'),
  );
  const message = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Add');
  const form = h(
    'form',
    { class: 'form-grid add-note', 'aria-label': 'Add a comment or note' },
    message,
    field('Comment or note', body),
    field('Kind', kind),
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = body.value.trim();
    mount(message);
    clearFieldErrors(form);
    if (!text) {
      mount(message, errorBanner('Write the comment or note first.'));
      body.focus();
      return;
    }
    submit.disabled = true;
    body.dataset.field = `${kind.value}.body`;
    try {
      await api('PATCH', path, { [kind.value]: { body: [text] } });
      body.value = '';
      toast(kind.value === 'addComments' ? 'Comment added.' : 'Internal note added.');
      await load(null);
    } catch (error) {
      if (error.status !== 401 && (showFieldErrors(form, error.fieldErrors).length || !error.fieldErrors.length))
        mount(message, errorBanner(error.message));
    } finally {
      submit.disabled = false;
    }
  });
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': 'activity-title' },
    h('h2', { id: 'activity-title' }, 'Activity'),
    list,
    more,
    form,
  );
  return { element, load: () => load(null) };
}
