// Businesses: the list (switch with "Use"), create, and the current business's settings.
import { api, seg, setCurrentBusiness } from './api.js';
import { actionButton, field, h, mount, toast } from './dom.js';
import { clearFormError, reportFormError } from './field-errors.js';

/** The form's labels for the API's field names, so that errors name what the operator sees. */
const CREATE_LABELS = { name: 'Business name', country: 'Country', currency: 'Currency', urlKey: 'URL key', customFieldsEnabled: 'Client custom fields' };
const SETTINGS_LABELS = { name: 'Display name', currency: 'Currency', customFieldsEnabled: 'Client custom fields' };

function createForm(ctx) {
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 500, dataset: { field: 'name' } });
  const country = h('input', { type: 'text', name: 'country', required: true, maxlength: 2, pattern: '[A-Za-z]{2}', class: 'short upper', dataset: { field: 'country' } });
  const currency = h('input', { type: 'text', name: 'currency', maxlength: 3, class: 'short upper', dataset: { field: 'currency' } });
  const urlKey = h('input', { type: 'text', name: 'urlKey', maxlength: 63, dataset: { field: 'urlKey' } });
  const customFields = h('input', { type: 'checkbox', name: 'customFieldsEnabled', dataset: { field: 'customFieldsEnabled' } });
  const message = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create business');
  const form = h('form', { class: 'card form-grid', 'aria-labelledby': 'create-business-title' },
    h('h2', { id: 'create-business-title' }, 'New business'),
    message,
    field('Business name', name),
    field('Country (ISO code)', country, 'Two letters, for example IN, AE, GB.'),
    field('Currency (optional)', currency, 'ISO code such as INR. Leave empty for the country’s currency.'),
    field('URL key (optional)', urlKey, 'Lowercase letters, digits and hyphens; used in API paths. Leave empty to make one from the name.'),
    h('div', { class: 'field checkbox' }, h('label', {}, customFields, ' Enable client custom fields')),
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: name.value.trim(), country: country.value.trim().toUpperCase() };
    if (currency.value.trim()) body.currency = currency.value.trim().toUpperCase();
    if (urlKey.value.trim()) body.urlKey = urlKey.value.trim();
    if (customFields.checked) body.customFieldsEnabled = true;
    submit.disabled = true;
    clearFormError(form, message);
    try {
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

function settingsCard(ctx) {
  const business = ctx.business;
  if (!business) return null;
  const name = h('input', { type: 'text', name: 'name', value: business.name, maxlength: 500, dataset: { field: 'name' } });
  const currency = h('input', { type: 'text', name: 'currency', value: business.currency ?? '', maxlength: 3, class: 'short upper', dataset: { field: 'currency' } });
  const customFields = h('input', { type: 'checkbox', name: 'customFieldsEnabled', checked: Boolean(business.customFieldsEnabled), dataset: { field: 'customFieldsEnabled' } });
  const message = h('div');
  const save = actionButton('Save settings', async () => {
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
  }, { class: 'primary' });
  const card = h('section', { class: 'card form-grid', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title', tabindex: '-1' }, `Settings of ${business.name}`),
    message,
    field('Display name', name),
    field('Currency', currency),
    h('div', { class: 'field checkbox' }, h('label', {}, customFields, ' Enable client custom fields')),
    h('div', { class: 'form-actions' }, save),
  );
  return card;
}

function table(ctx) {
  if (ctx.businesses.length === 0) {
    return h('div', { class: 'empty' }, h('p', {}, 'No business yet. Create the first one below.'));
  }
  const current = ctx.business?.urlKey;
  // data-label: on a phone each row becomes a card and the cell shows its column name (styles.css .stack).
  return h('table', { class: 'data-table stack', 'aria-label': 'Businesses' },
    h('thead', {}, h('tr', {}, ['Name', 'URL key', 'Country', 'Currency', 'Custom fields', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ctx.businesses.map((b) => h('tr', { class: b.urlKey === current ? 'current' : '' },
      h('td', { dataset: { label: 'Name' } }, b.name),
      h('td', { dataset: { label: 'URL key' } }, h('code', {}, b.urlKey)),
      h('td', { dataset: { label: 'Country' } }, b.country),
      h('td', { dataset: { label: 'Currency' } }, b.currency ?? '—'),
      h('td', { dataset: { label: 'Custom fields' } }, b.customFieldsEnabled ? 'Enabled' : 'Off'),
      h('td', { class: 'actions' }, b.urlKey === current
        ? h('span', { class: 'badge badge-ok' }, 'Current')
        : h('button', { type: 'button', class: 'secondary small', 'aria-label': `Use ${b.name}`, onclick: () => ctx.selectBusiness(b.urlKey) }, 'Use')),
    ))),
  );
}

export async function renderBusinesses(main, ctx) {
  ctx.businesses = await ctx.reloadBusinesses();
  mount(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Businesses'),
      h('p', { class: 'subtitle' }, 'Each business has its own pipelines, custom fields and clients. Apps are attached to businesses.')),
    h('section', { class: 'card' }, table(ctx)),
    h('div', { class: 'two-columns' }, createForm(ctx), settingsCard(ctx)),
  );
}
