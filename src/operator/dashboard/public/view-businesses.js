// @ts-check
// Businesses: the list (switch with "Use"), create, and the current business's settings.
import { limit } from './api-document.js';
import { api, latestOnly, seg, setCurrentBusiness } from './api.js';
import { actionButton, confirmAction, errorBanner, field, formatDate, h, mount, toast } from './dom.js';
import { clearFormError, reportFormError } from './field-errors.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext} ViewContext
 * @typedef {import('./dashboard-types.js').Answer<'listCountries'>[number]} Country an entry of GET /admin/v1/countries
 */

/** The form's labels for the API's field names, so that errors name what the operator sees. */
const CREATE_LABELS = {
  name: 'Business name',
  country: 'Country',
  currency: 'Currency',
  urlKey: 'URL key',
  customFieldsEnabled: 'Client custom fields',
};
const SETTINGS_LABELS = { name: 'Display name', currency: 'Currency', customFieldsEnabled: 'Client custom fields' };

/** @param {ViewContext} ctx */
function createForm(ctx) {
  const name = h('input', {
    type: 'text',
    name: 'name',
    required: true,
    maxlength: limit('BusinessInput.name'),
    dataset: { field: 'name' },
  });
  // The countries the server accepts, by name (GET /admin/v1/countries; defect 12): a choice, not a typed code.
  const country = h(
    'select',
    { name: 'country', required: true, dataset: { field: 'country' } },
    h('option', { value: '' }, 'Loading countries…'),
  );
  api('GET', '/countries')
    .then((/** @type {Country[]} */ countries) =>
      mount(
        country,
        h('option', { value: '' }, 'Choose a country'),
        countries.map((c) => h('option', { value: c.code }, `${c.name} (${c.code})`)),
      ),
    )
    .catch(() => mount(country, h('option', { value: '' }, 'The countries could not be loaded')));
  const currency = h('input', {
    type: 'text',
    name: 'currency',
    maxlength: 3,
    class: 'short upper',
    dataset: { field: 'currency' },
  });
  const urlKey = h('input', { type: 'text', name: 'urlKey', maxlength: 63, dataset: { field: 'urlKey' } });
  const customFields = h('input', {
    type: 'checkbox',
    name: 'customFieldsEnabled',
    dataset: { field: 'customFieldsEnabled' },
  });
  const message = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create business');
  const form = h(
    'form',
    { class: 'card form-grid', 'aria-labelledby': 'create-business-title' },
    h('h2', { id: 'create-business-title' }, 'New business'),
    message,
    field('Business name', name),
    field('Country', country, 'Its tax rules, currency and language follow from it.'),
    field('Currency (optional)', currency, 'ISO code such as INR. Leave empty for the country’s currency.'),
    field(
      'URL key (optional)',
      urlKey,
      'Lowercase letters, digits and hyphens; used in API paths. Leave empty to make one from the name.',
    ),
    h('div', { class: 'field checkbox' }, h('label', {}, customFields, ' Enable client custom fields')),
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    /** @type {{ name: string, country: string, currency?: string, urlKey?: string, customFieldsEnabled?: boolean }} */
    const body = { name: name.value.trim(), country: country.value };
    if (currency.value.trim()) body.currency = currency.value.trim().toUpperCase();
    if (urlKey.value.trim()) body.urlKey = urlKey.value.trim();
    if (customFields.checked) body.customFieldsEnabled = true;
    submit.disabled = true;
    clearFormError(form, message);
    try {
      /** @type {Business} */
      const created = await api('POST', '/businesses', body);
      toast(`Business “${created.name}” created.`);
      setCurrentBusiness(created.urlKey);
      ctx.focusAfterRender('#settings-title');
      await ctx.refreshBusinesses();
    } catch (error) {
      if (error.status !== 401) reportFormError(form, message, error, CREATE_LABELS);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** @param {ViewContext} ctx */
function settingsCard(ctx) {
  const business = ctx.business;
  if (!business) return null;
  const name = h('input', {
    type: 'text',
    name: 'name',
    value: business.name,
    maxlength: limit('BusinessPatch.name'),
    dataset: { field: 'name' },
  });
  const currency = h('input', {
    type: 'text',
    name: 'currency',
    value: business.currency ?? '',
    maxlength: 3,
    class: 'short upper',
    dataset: { field: 'currency' },
  });
  const customFields = h('input', {
    type: 'checkbox',
    name: 'customFieldsEnabled',
    checked: Boolean(business.customFieldsEnabled),
    dataset: { field: 'customFieldsEnabled' },
  });
  const message = h('div');
  const save = actionButton(
    'Save settings',
    async () => {
      /** @type {{ name: string, customFieldsEnabled: boolean, currency?: string }} */
      const body = { name: name.value.trim(), customFieldsEnabled: customFields.checked };
      if (currency.value.trim()) body.currency = currency.value.trim().toUpperCase();
      clearFormError(card, message);
      try {
        await api('PATCH', `/businesses/${seg(business.urlKey)}`, body);
        toast('Business settings saved.');
        ctx.focusAfterRender('#settings-title');
        await ctx.refreshBusinesses();
      } catch (error) {
        if (error.status !== 401) reportFormError(card, message, error, SETTINGS_LABELS);
      }
    },
    { class: 'primary' },
  );
  const card = h(
    'section',
    { class: 'card form-grid', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title', tabindex: '-1' }, `Settings of ${business.name}`),
    message,
    field('Display name', name),
    field('Currency', currency),
    h('div', { class: 'field checkbox' }, h('label', {}, customFields, ' Enable client custom fields')),
    h('div', { class: 'form-actions' }, save),
  );
  return card;
}

/**
 * Archive hides the business from apps (403, as if detached) and from lists; everything is kept, and restore undoes it.
 * @param {Business} b
 * @param {ViewContext} ctx
 * @param {HTMLElement} message
 */
function archiveButton(b, ctx, message) {
  const archived = b.isArchived;
  return actionButton(
    archived ? 'Restore' : 'Archive',
    async () => {
      mount(message);
      if (!archived) {
        const ok = await confirmAction(
          `Archive ${b.name}`,
          `Apps attached to ${b.urlKey} get “permission denied” on it at once, and it leaves the business list. Its clients, pipelines, custom fields, app attachments and URL key are kept; Restore brings it back as it was.`,
          'Archive business',
          true,
        );
        if (!ok) return;
      }
      try {
        await api('POST', `/businesses/${seg(b.urlKey)}/${archived ? 'restore' : 'archive'}`);
        toast(`${b.name} ${archived ? 'restored' : 'archived'}.`);
        await ctx.refreshBusinesses();
      } catch (error) {
        if (error.status !== 401) mount(message, errorBanner(error.message));
      }
    },
    {
      class: archived ? 'primary small' : 'secondary small',
      'aria-label': `${archived ? 'Restore' : 'Archive'} ${b.name}`,
    },
  );
}

/**
 * @param {ViewContext} ctx
 * @param {Business[]} businesses
 * @param {HTMLElement} message
 */
function table(ctx, businesses, message) {
  if (businesses.length === 0) {
    return h('div', { class: 'empty' }, h('p', {}, 'No business yet. Create the first one below.'));
  }
  const current = ctx.business?.urlKey;
  // data-label: on a phone each row becomes a card and the cell shows its column name (styles.css .stack).
  return h(
    'table',
    { class: 'data-table stack', 'aria-label': 'Businesses' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Name', 'URL key', 'Country', 'Currency', 'Custom fields', 'Actions'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      businesses.map((b) =>
        h(
          'tr',
          { class: b.isArchived ? 'archived-row' : b.urlKey === current ? 'current' : '' },
          h(
            'td',
            { dataset: { label: 'Name' } },
            b.name,
            b.isArchived
              ? [
                  ' ',
                  h('span', { class: 'badge badge-muted', title: `Archived ${formatDate(b.archivedAt)}` }, 'Archived'),
                ]
              : null,
          ),
          h('td', { dataset: { label: 'URL key' } }, h('code', {}, b.urlKey)),
          h('td', { dataset: { label: 'Country' } }, b.country),
          h('td', { dataset: { label: 'Currency' } }, b.currency ?? '—'),
          h('td', { dataset: { label: 'Custom fields' } }, b.customFieldsEnabled ? 'Enabled' : 'Off'),
          h(
            'td',
            { class: 'actions' },
            b.isArchived
              ? null
              : b.urlKey === current
                ? h('span', { class: 'badge badge-ok' }, 'Current')
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'secondary small',
                      'aria-label': `Use ${b.name}`,
                      onclick: () => ctx.selectBusiness(b.urlKey),
                    },
                    'Use',
                  ),
            archiveButton(b, ctx, message),
          ),
        ),
      ),
    ),
  );
}

/**
 * The list, with archived businesses too while "Show archived" is ticked (kept for this tab).
 * @param {ViewContext} ctx
 */
function listCard(ctx) {
  const message = h('div');
  const body = h('div');
  const showArchived = h('input', {
    type: 'checkbox',
    name: 'showArchived',
    checked: sessionStorage.getItem('crmkit.showArchivedBusinesses') === '1',
  });
  // Ticking then unticking draws the live list at once while the archived one is still on its way: only
  // the latest choice may draw, or the late answer would list archived businesses under an unticked box.
  const startDraw = latestOnly();
  const draw = async () => {
    const isLatest = startDraw();
    sessionStorage.setItem('crmkit.showArchivedBusinesses', showArchived.checked ? '1' : '0');
    /** @type {Business[]} */
    const all = showArchived.checked ? ((await api('GET', '/businesses?includeArchived=true')) ?? []) : ctx.businesses;
    if (isLatest()) mount(body, table(ctx, all, message));
  };
  showArchived.addEventListener('change', () =>
    draw().catch((error) => {
      if (error.status !== 401) mount(message, errorBanner(error.message));
    }),
  );
  return {
    card: h(
      'section',
      { class: 'card' },
      message,
      body,
      h('div', { class: 'field checkbox' }, h('label', {}, showArchived, ' Show archived businesses')),
    ),
    draw,
  };
}

/**
 * @param {HTMLElement} main
 * @param {ViewContext} ctx
 */
export async function renderBusinesses(main, ctx) {
  ctx.businesses = await ctx.reloadBusinesses();
  const list = listCard(ctx);
  await list.draw();
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Businesses'),
      h(
        'p',
        { class: 'subtitle' },
        'Each business has its own pipelines, custom fields and clients. Apps are attached to businesses.',
      ),
    ),
    list.card,
    h('div', { class: 'two-columns' }, createForm(ctx), settingsCard(ctx)),
  );
}
