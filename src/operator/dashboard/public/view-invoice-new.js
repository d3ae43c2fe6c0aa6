// @ts-check
// A new invoice from the dashboard (#/invoices/new): the buyer, items, and totals computed live by the
// server's own rules (POST …/invoices/preview validates and computes, stores nothing); create on save.
import { api, latestOnly } from './api.js';
import { dateField } from './date-field.js';
import { actionButton, field, h, mount } from './dom.js';
import { clearFieldErrors, clearFormError, reportFormError, shortMessage } from './field-errors.js';
import { invoicesBase, money } from './invoice-format.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./field-errors.js').FieldError} FieldError
 * @typedef {number | string} Amount an answer's money value: a JSON number or decimal text
 */
/**
 * What POST …/invoices/preview answers: the invoice as it would be stored, of which the page reads the
 * totals. The document gives items and finalTotal only as objects; what the page reads of those is said
 * here until the document says it.
 * @typedef {{ items: { total: Amount }[],
 *   finalTotal: { amount: Amount, total: Amount, tax?: Amount, igst?: Amount, cgst?: Amount, sgst?: Amount } }}
 *   PreviewMembers
 * @typedef {import('./dashboard-types.js').OperatorSchemas['InvoicePreview']} DocumentedPreview
 * @typedef {Omit<DocumentedPreview, keyof PreviewMembers> & PreviewMembers} InvoicePreview
 */
/**
 * One item row: its inputs by the member of the body they fill, its line total, and its own controls.
 * @typedef {{ inputs: Record<string, HTMLInputElement> & { name: HTMLInputElement, quantity: HTMLInputElement,
 *   rate: HTMLInputElement, hsn?: HTMLInputElement }, line: HTMLOutputElement, remove: HTMLButtonElement,
 *   element: HTMLLIElement }} ItemRow
 */

const LABELS = {
  'billedTo.clientId': 'Client',
  'billedTo.name': 'Buyer name',
  'billedTo.country': 'Buyer country',
  'billedTo.gstState': 'Buyer GST state',
  'billedTo.gstin': 'Buyer GSTIN',
  invoiceNumber: 'Invoice number',
  invoiceDate: 'Invoice date',
  dueDate: 'Due date',
};

/** A number typed is sent as the JSON number of that text (the server reads its decimal exactly); else as typed. */
const numeric = (/** @type {string} */ text) => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text.trim());
const control = (/** @type {string} */ name, /** @type {Record<string, unknown>} */ attrs = {}) =>
  h('input', { type: 'text', name, autocomplete: 'off', dataset: { field: name }, ...attrs });

/**
 * Errors beside their controls while typing: without moving focus, and none for a control still empty.
 * @param {HTMLElement} form
 * @param {FieldError[]} errors
 */
