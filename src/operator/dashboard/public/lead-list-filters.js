// @ts-check
// The list view's filter form: each control is one parameter of the lead list; a change shows the
// list for the new filters (a new address). Values are the list's own: names, keys and e-mails.
import { field, h } from './dom.js';
import { STATUS_LABELS } from './lead-config.js';

/**
 * @param {string} label
 * @param {string} name the list parameter
 * @param {string[][]} options [value, text] pairs
 * @param {URLSearchParams} params
 * @param {(name: string, value: string) => void} apply
 */
function select(label, name, options, params, apply) {
  const value = params.get(name) ?? '';
  const el = h(
    'select',
    { name },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  el.addEventListener('change', () => apply(name, el.value));
  return field(label, el);
}

/**
 * @param {import('./dashboard-types.js').LeadConfig} config
 * @param {URLSearchParams} params
 * @param {(params: URLSearchParams) => void} showList
 */
export function listFilters(config, params, showList) {
  /** @type {(name: string, value: string) => void} */
  const apply = (name, value) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    // A stage belongs to its pipeline: another pipeline starts from any stage.
    if (name === 'pipeline') next.delete('stage');
    showList(next);
  };
  const any = ['', 'Any'];
  const pipelineNames = [...new Set(config.pipelines.map((/** @type {{ name: string }} */ p) => p.name))];
  const pipeline = config.pipelines.find((/** @type {{ name: string }} */ p) => p.name === params.get('pipeline'));
  const search = h('input', {
    type: 'search',
    name: 'q',
    value: params.get('q') ?? '',
    placeholder: 'Subject, customer, contact…',
  });
  return h(
    'form',
    {
      class: 'card filters',
      role: 'search',
      'aria-label': 'Filter leads',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        apply('q', search.value.trim());
      },
    },
    select('Pipeline', 'pipeline', [any, ...pipelineNames.map((n) => [n, n])], params, apply),
    pipeline
      ? select(
          'Stage',
          'stage',
          [
            any,
            ...pipeline.stages.map((/** @type {{ name: string, isArchived?: boolean }} */ s) => [
              s.name,
              s.isArchived ? `${s.name} (archived)` : s.name,
            ]),
          ],
          params,
          apply,
        )
      : null,
    select('Status', 'status', [any, ...Object.entries(STATUS_LABELS)], params, apply),
    select(
      'Assignee',
      'assignedTo',
      [
        any,
        ['UNASSIGNED', 'Unassigned'],
        ...config.members.map((m) => [m.email, m.isArchived ? `${m.name} (archived)` : m.name]),
      ],
      params,
      apply,
    ),
    select('Tag', 'tags', [any, ...config.tags.map((t) => [t.name, t.name])], params, apply),
    select('Source', 'leadSource', [any, ...config.sources.map((s) => [s.key, s.label])], params, apply),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'lead-list-q' }, 'Search'),
      h(
        'div',
        { class: 'inline-search' },
        Object.assign(search, { id: 'lead-list-q' }),
        h('button', { type: 'submit', class: 'secondary' }, 'Search'),
      ),
    ),
  );
}
