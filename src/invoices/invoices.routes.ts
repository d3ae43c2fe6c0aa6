import { AppError } from '../errors/app-error.js';
import { feature, type FeatureEnv } from '../feature.js';
import { noBody, refuseBare, rejectQuery } from '../http/replies.js';
import { operationsOf, ref, type ApiSection, type Operation, type OperationDoc } from '../openapi/operation.js';
import { publicUrlOf } from '../config.js';
import type { Services } from '../services.js';
import { InvoiceSettings } from './invoice-settings.service.js';
import { flagQuery, readCancelPatch } from './invoices.query.js';
import {
  CREATE_CODES,
  EMPTY,
  EXAMPLE_CREATE,
  EXAMPLE_PAYMENT,
  FIND_CODES,
  FIND_QUERY,
  FIND_TEXT,
  INVOICE_SCHEMAS,
  invoiceKey,
  urlKey,
} from './invoices.openapi.js';
import { InvoicesService } from './invoices.service.js';
import { invoicesOperatorApi } from './invoices.operator.js';
import { PaymentsService } from './payments.service.js';

export const INVOICES = '/api/v1/businesses/:urlKey/invoices';
/** The vendor's unprefixed paths: the same operations (invoices-interface, introduction). */
export const INVOICES_ALIAS = '/businesses/:urlKey/invoices';
export const ADMIN = '/admin/v1/businesses/:urlKey';

export interface InvoicesContext {
  invoices: InvoicesService;
  payments: PaymentsService;
  settings: InvoiceSettings;
  services: Services;
}

/** The invoice services of one app (the documents feature reads invoices through the same ones). */
export const invoicesContext = ({ deps, services }: FeatureEnv): InvoicesContext => {
  const now = () => deps.clock.now();
  const settings = new InvoiceSettings(deps.store, now);
  const invoices = new InvoicesService(
    deps.store,
    services.leadContexts,
    settings,
    now,
    services.events,
    publicUrlOf(deps.config),
    services.mail,
  );
  return { invoices, settings, payments: new PaymentsService(deps.store, invoices, now, services.events), services };
};

const operation = operationsOf<InvoicesContext>();
const flag = (name: string, description: string) => [{ name, description, schema: { enum: ['true', 'false'] } }];

