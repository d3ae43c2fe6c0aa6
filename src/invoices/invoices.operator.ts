import type { FastifyRequest } from 'fastify';
import { noBody, ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import { flagQuery } from './invoices.query.js';
import {
  CREATE_CODES,
  EMPTY,
  EXAMPLE_CREATE,
  EXAMPLE_PAYMENT,
  EXAMPLE_SETTINGS,
  FIND_CODES,
  FIND_QUERY,
  FIND_TEXT,
  invoiceKey,
  urlKey,
} from './invoices.openapi.js';
import type { InvoicesContext } from './invoices.routes.js';

/**
 * The operator's invoice actions (invoices-interface 8), audit-logged like the rest of the operator API:
 * the audit line is data handed to the service and written in the change's own transaction, so a change
 * is never kept without its line, nor a line without its change (a refused or identical request writes none).
 */

const ADMIN = '/admin/v1/businesses/:urlKey';
const operation = operationsOf<InvoicesContext>();
const audit = (
  c: InvoicesContext,
  request: FastifyRequest<{ Params: { urlKey: string; invoiceId?: string } }>,
  action: string,
  detail: Record<string, unknown> = {},
) => c.services.audit.entryOf(request, action, request.params.urlKey, detail);
const paymentKey = { ...invoiceKey, paymentId: "The payment's _id." };

export const invoicesOperatorApi: ApiSection<InvoicesContext> = {
  tag: {
    name: 'Operator: invoices',
    description: "The dashboard's invoice actions and settings; needs an operator session.",
  },
  operations: [
    operation({
      method: 'get',
      path: `${ADMIN}/invoice-settings`,
      operationId: 'operatorGetInvoiceSettings',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Invoice settings',
      description: 'Billing details, numbering and default terms; the defaults until saved.',
      answers: [{ status: 200, description: 'The settings.', schema: success(ref('InvoiceSettings')) }],
      errors: ['BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        const { business } = await c.invoices.context(request.params.urlKey);
        return ok(await c.settings.get(request.params.urlKey, business));
      },
    }),
    operation({
      method: 'put',
      path: `${ADMIN}/invoice-settings`,
      operationId: 'operatorPutInvoiceSettings',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Replace the invoice settings',
      description:
        'All three members required. A saved numbering starts the series: the next auto number is prefix + padded nextNumber (taken ones skipped). Existing invoices never change.',
      body: {
        required: true,
        schema: ref('InvoiceSettingsInput'),
        examples: {
          acme: { summary: 'Billing details from a GSTIN, a numbering, default terms', value: EXAMPLE_SETTINGS },
        },
      },
      answers: [{ status: 200, description: 'The settings.', schema: success(ref('InvoiceSettings')) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        const { business } = await c.invoices.context(request.params.urlKey);
        const entry = audit(c, request, 'invoice-settings.put');
        return ok(await c.settings.put(request.params.urlKey, request.body, business, entry));
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN}/invoices`,
      operationId: 'operatorCreateInvoice',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Create an invoice in the dashboard',
      description: "As the app's create.",
      body: {
        required: true,
        schema: ref('InvoiceCreate'),
        examples: { vendor: { summary: "The vendor's example", value: EXAMPLE_CREATE } },
      },
      answers: [{ status: 201, description: 'The invoice.', schema: success(ref('InvoiceCreated')) }],
      errors: [...CREATE_CODES, 'BUSINESS_NOT_FOUND'],
      bodyErrors: ['CLIENT_NOT_FOUND'],
      handler: (c) => async (request, reply) => {
        const entry = audit(c, request, 'invoice.create');
        const { invoice, idempotent } = await c.invoices.create(request.params.urlKey, request.body, null, entry);
        reply.code(201);
        return ok(idempotent ? { ...invoice, idempotent: true } : invoice);
      },
    }),
    operation({
      method: 'get',
      path: `${ADMIN}/invoices`,
      operationId: 'operatorFindInvoices',
      guard: 'operator',
      pathParams: urlKey,
      query: FIND_QUERY,
      summary: 'Find invoices',
      description: FIND_TEXT,
      answers: [{ status: 200, description: 'One page.', schema: success(ref('InvoicePage')) }],
      errors: [...FIND_CODES, 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) =>
        ok(await c.invoices.find(request.params.urlKey, request.query as Record<string, unknown>)),
    }),
    operation({
      method: 'get',
      path: `${ADMIN}/invoices/:invoiceId`,
      operationId: 'operatorGetInvoice',
      guard: 'operator',
      compress: false,
      pathParams: invoiceKey,
      summary: 'An invoice with every payment',
      description: 'Removed payments included.',
      answers: [
        { status: 200, description: 'The invoice and its payments.', schema: success(ref('InvoiceWithPayments')) },
      ],
      errors: ['INVOICE_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        await c.invoices.context(request.params.urlKey);
        const invoice = await c.invoices.get(request.params.urlKey, request.params.invoiceId);
        return ok({
          ...invoice,
          payments: await c.payments.list(request.params.urlKey, request.params.invoiceId, true),
        });
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN}/invoices/:invoiceId/payments`,
      operationId: 'operatorRecordPayment',
      guard: 'operator',
      pathParams: invoiceKey,
      summary: 'Record a payment',
      description: 'As 4.6; appId null.',
      body: {
        required: true,
        schema: ref('PaymentCreate'),
        examples: { upi: { summary: 'A UPI payment', value: EXAMPLE_PAYMENT } },
      },
      answers: [{ status: 201, description: 'The payment.', schema: success(ref('Payment')) }],
      errors: [
        'INVALID_FIELD_VALUE',
        'INVOICE_NOT_FOUND',
        'INVOICE_CANCELED',
        'PAYMENT_EXCEEDS_DUE',
        'BUSINESS_NOT_FOUND',
      ],
      handler: (c) => async (request, reply) => {
        const { urlKey, invoiceId } = request.params;
        const entry = audit(c, request, 'invoice.payment.record', { invoiceId });
        const payment = await c.payments.record(urlKey, invoiceId, request.body, null, null, entry);
        reply.code(201);
        return ok(payment);
      },
    }),
    operation({
      method: 'delete',
      path: `${ADMIN}/invoices/:invoiceId/payments/:paymentId`,
      operationId: 'operatorRemovePayment',
      guard: 'operator',
      pathParams: paymentKey,
      summary: 'Remove a payment',
      description: 'The payment becomes isRemoved; the status is recomputed; `invoice.payment_removed` is sent.',
      body: { required: false, schema: EMPTY },
      answers: [
        {
          status: 200,
          description: 'The invoice after it, and the removed payment.',
          schema: success(ref('PaymentRemoved')),
        },
      ],
      errors: ['INVOICE_NOT_FOUND', 'PAYMENT_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, invoiceId, paymentId } = request.params;
        const entry = audit(c, request, 'invoice.payment.remove', { invoiceId, paymentId });
        return ok(await c.payments.remove(urlKey, invoiceId, paymentId, entry));
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN}/invoices/:invoiceId/cancel`,
      operationId: 'operatorCancelInvoice',
      guard: 'operator',
      pathParams: invoiceKey,
      query: [
        {
          name: 'cancelPayment',
          description: 'true: live payments are removed with it.',
          schema: { enum: ['true', 'false'] },
        },
      ],
      summary: 'Cancel an invoice',
      description: 'As 4.5.',
      body: { required: false, schema: EMPTY },
      answers: [
        { status: 200, description: 'The invoice plus `payments: []`.', schema: success(ref('InvoiceCanceled')) },
      ],
      errors: [
        'INVALID_QUERY_FIELD',
        'INVALID_QUERY_VALUE',
        'INVOICE_NOT_FOUND',
        'INVOICE_HAS_PAYMENTS',
        'BUSINESS_NOT_FOUND',
      ],
      handler: (c) => async (request) => {
        const cancelPayment = flagQuery(request, 'cancelPayment');
        noBody(request);
        const { urlKey, invoiceId } = request.params;
        const entry = audit(c, request, 'invoice.cancel', { invoiceId });
        return ok(await c.payments.cancel(urlKey, invoiceId, cancelPayment, entry));
      },
    }),
  ],
};
