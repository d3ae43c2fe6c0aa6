// @ts-check
// An invoice's payments (invoices-interface 4.6, 8): the list with removal after a confirmation, and
// the form that records one, with the payment methods the API's document lists.
import { limit } from './api-document.js';
import { api, seg } from './api.js';
import { actionButton, confirmAction, field, h, mount, toast } from './dom.js';
import { dateField } from './date-field.js';
import { clearFormError, reportFormError } from './field-errors.js';
import { day, methodLabel, money, paymentMethods } from './invoice-format.js';

const LABELS = { amount: 'Amount', paymentMethod: 'Method', paymentDate: 'Date', refId: 'Reference', notes: 'Notes' };

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').Invoice} Invoice
 * @typedef {import('./dashboard-types.js').Payment} Payment
 */

/**
 * @param {Business} business
 * @param {Invoice} invoice
 * @param {Payment[]} payments
 * @param {() => Promise<void>} changed runs after a removal
 */
export function paymentsList(business, invoice, payments, changed) {
  const { currency, locale } = invoice;
  const path = (/** @type {Payment} */ payment) =>
    `/businesses/${seg(business.urlKey)}/invoices/${seg(invoice._id)}/payments/${seg(payment._id)}`;
  if (payments.length === 0) return h('p', { class: 'muted' }, 'No payment recorded.');
  return h(
    'ul',
    { class: 'payment-list', 'aria-label': 'Payments' },
    payments.map((payment) =>
      h(
        'li',
        { class: `payment-row${payment.isRemoved ? ' is-removed' : ''}` },
        h(
          'div',
          {},
          h('strong', {}, money(payment.amount, currency, locale)),
          ` · ${day(payment.paymentDate, locale, business.timeZone)}`,
          payment.paymentMethod ? ` · ${methodLabel(payment.paymentMethod)}` : '',
          payment.refId ? ` · ${payment.refId}` : '',
          payment.isRemoved ? h('span', { class: 'badge badge-muted' }, 'Removed') : null,
        ),
        payment.isRemoved
          ? null
          : actionButton(
              'Remove',
              async () => {
                const sure = await confirmAction(
                  'Remove this payment?',
                  `The payment of ${money(payment.amount, currency, locale)} stops counting: the invoice's status and the client's balance change with it.`,
                  'Remove payment',
                  true,
                );
                if (!sure) return;
                await api('DELETE', path(payment));
                await changed();
                toast('Payment removed.');
              },
              {
                class: 'secondary small',
                'aria-label': `Remove the payment of ${money(payment.amount, currency, locale)}`,
              },
            ),
      ),
    ),
  );
}

/**
 * @param {Business} business
 * @param {Invoice} invoice
 * @param {() => Promise<void>} changed runs after a payment is recorded
 */
export async function paymentForm(business, invoice, changed) {
  const methods = await paymentMethods();
  const amount = h('input', {
    type: 'text',
    name: 'amount',
    inputmode: 'decimal',
    value: String(invoice.amountDue),
    dataset: { field: 'amount' },
  });
  const method = h(
    'select',
    { name: 'paymentMethod', dataset: { field: 'paymentMethod' } },
    h('option', { value: '' }, 'Not given'),
    methods.map((m) => h('option', { value: m }, methodLabel(m))),
  );
  const date = h('input', { type: 'date', name: 'paymentDate', dataset: { field: 'paymentDate' } });
  const refId = h('input', {
    type: 'text',
    name: 'refId',
    maxlength: limit('PaymentCreate.refId'),
    dataset: { field: 'refId' },
  });
  const notes = h('input', { type: 'text', name: 'notes', dataset: { field: 'notes' } });
  const message = h('div');
  const form = h(
    'form',
    { class: 'form-grid payment-form', novalidate: true, 'aria-label': 'Record a payment' },
    message,
    h(
      'div',
      { class: 'settings-grid' },
      field('Amount', amount),
      field('Method', method),
      dateField('Date', date, invoice.locale).element,
      field('Reference', refId),
    ),
    field('Notes', notes),
  );
  const record = actionButton(
    'Record payment',
    async () => {
      clearFormError(form, message);
      const text = amount.value.trim();
      /** @type {Record<string, unknown>} */
      const body = { amount: /^\d+(\.\d+)?$/.test(text) ? Number(text) : text };
      if (method.value) body.paymentMethod = method.value;
      if (date.value) body.paymentDate = date.value;
      if (refId.value.trim()) body.refId = refId.value.trim();
      if (notes.value.trim()) body.notes = notes.value.trim();
      try {
        await api('POST', `/businesses/${seg(business.urlKey)}/invoices/${seg(invoice._id)}/payments`, body);
        await changed();
        toast('Payment recorded.');
      } catch (error) {
        if (error.status === 401) return;
        // PAYMENT_EXCEEDS_DUE names no field: it belongs beside the amount all the same.
        if (error.code === 'PAYMENT_EXCEEDS_DUE' && error.fieldErrors.length === 0)
          error.fieldErrors = [{ field: 'amount', message: error.message, code: error.code }];
        reportFormError(form, message, error, LABELS);
      }
    },
    { class: 'primary' },
  );
  form.append(h('div', { class: 'form-actions' }, record));
  form.addEventListener('submit', (event) => event.preventDefault());
  mount(message);
  return form;
}