/** The app's operations under one base (the prefixed path, or its vendor alias). */
function publicOperations(base: typeof INVOICES | typeof INVOICES_ALIAS, suffix: string): Operation<InvoicesContext>[] {
  return [
    operation({
      method: 'post',
      path: base,
      operationId: `createInvoice${suffix}`,
      guard: 'app',
      pathParams: urlKey,
      idempotencyKey: true,
      summary: 'Create an invoice (idempotent by invoiceNumber)',
      description:
        'Validated whole (every failure in one 400, the first in body order leading); the invoice, a client it creates for a new buyer, its number and its events are one transaction. A taken invoiceNumber with the same details answers 201 with the invoice as it is now and `idempotent: true`; with other details 409 with `data.error.existingInvoiceId`.',
      body: {
        required: true,
        schema: ref('InvoiceCreate'),
        examples: { vendor: { summary: 'The vendor example: intra-state GST, a new buyer', value: EXAMPLE_CREATE } },
      },
      answers: [{ status: 201, description: 'The invoice.', schema: ref('InvoiceCreated') }],
      errors: CREATE_CODES,
      bodyErrors: ['CLIENT_NOT_FOUND'],
      handler:
        ({ invoices }) =>
        async (request, reply) => {
          rejectQuery(request);
          const { invoice, idempotent } = await invoices.create(
            request.params.urlKey,
            request.body,
            request.idempotencyClaim ?? null,
          );
          reply.code(201);
          return idempotent ? { ...invoice, idempotent: true } : invoice;
        },
    }),
    operation({
      method: 'get',
      path: base,
      operationId: `findInvoices${suffix}`,
      guard: 'app',
      pathParams: urlKey,
      query: FIND_QUERY,
      summary: 'Find invoices',
      description: FIND_TEXT,
      answers: [{ status: 200, description: 'One page.', schema: ref('InvoicePage') }],
      errors: FIND_CODES,
      handler:
        ({ invoices }) =>
        async (request, reply) => {
          const text = await invoices.findText(request.params.urlKey, request.query as Record<string, unknown>);
          // Already JSON (presentPageText): sent as it is, with the type an object's answer gets.
          reply.type('application/json; charset=utf-8');
          return text;
        },
    }),
    operation({
      method: 'get',
      path: `${base}/:invoiceId`,
      operationId: `getInvoice${suffix}`,
      guard: 'app',
      compress: false,
      pathParams: invoiceKey,
      summary: 'Get an invoice',
      description: "Unknown, malformed and other businesses' ids answer the same 404. No query parameters.",
      answers: [{ status: 200, description: 'The invoice.', schema: ref('Invoice') }],
      errors: ['INVALID_QUERY_FIELD', 'INVOICE_NOT_FOUND'],
      handler:
        ({ invoices }) =>
        async (request, reply) => {
          rejectQuery(request);
          const text = await invoices.getText(request.params.urlKey, request.params.invoiceId);
          // Already JSON (presentInvoiceText): sent as it is, with the type an object's answer gets.
          reply.type('application/json; charset=utf-8');
          return text;
        },
    }),
    operation({
      method: 'patch',
      path: `${base}/:invoiceId`,
      operationId: `cancelInvoice${suffix}`,
      guard: 'app',
      pathParams: invoiceKey,
      query: flag('cancelPayment', 'true: live payments are removed with the cancel.'),
      summary: "Cancel an invoice (the vendor's PATCH)",
      description:
        'Exactly {"status": "CANCELED"}. Live payments need cancelPayment=true (else 409 INVOICE_HAS_PAYMENTS). A canceled invoice answers as it is.',
      body: {
        required: true,
        schema: ref('InvoiceCancel'),
        examples: { cancel: { summary: 'Cancel', value: { status: 'CANCELED' } } },
      },
      answers: [{ status: 200, description: 'The invoice plus `payments: []`.', schema: ref('InvoiceCanceled') }],
      errors: [
        'INVALID_FIELD_VALUE',
        'INVALID_QUERY_FIELD',
        'INVALID_QUERY_VALUE',
        'INVOICE_NOT_FOUND',
        'INVOICE_HAS_PAYMENTS',
      ],
      handler:
        ({ payments }) =>
        async (request) => {
          const cancelPayment = flagQuery(request, 'cancelPayment');
          readCancelPatch(request.body);
          return payments.cancel(request.params.urlKey, request.params.invoiceId, cancelPayment);
        },
    }),
    operation({
      method: 'post',
      path: `${base}/:invoiceId/cancel`,
      operationId: `cancelInvoicePost${suffix}`,
      guard: 'app',
      pathParams: invoiceKey,
      query: flag('cancelPayment', 'true: live payments are removed with the cancel.'),
      summary: 'Cancel an invoice',
      description: 'As PATCH, without a body (none, empty, or {}).',
      body: { required: false, schema: EMPTY },
      answers: [{ status: 200, description: 'The invoice plus `payments: []`.', schema: ref('InvoiceCanceled') }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'INVOICE_NOT_FOUND', 'INVOICE_HAS_PAYMENTS'],
      handler:
        ({ payments }) =>
        async (request) => {
          const cancelPayment = flagQuery(request, 'cancelPayment');
          noBody(request);
          return payments.cancel(request.params.urlKey, request.params.invoiceId, cancelPayment);
        },
    }),
    operation({
      method: 'post',
      path: `${base}/:invoiceId/payments`,
      operationId: `recordPayment${suffix}`,
      guard: 'app',
      pathParams: invoiceKey,
      idempotencyKey: true,
      summary: 'Record a payment',
      description:
        'Checks: 400 (body) → 404 → 409 INVOICE_CANCELED → 400 PAYMENT_EXCEEDS_DUE (`data.error.amountDue`). Concurrent payments never over-settle.',
      body: {
        required: true,
        schema: ref('PaymentCreate'),
        examples: { upi: { summary: 'A UPI payment', value: EXAMPLE_PAYMENT } },
      },
      answers: [{ status: 201, description: 'The payment.', schema: ref('Payment') }],
      errors: [
        'INVALID_FIELD_VALUE',
        'INVALID_QUERY_FIELD',
        'INVOICE_NOT_FOUND',
        'INVOICE_CANCELED',
        'PAYMENT_EXCEEDS_DUE',
      ],
      handler:
        ({ payments }) =>
        async (request, reply) => {
          rejectQuery(request);
          const payment = await payments.record(
            request.params.urlKey,
            request.params.invoiceId,
            request.body,
            request.callerApp?.appId ?? null,
            request.idempotencyClaim ?? null,
          );
          reply.code(201);
          return payment;
        },
    }),
    operation({
      method: 'get',
      path: `${base}/:invoiceId/payments`,
      operationId: `listPayments${suffix}`,
      guard: 'app',
      pathParams: invoiceKey,
      query: flag('includeRemoved', 'true: removed payments too.'),
      summary: "An invoice's payments",
      description: 'Live ones by createdAt, _id.',
      answers: [{ status: 200, description: 'The payments.', schema: ref('PaymentList') }],
      errors: ['INVALID_QUERY_FIELD', 'INVALID_QUERY_VALUE', 'INVOICE_NOT_FOUND'],
      handler:
        ({ payments }) =>
        async (request) => ({
          payments: await payments.list(
            request.params.urlKey,
            request.params.invoiceId,
            flagQuery(request, 'includeRemoved'),
          ),
        }),
    }),
    ...EINVOICING.map(([method, tail, id]) =>
      operation({
        method,
        path: `${base}/:invoiceId/${tail}`,
        operationId: `${id}${suffix}`,
        guard: 'app',
        pathParams: invoiceKey,
        summary: `The vendor's ${tail} (not available)`,
        description:
          'After auth and INVOICE_NOT_FOUND: 501 EINVOICING_UNAVAILABLE; crmkit has no link to the government portals.',
        errors: ['INVOICE_NOT_FOUND', 'EINVOICING_UNAVAILABLE'],
        handler:
          ({ invoices }) =>
          async (request) => {
            await invoices.get(request.params.urlKey, request.params.invoiceId);
            throw new AppError(
              'EINVOICING_UNAVAILABLE',
              'E-invoicing is not available in crmkit: it has no link to the government portals',
            );
          },
      }),
    ),
    ...REFUSALS.flatMap(([tail, methods]) => methods.map((method) => bareRefusal(method, `${base}${tail}`, suffix))),
  ];
}