function showLive(form, errors) {
  clearFieldErrors(form);
  for (const error of errors) {
    const target = form.querySelector(`[data-field="${CSS.escape(error.field ?? '')}"]`);
    if (!(target instanceof HTMLInputElement) || target.value === '') continue;
    target.setAttribute('aria-invalid', 'true');
    (target.closest('.field') ?? target.parentElement)?.append(h('p', { class: 'field-error' }, shortMessage(error)));
  }
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderInvoiceNew(main, ctx) {
  const business = ctx.business;
  const india = business.country === 'IN';
  const taxKey = india ? 'gstRate' : 'taxRate';
  const buyer = {
    clientId: control('billedTo.clientId', { placeholder: 'An existing clientId, or fill in the buyer' }),
    name: control('billedTo.name'),
    country: control('billedTo.country', { value: business.country, maxlength: 2, class: 'upper' }),
    gstState: india
      ? control('billedTo.gstState', { maxlength: 2, inputmode: 'numeric', placeholder: 'e.g. 29' })
      : null,
    gstin: india ? control('billedTo.gstin', { class: 'upper' }) : null,
  };
  const number = control('invoiceNumber');
  const invoiceDate = h('input', { type: 'date', name: 'invoiceDate', dataset: { field: 'invoiceDate' } });
  const dueDate = h('input', { type: 'date', name: 'dueDate', dataset: { field: 'dueDate' } });
  // The invoice's locale (its client's, else the business's) is known once the server previews it.
  const dateFields = [dateField('Invoice date', invoiceDate, undefined), dateField('Due date', dueDate, undefined)];
  const rows = h('ol', { class: 'item-rows', 'aria-label': 'Items' });
  const totals = h('div', { class: 'live-totals', 'aria-live': 'polite', id: 'live-totals' });
  const message = h('div');
  /** @type {ItemRow[]} */
  const items = [];

  const renumber = () =>
    items.forEach((item, i) => {
      for (const [key, input] of Object.entries(item.inputs)) input.dataset.field = `items[${i}].${key}`;
      item.remove.setAttribute('aria-label', `Remove item ${i + 1}`);
    });
  const addItem = () => {
    /** @type {ItemRow['inputs']} */
    const inputs = {
      name: control('item-name'),
      ...(india ? { hsn: control('item-hsn', { inputmode: 'numeric' }) } : {}),
      quantity: control('item-quantity', { inputmode: 'decimal', value: '1' }),
      rate: control('item-rate', { inputmode: 'decimal' }),
      [taxKey]: control('item-tax', { inputmode: 'decimal', value: '0' }),
    };
    const line = h('output', { class: 'item-total', 'aria-label': 'Item total' });
    const remove = h('button', { type: 'button', class: 'secondary small' }, 'Remove');
    /** @type {ItemRow} */
    const item = {
      inputs,
      line,
      remove,
      element: h(
        'li',
        { class: 'item-row' },
        field('Item', inputs.name),
        inputs.hsn ? field('HSN/SAC', inputs.hsn) : null,
        field('Quantity', inputs.quantity),
        field('Rate', inputs.rate),
        field(india ? 'GST %' : 'Tax %', inputs[taxKey]),
        h('div', { class: 'item-line' }, line, remove),
      ),
    };
    item.remove.addEventListener('click', () => {
      if (items.length === 1) return;
      items.splice(items.indexOf(item), 1);
      item.element.remove();
      renumber();
      schedule();
    });
    items.push(item);
    rows.append(item.element);
    renumber();
    return item;
  };

  const body = () => {
    /** @type {Record<string, string>} */
    const billedTo = {};
    for (const [key, input] of Object.entries(buyer)) if (input?.value.trim()) billedTo[key] = input.value.trim();
    if (billedTo.clientId)
      for (const key of ['country', 'gstState']) if (billedTo[key] === business.country) delete billedTo[key];
    /** @type {{ billedTo: Record<string, string>, items: object[], invoiceNumber?: string, invoiceDate?: string, dueDate?: string }} */
    const out = {
      billedTo,
      items: items.map(({ inputs }) => {
        /** @type {{ name: string, quantity: number | string, rate: number | string, hsn?: string } & Record<string, number | string>} */
        const item = {
          name: inputs.name.value.trim(),
          quantity: numeric(inputs.quantity.value),
          rate: numeric(inputs.rate.value),
        };
        item[taxKey] = numeric(inputs[taxKey].value || '0');
        if (inputs.hsn?.value.trim()) item.hsn = inputs.hsn.value.trim();
        return item;
      }),
    };
    if (number.value.trim()) out.invoiceNumber = number.value.trim();
    if (invoiceDate.value) out.invoiceDate = invoiceDate.value;
    if (dueDate.value) out.dueDate = dueDate.value;
    return out;
  };

  const showTotals = (/** @type {InvoicePreview} */ preview) => {
    const { currency, locale, finalTotal } = preview;
    for (const dates of dateFields) dates.setLocale(locale);
    preview.items.forEach((item, i) => {
      if (items[i]) items[i].line.textContent = money(item.total, currency, locale);
    });
    /** @type {[string, Amount | undefined][]} */
    const taxes = india
      ? preview.igst
        ? [['IGST', finalTotal.igst]]
        : [
            ['CGST', finalTotal.cgst],
            ['SGST', finalTotal.sgst],
          ]
      : [['Tax', finalTotal.tax]];
    mount(
      totals,
      h(
        'dl',
        { class: 'facts kv' },
        h('div', {}, h('dt', {}, 'Number'), h('dd', { dataset: { fact: 'number' } }, preview.invoiceNumber)),
        h(
          'div',
          {},
          h('dt', {}, 'Taxable value'),
          h('dd', { dataset: { fact: 'amount' } }, money(finalTotal.amount, currency, locale)),
        ),
        taxes.map(([label, value]) =>
          h(
            'div',
            {},
            h('dt', {}, label),
            h('dd', { dataset: { fact: label.toLowerCase() } }, money(value, currency, locale)),
          ),
        ),
        h(
          'div',
          { class: 'grand' },
          h('dt', {}, 'Total'),
          h('dd', { dataset: { fact: 'total' } }, money(finalTotal.total, currency, locale)),
        ),
      ),
    );
  };

  // Typing runs ahead of the answers: only the latest preview's totals (or errors) are shown.
  const startPreview = latestOnly();
  const refresh = async () => {
    const isLatest = startPreview();
    try {
      /** @type {InvoicePreview} */
      const preview = await api('POST', `${invoicesBase(business)}/invoices/preview`, body());
      if (!isLatest()) return;
      clearFieldErrors(form);
      showTotals(preview);
    } catch (error) {
      if (!isLatest() || error.status === 401) return;
      /** @type {FieldError[]} */
      const errors = error.fieldErrors;
      showLive(form, errors);
      const buyerMissing = errors.some((e) => String(e.field).startsWith('billedTo'));
      mount(
        totals,
        h(
          'p',
          { class: 'muted' },
          buyerMissing
            ? 'Fill in the buyer to see the totals (its state decides the taxes).'
            : 'Fix the marked fields to see the totals.',
        ),
      );
    }
  };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };

  const form = h(
    'form',
    { class: 'form-grid invoice-new', novalidate: true },
    message,
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'buyer-title' },
      h('h2', { id: 'buyer-title' }, 'Billed to'),
      h(
        'div',
        { class: 'settings-grid' },
        field('Client (clientId)', buyer.clientId),
        field('Buyer name', buyer.name),
        field('Country', buyer.country),
        buyer.gstState ? field('GST state code', buyer.gstState) : null,
        buyer.gstin ? field('GSTIN', buyer.gstin) : null,
      ),
    ),
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'dates-title' },
      h('h2', { id: 'dates-title' }, 'Number and dates'),
      h(
        'div',
        { class: 'settings-grid' },
        field('Invoice number', number, 'Leave empty for the next number.'),
        dateFields.map((dates) => dates.element),
      ),
    ),
    h(
      'section',
      { class: 'card form-grid', 'aria-labelledby': 'items-title' },
      h('h2', { id: 'items-title' }, 'Items'),
      rows,
      h(
        'div',
        { class: 'button-row' },
        h('button', { type: 'button', class: 'secondary', onclick: () => addItem().inputs.name.focus() }, 'Add item'),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'totals-title' },
      h('h2', { id: 'totals-title' }, 'Totals'),
      totals,
    ),
  );
  form.addEventListener('input', schedule);
  form.addEventListener('submit', (event) => event.preventDefault());
  const create = actionButton(
    'Create invoice',
    async () => {
      clearFormError(form, message);
      try {
        const invoice = await api('POST', `${invoicesBase(business)}/invoices`, body());
        ctx.setLeaveGuard(null);
        location.hash = `#/invoices/${encodeURIComponent(invoice._id)}`;
      } catch (error) {
        if (error.status !== 401) reportFormError(form, message, error, LABELS);
      }
    },
    { class: 'primary' },
  );
  form.append(h('div', { class: 'form-actions' }, create));
  addItem();
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('p', {}, h('a', { href: '#/invoices' }, '← Back to invoices')),
      h('h1', {}, 'New invoice'),
    ),
    form,
  );
  mount(totals, h('p', { class: 'muted' }, 'Fill in the buyer and an item to see the totals.'));
}
