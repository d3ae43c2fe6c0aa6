import { ok } from '../http/replies.js';
import { closedObject } from '../validation/json-schema.js';
import { bodyJsonSchema } from '../validation/read-body.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { InvoiceDashboardContext } from './invoice-dashboard.feature.js';
import { NUMBERING_PREVIEW_SPEC } from './invoice-settings.service.js';
import { rejectQuery } from '../http/replies.js';
import { CREATE_CODES, EXAMPLE_CREATE, FIND_CODES, FIND_QUERY, urlKey } from './invoices.openapi.js';
import { ADMIN } from './invoices.routes.js';

/**
 * The dashboard asks the server instead of keeping a second copy of its rules (docs/decisions.md
 * "Dashboard invoice pages"): an invoice's totals before it is created, the next number a numbering would
 * give, and the sums of what the list's filters select. Nothing here writes.
 */

const operation = operationsOf<InvoiceDashboardContext>();
const decimal = (description: string) => ({ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

export const invoicePreviewOperatorApi: ApiSection<InvoiceDashboardContext> = {
  tag: {
    name: 'Operator: invoice previews and totals',
    description: "What the dashboard's invoice pages show live; computed by the create's own rules, never stored.",
  },
  schemas: {
    InvoicePreview: {
      type: 'object',
      description: 'The invoice create would store, before it exists: no _id, share, payments or timestamps.',
      required: ['invoiceNumber', 'currency', 'billedBy', 'billedTo', 'items', 'finalTotal', 'status', 'locale'],
      properties: {
        invoiceNumber: { type: 'string', description: 'As sent, else the number a create would get now.' },
        currency: { type: 'string', description: 'ISO 4217.' },
        igst: { type: 'boolean', description: 'INDIA only: inter-state supply, as the create would decide it.' },
        billedBy: { type: 'object', description: 'The seller after defaults.' },
        billedTo: { type: 'object', description: 'The buyer after defaults (a linked client fills what is omitted).' },
        items: { type: 'array', items: { type: 'object' }, description: "Taxed items, each regime's members." },
        finalTotal: {
          type: 'object',
          description: 'Sums of the items, charges and the total, as an invoice has them.',
        },
        status: { enum: ['UNPAID', 'PAID'], description: 'PAID when the total is 0, as at create.' },
        locale: { type: 'string', description: 'The locale the invoice would be written in.' },
      },
    },
    InvoiceNumberingPreviewInput: bodyJsonSchema(
      NUMBERING_PREVIEW_SPEC,
      'A numbering, as PUT invoice-settings takes it.',
    ),
    InvoiceNumberPreview: closedObject(
      { nextInvoiceNumber: { type: 'string', description: 'The number the next invoice without one would get.' } },
      ['nextInvoiceNumber'],
    ),
    InvoiceTotals: closedObject(
      {
        locale: {
          type: 'string',
          description:
            "The business's locale (an invoice's default, 4.1), to write these figures in: en-IN ₹11,23,000.00.",
        },
        currencies: {
          type: 'array',
          description: 'One entry per currency the selected invoices are in, by currency code; never converted.',
          items: closedObject(
            {
              currency: { type: 'string', description: 'ISO 4217.' },
              count: { type: 'integer', description: 'Invoices selected, canceled ones included.' },
              invoiced: decimal('Σ finalTotal.total of the selected invoices not canceled; exact decimal text.'),
              collected: decimal('Σ amountPaid; exact decimal text.'),
              due: decimal('Σ amountDue (invoiced − collected); exact decimal text.'),
            },
            ['currency', 'count', 'invoiced', 'collected', 'due'],
          ),
        },
      },
      ['locale', 'currencies'],
    ),
  },
  operations: [
    operation({
      method: 'post',
      path: `${ADMIN}/invoices/preview`,
      operationId: 'operatorPreviewInvoice',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Preview an invoice without creating it',
      description:
        'The body of a create, validated and computed as create does (every failure in one 400), nothing stored: items with their taxes, finalTotal, parties after defaults. invoiceNumber is the one sent, else the number a create would get now.',
      body: {
        required: true,
        schema: ref('InvoiceCreate'),
        examples: { vendor: { summary: "The vendor's example", value: EXAMPLE_CREATE } },
      },
      answers: [{ status: 200, description: 'The invoice it would be.', schema: success(ref('InvoicePreview')) }],
      errors: [...CREATE_CODES.filter((code) => code !== 'IDEMPOTENCY_CONFLICT'), 'BUSINESS_NOT_FOUND'],
      bodyErrors: ['CLIENT_NOT_FOUND'],
      handler: (c) => async (request) => {
        rejectQuery(request);
        return ok(await c.invoices.preview(request.params.urlKey, request.body));
      },
    }),
    operation({
      method: 'post',
      path: `${ADMIN}/invoice-settings/numbering-preview`,
      operationId: 'operatorPreviewInvoiceNumbering',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'The next invoice number a numbering would give',
      description:
        'Read as PUT invoice-settings reads numbering (the same field errors and defaults), not saved: prefix + padded nextNumber, taken numbers skipped.',
      body: {
        required: true,
        schema: ref('InvoiceNumberingPreviewInput'),
        examples: {
          series: {
            summary: 'A yearly series',
            value: { numbering: { prefix: 'INV/2026-27/', padding: 4, nextNumber: 1 } },
          },
        },
      },
      answers: [{ status: 200, description: 'The number.', schema: success(ref('InvoiceNumberPreview')) }],
      errors: ['INVALID_FIELD_VALUE', 'INVALID_QUERY_FIELD', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        rejectQuery(request);
        const { business } = await c.invoices.context(request.params.urlKey);
        const numbering = c.settings.readNumbering(request.body, business);
        return ok({ nextInvoiceNumber: await c.invoices.nextNumber(request.params.urlKey, numbering) });
      },
    }),
    operation({
      method: 'get',
      path: `${ADMIN}/invoice-totals`,
      operationId: 'operatorInvoiceTotals',
      guard: 'operator',
      pathParams: urlKey,
      query: FIND_QUERY.filter((p) => !p.name.startsWith('$') && p.name !== 'updatedAtFrom' && p.name !== 'after'),
      summary: 'Totals of the invoices a filter selects',
      description:
        "GET invoices' filters (client, status, invoiceNumber, invoiceDate bounds); paging and sync parameters are INVALID_QUERY_FIELD. Per currency: count, invoiced, collected, due.",
      answers: [{ status: 200, description: 'The sums.', schema: success(ref('InvoiceTotals')) }],
      errors: [...FIND_CODES.filter((code) => !code.startsWith('INVALID_PAGINATION')), 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) =>
        ok(await c.totals.of(request.params.urlKey, request.query as Record<string, unknown>)),
    }),
  ],
};
