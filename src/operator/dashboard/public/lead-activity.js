// A lead's activity timeline (leads-interface 2.6, read through 4.5) and the form that adds a
// comment (seen by every party) or an internal note (the business only).
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { errorBanner, field, formatDate, h, mount, toast } from './dom.js';
import { clearFieldErrors, showFieldErrors } from './field-errors.js';

const TYPE_LABELS = {
  COMMENT: 'Comment',
  INTERNAL_NOTE: 'Internal note',
  STAGE_CHANGE: 'Stage change',
  CREATED: 'Created',
};

function describe(entry) {
  if (entry.type !== 'STAGE_CHANGE') return entry.body ?? null;
  const parts = [];
  if (entry.fromPipeline !== entry.toPipeline && (entry.fromPipeline || entry.toPipeline))
    parts.push(`Pipeline ${entry.fromPipeline ?? '—'} → ${entry.toPipeline ?? '—'}`);
  if (entry.fromStage || entry.toStage) parts.push(`${entry.fromStage ?? '—'} → ${entry.toStage ?? '—'}`);
  if (entry.reasons?.length) parts.push(`Reasons: ${entry.reasons.join(', ')}`);
  return parts.join(' · ') || 'Reasons changed';
}

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
  );
}

/** The timeline card: loads every page (oldest first) and offers the add-comment form. */
export function activityCard(business, leadId) {
  const path = `/businesses/${seg(business.urlKey)}/leads/${seg(leadId)}`;
  const list = h('ol', { class: 'timeline', 'aria-label': 'Activity' });
  const more = h('div');
  const load = async (after) => {
    if (!after) mount(list, h('li', { class: 'loading', role: 'status' }, 'Loading the activity…'));
    const page = (await api('GET', `${path}/activities${after ? `?after=${encodeURIComponent(after)}` : ''}`))?.[0] ?? {
      items: [],
      nextCursor: null,
    };
    if (!after) mount(list);
    list.append(...page.items.map(entryItem));
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
      await load();
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