const EINVOICING: [OperationDoc['method'], string, string][] = [
  ['post', 'irn', 'invoiceIrn'],
  ['post', 'ewayBill', 'invoiceEwayBill'],
  ['patch', 'ewaybill/vehicle', 'invoiceEwaybillVehicle'],
  ['patch', 'ewaybill/transporter', 'invoiceEwaybillTransporter'],
];

/** 4.8: the status alone, before any authentication. The PDF route's refusals come with the PDF. */
const REFUSALS: [string, OperationDoc['method'][]][] = [
  ['', ['put', 'delete', 'patch']],
  ['/:invoiceId', ['put', 'delete']],
  ['/:invoiceId/payments', ['put', 'patch', 'delete']],
  ['/:invoiceId/cancel', ['get', 'put', 'patch', 'delete']],
];

function bareRefusal(method: OperationDoc['method'], path: string, suffix: string): Operation {
  const name = path.endsWith('payments')
    ? 'Payments'
    : path.endsWith('cancel')
      ? 'Cancel'
      : path.endsWith(':invoiceId')
        ? 'Invoice'
        : 'Invoices';
  return {
    method,
    path,
    operationId: `${method}${name}Refused${suffix}`,
    guard: 'open',
    pathParams: path.includes(':invoiceId') ? invoiceKey : urlKey,
    refusal: 'bare',
    summary: 'Not supported (405)',
    description: 'Not offered by the invoices interface; 405, the status alone, before any authentication.',
    handler: () => refuseBare,
  };
}

export const invoicesApi: ApiSection<InvoicesContext> = {
  tag: {
    name: 'Invoices',
    description:
      "Invoices and payments (invoices-interface.md): create (idempotent by invoiceNumber), get, cancel, payments; the vendor's unprefixed paths are aliases.",
  },
  schemas: INVOICE_SCHEMAS,
  operations: [...publicOperations(INVOICES, ''), ...publicOperations(INVOICES_ALIAS, 'Alias')],
};

export { invoicesOperatorApi };

/** Invoices: the app's operations (with their aliases, 405s and 501s) and the operator's (section 8). */
export const invoicesFeature = feature({ sections: [invoicesApi, invoicesOperatorApi], context: invoicesContext });
