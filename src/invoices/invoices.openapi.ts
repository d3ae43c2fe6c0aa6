import type { ErrorCode } from '../errors/codes.js';
import { ref } from '../openapi/operation.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema, EMPTY_BODY } from '../validation/read-body.js';
import { SETTINGS_SPEC } from './invoice-settings.service.js';
import { INVOICE_SPEC, PAYMENT_METHODS, PAYMENT_SPEC } from './invoice.schema.js';
import { TAX_REGIMES } from './invoice.tax.js';
import { FIND_LIMITS } from './invoices.find.js';

/** The invoices' named schemas: request bodies from invoice.schema.ts's tables, answers as invoice.present.ts shapes them. */

const text = (description: string): JsonSchema => ({ type: 'string', description });
const instant = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const money = (description: string): JsonSchema => ({ type: 'number', description });
const object = (description: string): JsonSchema => ({ type: 'object', description });
const list = (items: JsonSchema, description: string): JsonSchema => ({ type: 'array', items, description });

export const INVOICE_STATUSES = ['UNPAID', 'PARTIALLY_PAID', 'PAID', 'CANCELED'] as const;

const INVOICE_MEMBERS: Record<string, JsonSchema> = {
  _id: { type: 'string', pattern: '^[0-9a-f]{24}$', description: '24 lowercase hex characters; never reused.' },
  invoiceNumber: text('Unique in the business.'),
  invoiceDate: instant('UTC, milliseconds.'),
  dueDate: instant('Omitted when unset.'),
  billType: { enum: ['INVOICE', 'BOS'] },
  taxType: { enum: [...TAX_REGIMES] },
  igst: { type: 'boolean', description: 'INDIA only: inter-state supply.' },
  currency: text('ISO 4217.'),
  billedBy: object('The seller: the members that have a value.'),
  billedTo: object('The buyer: the members that have a value.'),
  shippedTo: object('As sent.'),
  shippedFrom: object('As sent.'),
  transportDetails: object('As sent.'),
  contact: object('As sent.'),
  invoiceTitle: text('Default Invoice (BOS: Bill of Supply).'),
  invoiceSubTitle: text('As sent.'),
  items: list(object("An item: each regime's members only."), 'Request order.'),
  finalTotal: object('Sums of the items: subTotal, amount, INDIA igst/cgst/sgst or tax, discount, charges, total.'),
  additionalCharges: list(object('{label, amount, type, multiplier, appliedAmount}.'), 'In order.'),
  terms: list(object('{label, terms}.'), "As sent, or the business's default terms."),
  status: { enum: [...INVOICE_STATUSES] },
  client: text("The linked client's clientId."),
  share: closedObject(
    { link: { type: 'string', format: 'uri' }, pdf: { type: 'string', format: 'uri' } },
    ['link', 'pdf'],
    { description: 'Built from the PUBLIC_URL setting.' },
  ),
  tags: list({ type: 'string' }, 'Tag ids.'),
  discount: object('Always {"discountType": "PERCENTAGE"}.'),
  attachments: { type: 'array', maxItems: 0 },
  isExpenditure: { const: false },
  locale: text('ll-CC.'),
  amountPaid: money('Settled by live payments; 0 once canceled.'),
  amountDue: money('total − amountPaid; 0 once canceled.'),
  zatcaQr: text('SAUDI tax invoices: base64 of the ZATCA phase-1 TLV (seller, VAT number, time, total, VAT).'),
  createdAt: instant('UTC, milliseconds.'),
  updatedAt: instant('Changes on a payment recorded or removed, cancel, link revocation.'),
};
const INVOICE_REQUIRED: string[] = [
  '_id',
  'invoiceNumber',
  'invoiceDate',
  'billType',
  'taxType',
  'currency',
  'billedBy',
  'billedTo',
  'invoiceTitle',
  'items',
  'finalTotal',
  'additionalCharges',
  'terms',
  'status',
  'client',
  'share',
  'tags',
  'discount',
  'attachments',
  'isExpenditure',
  'locale',
  'amountPaid',
  'amountDue',
  'createdAt',
  'updatedAt',
];

const PAYMENT: JsonSchema = closedObject(
  {
    _id: { type: 'string', pattern: '^[0-9a-f]{24}$' },
    amount: money(''),
    tds: money(''),
    transactionCharge: money(''),
    paymentDate: instant('UTC.'),
    paymentMethod: { enum: [...PAYMENT_METHODS, null] },
    notes: { type: ['string', 'null'] },
    refId: { type: ['string', 'null'] },
    business: text('The urlKey.'),
    payerBusiness: text("The invoice client's clientId."),
    isApproved: { const: true },
    isRemoved: { type: 'boolean' },
    appId: { type: ['string', 'null'], description: "The recording app's; null for an operator." },
    invoice: text("The invoice's _id."),
    createdAt: instant(''),
  },
  [
    '_id',
    'amount',
    'tds',
    'transactionCharge',
    'paymentDate',
    'paymentMethod',
    'notes',
    'refId',
    'business',
    'payerBusiness',
    'isApproved',
    'isRemoved',
    'appId',
    'invoice',
    'createdAt',
  ],
  { description: 'A payment.' },
);

