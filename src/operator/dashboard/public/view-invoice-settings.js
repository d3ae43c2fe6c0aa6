// @ts-check
// Invoice settings (invoices-interface 8): the business's billing details, its invoice numbering with a
// live preview of the next number (the server's rule, asked as the operator types), and default terms.
import { api, latestOnly } from './api.js';
import { actionButton, errorBanner, field, h, mount, toast } from './dom.js';
import { clearFormError, reportFormError } from './field-errors.js';
import { invoicesBase } from './invoice-format.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {[key: string, label: string]} Labelled a member of the body and its control's label
 */
/**
 * GET …/invoice-settings. The document gives its three members only as objects (src/invoices/invoices.openapi.ts
 * InvoiceSettings); what the page reads of them is said here until the document says it.
 * @typedef {{ billedBy: Record<string, string | null | undefined>, numbering: Record<string, string | number | null>,
 *   defaultTerms: { label: string, terms: string[] }[] }} SettingsMembers
 * @typedef {import('./dashboard-types.js').OperatorSchemas['InvoiceSettings']} DocumentedSettings
 * @typedef {Omit<DocumentedSettings, keyof SettingsMembers> & SettingsMembers} InvoiceSettings
 */

// The seller's tax numbers a business of this country prints (2.2); every other country a VAT number.
/** @type {Record<string, Labelled[]>} */
const TAX_IDS = {
  IN: [
    ['gstin', 'GSTIN'],
    ['panNumber', 'PAN'],
  ],
  AE: [['trnNumber', 'TRN']],
  SA: [['vatNumber', 'VAT number']],
  MY: [
    ['sstNumber', 'SST number'],
    ['tinNumber', 'TIN'],
  ],
};
const taxIdsOf = (/** @type {string} */ country) => TAX_IDS[country] ?? [['vatNumber', 'VAT number']];

