// @ts-check
// The operator's saved filters of the lead list (GET/POST/DELETE …/lead-saved-filters): pick one to
// show it, save the current filters under a name, delete the one picked. A saved filter is the
// list's query string, as the address holds it.
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { errorBanner, field, h, mount, toast } from './dom.js';

/** @typedef {import('./dashboard-types.js').OperatorSchemas['LeadSavedFilter']} SavedFilter */

/**
 * @param {import('./dashboard-types.js').ViewContext & { business: import('./dashboard-types.js').Business }} ctx
 * @param {URLSearchParams} params the list's filters on screen
 * @param {(params: URLSearchParams) => void} showList
 */
export function savedFiltersBar(ctx, params, showList) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/lead-saved-filters`;
  const bar = h('div', { class: 'card saved-filters' }, h('p', { class: 'loading' }, 'Loading saved filters…'));
  const draw = async () => {
    /** @type {SavedFilter[]} */
    const saved = (await api('GET', path)) ?? [];
    const current = params.toString();
    const picked = saved.find((f) => f.query === current);
    const choose = h(
      'select',
      { name: 'savedFilter' },
      h('option', { value: '' }, saved.length === 0 ? 'None saved yet' : 'Choose…'),
      saved.map((f) => h('option', { value: f.id, selected: f === picked }, f.name)),
    );
    choose.addEventListener('change', () => {
      const filter = saved.find((f) => f.id === choose.value);
      if (filter) showList(new URLSearchParams(filter.query));
    });
    const name = h('input', {
      type: 'text',
      name: 'savedFilterName',
      maxlength: limit('saveLeadSavedFilter.name'),
      value: picked?.name ?? '',
    });
    const message = h('div');
    const save = h('button', { type: 'submit', class: 'secondary' }, 'Save filters');
    const remove = h('button', { type: 'button', class: 'secondary danger', disabled: !picked }, 'Delete saved filter');
    remove.addEventListener('click', async () => {
      if (!picked) return;
      await api('DELETE', `${path}/${seg(picked.id)}`);
      toast(`Saved filter “${picked.name}” deleted.`);
      await draw();
    });
    const form = h(
      'form',
      {
        class: 'saved-filters-form',
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          mount(message);
          try {
            const stored = await api('POST', path, { name: name.value, query: current });
            toast(`Filters saved as “${stored.name}”.`);
            await draw();
          } catch (error) {
            if (error.status !== 401) mount(message, errorBanner(error.fieldErrors[0]?.message ?? error.message));
          }
        },
      },
      field('Saved filters', choose),
      field('Save these filters as', name),
      h('div', { class: 'saved-filters-actions' }, save, remove),
    );
    mount(bar, form, message);
  };
  draw().catch((error) => {
    if (error.status !== 401) mount(bar, errorBanner(error.message));
  });
  return bar;
}
