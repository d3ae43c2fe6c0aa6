// @ts-check
// One invoice (#/invoices/<_id>, invoices-interface 8): its figures, the real PDF, payments (record,
// remove), cancel with or without removing payments (4.5), and its share link (copy, revoke).
import { api, seg } from './api.js';
import { actionButton, confirmAction, copyText, errorBanner, field, h, mount, openDialog, toast } from './dom.js';
import { day, money, statusChip } from './invoice-format.js';
import { paymentForm, paymentsList } from './invoice-payments.js';
import { pdfPreview } from './invoice-pdf.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').OperatorSchemas['InvoiceWithPayments']} StoredInvoice
 * @typedef {StoredInvoice & { billedTo: Record<string, any>, finalTotal: Record<string, any> }}
 *   InvoiceWithPayments billedTo and finalTotal as the page reads them (the document gives both only as objects)
 */

/**
 * @param {InvoiceWithPayments} invoice
 * @param {Business} business
 */
function facts(invoice, business) {
  const { currency, locale } = invoice;
  /** @type {(label: string, value: import('./dom.js').Child, key: string) => HTMLElement} */
  const row = (label, value, key) => h('div', {}, h('dt', {}, label), h('dd', { dataset: { fact: key } }, value));
  return h(
    'dl',
    { class: 'facts kv invoice-facts' },
    row(
      'Billed to',
      h('a', { href: `#/client-list/${encodeURIComponent(invoice.client)}` }, invoice.billedTo.name ?? invoice.client),
      'buyer',
    ),
    row('Invoice date', day(invoice.invoiceDate, locale, business.timeZone), 'date'),
    row('Due date', day(invoice.dueDate, locale, business.timeZone), 'due-date'),
    row('Total', money(invoice.finalTotal.total, currency, locale), 'total'),
    row('Paid', money(invoice.amountPaid, currency, locale), 'paid'),
    row('Due', money(invoice.amountDue, currency, locale), 'due'),
  );
}

/**
 * @param {string} base
 * @param {InvoiceWithPayments} invoice
 * @param {unknown[]} livePayments
 * @param {() => Promise<void>} changed
 */
function cancelAction(base, invoice, livePayments, changed) {
  return actionButton(
    'Cancel invoice',
    async () => {
      const count = livePayments.length;
      const choice = await openDialog({
        title: `Cancel invoice ${invoice.invoiceNumber}?`,
        body: h(
          'p',
          {},
          count === 0
            ? 'It keeps its number and stays readable, stamped CANCELED; nothing is owed on it any more.'
            : `It has ${count} payment${count === 1 ? '' : 's'}. Canceling removes ${count === 1 ? 'it' : 'them'} too; or keep the invoice as it is.`,
        ),
        actions: [
          { label: 'Keep the invoice', value: null, class: 'secondary' },
          count === 0
            ? { label: 'Cancel invoice', value: 'false', class: 'danger' }
            : { label: `Remove payments and cancel`, value: 'true', class: 'danger' },
        ],
      });
      if (!choice) return;
      await api('POST', `${base}/cancel?cancelPayment=${choice}`);
      await changed();
      toast(`Invoice ${invoice.invoiceNumber} canceled.`);
    },
    { class: 'danger' },
  );
}

/**
 * @param {string} base
 * @param {InvoiceWithPayments} invoice
 * @param {() => Promise<void>} changed
 */
function shareCard(base, invoice, changed) {
  const link = h('input', { type: 'text', readonly: true, value: invoice.share.link, name: 'share-link' });
  const copy = actionButton(
    'Copy link',
    async () => {
      toast((await copyText(invoice.share.link)) ? 'Link copied.' : 'The link could not be copied: select it instead.');
    },
    { class: 'secondary' },
  );
  const revoke = actionButton(
    'Revoke link',
    async () => {
      const sure = await confirmAction(
        'Revoke the share link?',
        'Whoever holds the current link can no longer open the invoice. A new link replaces it.',
        'Revoke link',
        true,
      );
      if (!sure) return;
      await api('POST', `${base}/share-link/revoke`);
      await changed();
      toast('Link revoked: a new one replaces it.');
    },
    { class: 'secondary' },
  );
  return h(
    'section',
    { class: 'card form-grid', 'aria-labelledby': 'share-title' },
    h('h2', { id: 'share-title' }, 'Share link'),
    field('Public link (read-only view)', link),
    h('div', { class: 'button-row' }, copy, revoke),
  );
}

/**
 * @param {HTMLElement} main
 * @param {import('./dashboard-types.js').ViewContext & { business: Business }} ctx
 * @param {string} invoiceId
 */
export async function renderInvoiceDetail(main, ctx, invoiceId) {
  const base = `/businesses/${seg(ctx.business.urlKey)}/invoices/${seg(invoiceId)}`;
  /** @type {InvoiceWithPayments} */
  let invoice;
  try {
    invoice = await api('GET', base);
  } catch (error) {
    if (error.status !== 404) throw error;
    mount(
      main,
      h('h1', {}, 'Invoice not found'),
      h(
        'div',
        { class: 'empty card' },
        h('p', {}, `No invoice “${invoiceId}” in ${ctx.business.name}.`),
        h('a', { href: '#/invoices', class: 'button primary' }, 'Back to invoices'),
      ),
    );
    return;
  }
  const changed = () =>
    renderInvoiceDetail(main, ctx, invoiceId).catch((error) => main.prepend(errorBanner(error.message)));
  const live = invoice.payments.filter((p) => !p.isRemoved);
  const open = invoice.status !== 'CANCELED';
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('p', {}, h('a', { href: '#/invoices' }, '← Back to invoices')),
      h('h1', {}, `Invoice ${invoice.invoiceNumber} `, statusChip(invoice.status)),
    ),
    h(
      'div',
      { class: 'two-columns' },
      h(
        'div',
        { class: 'form-grid' },
        h(
          'section',
          { class: 'card', 'aria-label': 'Figures' },
          facts(invoice, ctx.business),
          open ? h('div', { class: 'button-row' }, cancelAction(base, invoice, live, changed)) : null,
        ),
        h(
          'section',
          { class: 'card form-grid', 'aria-labelledby': 'payments-title' },
          h('h2', { id: 'payments-title' }, 'Payments'),
          paymentsList(ctx.business, invoice, invoice.payments, changed),
          open && invoice.amountDue > 0 ? await paymentForm(ctx.business, invoice, changed) : null,
        ),
        shareCard(base, invoice, changed),
      ),
      h('section', { class: 'card', 'aria-label': 'PDF' }, pdfPreview(ctx.business, invoice)),
    ),
  );
}