/** @type {Labelled[]} */
const ADDRESS = [
  ['name', 'Name on invoices'],
  ['street', 'Street'],
  ['city', 'City'],
  ['state', 'State'],
  ['pincode', 'PIN / postal code'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
];
/** @type {Labelled[]} */
const NUMBERING = [
  ['prefix', 'Prefix'],
  ['padding', 'Digits'],
  ['nextNumber', 'Next number'],
];

/** A whole number typed is sent as one; anything else as typed, so the server names what is wrong. */
const numberOrText = (/** @type {string} */ text) => (/^\d{1,15}$/.test(text) ? Number(text) : text);

/**
 * @param {string} name
 * @param {string | number | null | undefined} value
 * @param {Record<string, unknown>} [attrs]
 */
function input(name, value, attrs = {}) {
  return h('input', {
    type: 'text',
    name,
    value: value ?? '',
    autocomplete: 'off',
    dataset: { field: name },
    ...attrs,
  });
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderInvoiceSettings(main, ctx) {
  const business = ctx.business;
  const base = invoicesBase(business);
  /** @type {InvoiceSettings} */
  const saved = await api('GET', `${base}/invoice-settings`);
  /** @type {Labelled[]} */
  const billedByKeys = [
    ...ADDRESS,
    ...(business.country === 'IN' ? /** @type {Labelled[]} */ ([['gstState', 'GST state code']]) : []),
    ...taxIdsOf(business.country),
  ];
  /** @type {Record<string, HTMLInputElement>} */
  const controls = {};
  for (const [key] of billedByKeys) controls[key] = input(`billedBy.${key}`, saved.billedBy[key]);
  controls.gstState?.setAttribute('maxlength', '2');
  controls.gstState?.setAttribute('inputmode', 'numeric');
  /** @type {Record<string, HTMLInputElement>} */
  const numbering = {};
  for (const [key] of NUMBERING)
    numbering[key] = input(`numbering.${key}`, saved.numbering[key], key === 'prefix' ? {} : { inputmode: 'numeric' });
  const [firstTerms, ...otherTerms] = saved.defaultTerms;
  const termsLabel = input('defaultTerms[0].label', firstTerms?.label ?? 'Terms and conditions');
  const termsLines = h('textarea', { name: 'terms', rows: 4, dataset: { field: 'defaultTerms[0].terms' } });
  termsLines.value = (firstTerms?.terms ?? []).join('\n');
  const preview = h('output', { class: 'number-preview', 'aria-live': 'polite', id: 'next-number' });
  const message = h('div');

  const numberingBody = () => {
    /** @type {Record<string, string | number>} */
    const body = {};
    for (const [key] of NUMBERING) {
      const text = numbering[key].value.trim();
      if (key === 'prefix' ? numbering[key].value !== '' : text !== '')
        body[key] = key === 'prefix' ? numbering[key].value : numberOrText(text);
    }
    return body;
  };
  // Typing runs ahead of the answers: only the latest preview is shown.
  const startPreview = latestOnly();
  const refreshPreview = async () => {
    const isLatest = startPreview();
    try {
      /** @type {import('./dashboard-types.js').OperatorSchemas['InvoiceNumberPreview']} */
      const answer = await api('POST', `${base}/invoice-settings/numbering-preview`, { numbering: numberingBody() });
      if (isLatest()) mount(preview, 'Next invoice: ', h('strong', {}, answer.nextInvoiceNumber));
    } catch (error) {
      if (isLatest() && error.status !== 401)
        mount(preview, h('span', { class: 'danger-text' }, error.fieldErrors[0]?.message ?? error.message));
    }
  };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  for (const control of Object.values(numbering))
    control.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(refreshPreview, 200);
    });

  const form = h(
    'form',
    { class: 'form-grid invoice-settings', novalidate: true },
    message,
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'billed-by-title' },
      h('h2', { id: 'billed-by-title' }, 'Billing details'),
      h('p', { class: 'subtitle' }, `Printed as the seller on ${business.name}'s invoices.`),
      h(
        'div',
        { class: 'settings-grid' },
        billedByKeys.map(([key, label]) => field(label, controls[key])),
      ),
    ),
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'numbering-title' },
      h('h2', { id: 'numbering-title' }, 'Numbering'),
      h(
        'p',
        { class: 'subtitle' },
        'Saving starts the series at this number; numbers already taken are skipped. Existing invoices keep theirs.',
      ),
      h(
        'div',
        { class: 'settings-grid' },
        NUMBERING.map(([key, label]) => field(label, numbering[key])),
      ),
      preview,
    ),
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'terms-title' },
      h('h2', { id: 'terms-title' }, 'Default terms'),
      h('p', { class: 'subtitle' }, 'Printed on invoices created without terms of their own.'),
      field('Heading', termsLabel),
      field('Terms, one per line', termsLines),
    ),
  );
  const labels = Object.fromEntries([
    ...billedByKeys.map(([key, label]) => [`billedBy.${key}`, label]),
    ...NUMBERING.map(([key, label]) => [`numbering.${key}`, label]),
    ['defaultTerms[0].label', 'Terms heading'],
  ]);
  const save = actionButton(
    'Save invoice settings',
    async () => {
      clearFormError(form, message);
      /** @type {Record<string, string>} */
      const billedBy = {};
      for (const [key] of billedByKeys) {
        const value = controls[key].value.trim();
        if (value) billedBy[key] = value;
      }
      const lines = termsLines.value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const defaultTerms = [...(lines.length ? [{ label: termsLabel.value.trim(), terms: lines }] : []), ...otherTerms];
      try {
        await api('PUT', `${base}/invoice-settings`, { billedBy, numbering: numberingBody(), defaultTerms });
        toast('Invoice settings saved.');
        await refreshPreview();
      } catch (error) {
        if (error.status !== 401) reportFormError(form, message, error, labels);
      }
    },
    { class: 'primary' },
  );
  form.append(h('div', { class: 'form-actions' }, save));
  form.addEventListener('submit', (event) => event.preventDefault());
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Invoice settings'),
      h('p', { class: 'subtitle' }, `How ${business.name}'s invoices are billed and numbered.`),
    ),
    form,
  );
  try {
    await refreshPreview();
  } catch (error) {
    mount(message, errorBanner(error.message));
  }
}