export const INVOICE_SCHEMAS: Record<string, JsonSchema> = {
  InvoiceCreate: bodyJsonSchema(INVOICE_SPEC, 'An invoice create: any other key INVALID_FIELD.'),
  Invoice: closedObject(INVOICE_MEMBERS, INVOICE_REQUIRED, { description: "An invoice, in the vendor's shape." }),
  InvoiceCreated: closedObject<string>(
    { ...INVOICE_MEMBERS, idempotent: { const: true, description: 'An identical retry of a taken number.' } },
    INVOICE_REQUIRED,
  ),
  InvoiceCanceled: closedObject<string>({ ...INVOICE_MEMBERS, payments: { type: 'array', maxItems: 0 } }, [
    ...INVOICE_REQUIRED,
    'payments',
  ]),
  InvoiceWithPayments: closedObject<string>(
    { ...INVOICE_MEMBERS, payments: list(ref('Payment'), 'Every payment, removed ones too.') },
    [...INVOICE_REQUIRED, 'payments'],
  ),
  InvoicePage: closedObject(
    {
      total: { type: ['integer', 'null'] },
      limit: { type: 'integer' },
      skip: { type: 'integer' },
      data: list(ref('Invoice'), 'The page.'),
      nextCursor: {
        type: ['string', 'null'],
        description:
          'Sync pages only: where the next page starts (pass it as after); null only on a page with no invoices: nothing follows yet, so send the cursor you kept again later.',
      },
    },
    ['total', 'limit', 'skip', 'data'],
  ),
  PaymentCreate: bodyJsonSchema(PAYMENT_SPEC, 'A payment.'),
  Payment: PAYMENT,
  PaymentList: closedObject({ payments: list(ref('Payment'), 'By createdAt, _id.') }, ['payments']),
  PaymentRemoved: closedObject({ invoice: ref('Invoice'), payment: ref('Payment') }, ['invoice', 'payment']),
  InvoiceCancel: closedObject({ status: { enum: ['CANCELED', 'CANCELLED'] } }, ['status'], {
    description: 'Exactly {"status": "CANCELED"} (CANCELLED accepted).',
  }),
  InvoiceSettingsInput: bodyJsonSchema(SETTINGS_SPEC, 'The whole settings object (8).'),
  InvoiceSettings: closedObject(
    {
      billedBy: object("The seller's billing details."),
      numbering: object('{prefix, padding, nextNumber}.'),
      defaultTerms: list(object(''), 'Default terms.'),
    },
    ['billedBy', 'numbering', 'defaultTerms'],
  ),
};

export const EMPTY = bodyJsonSchema(EMPTY_BODY, 'No body, an empty body or {}.');

/** The codes of a create's 400 (besides INVALID_FIELD, implied by the body). */
export const CREATE_CODES: ErrorCode[] = [
  'INVALID_FIELD_VALUE',
  'INVALID_QUERY_FIELD',
  'INVALID_ITEMS',
  'INVALID_TAX_RATE',
  'CLIENT_NOT_FOUND',
  'INVALID_TAG',
  'TOTAL_BELOW_ZERO',
  'AMOUNT_TOO_LARGE',
  'IDEMPOTENCY_CONFLICT',
];

export const urlKey = { urlKey: 'The business.' };
export const invoiceKey = { ...urlKey, invoiceId: "The invoice's _id." };

const queryText = (name: string, description: string): { name: string; description: string; schema: JsonSchema } => ({
  name,
  description,
  schema: { type: 'string' },
});

/** GET /invoices's parameters (parsed by invoices.find.ts). */
export const FIND_QUERY = [
  queryText(
    '$limit',
    `Whole number ≥ 0, default ${FIND_LIMITS.defaultLimit}; above ${FIND_LIMITS.maxLimit} taken as ${FIND_LIMITS.maxLimit}; 0 answers the total alone.`,
  ),
  queryText('$skip', 'Whole number ≥ 0.'),
  queryText(
    '$sort[createdAt]',
    '1 or -1 (also $sort[invoiceNumber], by code point, and $sort[invoiceDate]); several keys apply in order.',
  ),
  queryText('client', 'clientIds, comma-separated.'),
  queryText('status', 'Statuses, comma-separated (CANCELLED read as CANCELED).'),
  queryText(
    'updatedAtFrom',
    'Sync: pages in change order from this instant (a date: its start); no $skip or $sort; total null, nextCursor.',
  ),
  queryText('after', 'Sync: the nextCursor of the previous page.'),
  queryText('invoiceNumber', 'Exact.'),
  queryText('invoiceDate[$gte]', 'A date (its start) or an instant.'),
  queryText('invoiceDate[$lte]', 'A date (its end) or an instant.'),
];
export const FIND_TEXT = `Default order createdAt descending, ties by _id descending. Every filter sent must match. Other parameters: INVALID_QUERY_FIELD; other operators or a parameter repeated: INVALID_QUERY_VALUE.`;
export const FIND_CODES: ErrorCode[] = [
  'INVALID_QUERY_FIELD',
  'INVALID_QUERY_VALUE',
  'INVALID_PAGINATION_LIMIT',
  'INVALID_PAGINATION_SKIP',
];

/** Section 9.1's invoice, as a request: what the reference page offers to try. */
export const EXAMPLE_CREATE = {
  billedBy: { gstState: '29' },
  billedTo: { name: 'Asha Traders', country: 'IN', gstState: '29', email: 'accounts@asha.example' },
  items: [
    { name: 'one', rate: 100, quantity: 2, gstRate: 18, hsn: '8471' },
    { name: 'two', rate: 200, quantity: 6, gstRate: 12 },
  ],
  terms: [{ label: 'Payment', terms: ['Due in 15 days'] }],
};
export const EXAMPLE_PAYMENT = { amount: 100, tds: 0, paymentMethod: 'UPI', refId: 'UTR-0001' };
export const EXAMPLE_SETTINGS = {
  billedBy: { name: 'Acme Supplies', gstin: '29ABCDE1234F1Z5', street: '1 MG Road', city: 'Bengaluru' },
  numbering: { prefix: 'ACME-', padding: 5, nextNumber: 1 },
  defaultTerms: [{ label: 'Payment', terms: ['Due in 30 days'] }],
};
