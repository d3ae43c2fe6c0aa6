import { CLIENT_SPEC } from '../clients/client.schema.js';
import { entry, type FieldSpec, type NumberSpec, type StringSpec } from '../validation/field-spec.js';
import { grouped, powerOfTen } from '../validation/limit-text.js';

/**
 * The one description of an invoice create body (invoices-interface 2.2 to 2.5, 4.1, 7): the
 * validator reads these descriptors and the OpenAPI document is generated from them. Rules spanning
 * members (a buyer's name unless clientId, rates per regime, money within the minor unit, dates in the
 * business's zone) live in invoice.validate.ts and are named in the descriptions.
 */

export const LIMITS = {
  items: 500,
  charges: 20,
  termGroups: 20,
  termStrings: 50,
  tags: 50,
  cc: 10,
  title: 500,
  name: 500,
  termLength: 2500,
  number: 64,
  notes: 2500,
  refId: 128,
  significantDigits: 15,
  quantityMax: 1e9,
  moneyBelow: 1e12,
  decimals: 6,
  percentMax: 100,
  percentDecimals: 4,
} as const;

const text = (maxLength: number, description = `At most ${maxLength} characters.`): StringSpec => ({
  type: 'string',
  maxLength,
  description,
});
const clientField = (name: string): FieldSpec => {
  const field = CLIENT_SPEC.fields.get(name);
  if (!field) throw new Error(`client field ${name} is not in CLIENT_SPEC`);
  return field;
};

/** A party's members are the client's fields of the same name (service-interface 2.4, 2.5). */
export const PARTY_CLIENT_FIELDS = [
  'country',
  'street',
  'city',
  'state',
  'pincode',
  'gstState',
  'gstin',
  'panNumber',
  'trnNumber',
  'tinNumber',
  'sstNumber',
  'vatNumber',
  'taxPayerType',
  'additionalIds',
  'phone',
  'email',
  'phoneShowInInvoice',
  'emailShowInInvoice',
] as const;

const PARTY_NAME: StringSpec = {
  type: 'string',
  trim: true,
  minLength: 1,
  maxLength: LIMITS.name,
  description: `1 to ${LIMITS.name} characters after trimming.`,
};

const partyFields = (): [string, FieldSpec][] => [
  ['name', PARTY_NAME],
  ...PARTY_CLIENT_FIELDS.map((name): [string, FieldSpec] => [name, clientField(name)]),
];

export const PARTY_SPEC = entry(
  'InvoiceParty',
  'A party of the invoice (seller, buyer, ship-to, ship-from): the client fields of the same name.',
  partyFields(),
);

export const BUYER_SPEC = entry(
  'InvoiceBuyer',
  'The buyer: a party, with clientId to link (and fill from) an existing client. name and country are required unless clientId is sent.',
  [
    ...partyFields(),
    [
      'clientId',
      {
        type: 'string',
        trim: true,
        minLength: 1,
        maxLength: 128,
        description: 'A client readable with GET clients (else CLIENT_NOT_FOUND); its fields fill what billedTo omits.',
      },
    ],
  ],
);

const money = (description: string): NumberSpec => ({
  type: 'number',
  minimum: 0,
  exclusiveMaximum: LIMITS.moneyBelow,
  description,
});
const rate: NumberSpec = {
  type: 'number',
  minimum: 0,
  maximum: 100,
  description: "Tax rate in percent: each regime's set (INVALID_TAX_RATE otherwise); 0 on a BOS.",
};

export const ITEM_SPEC = entry('InvoiceItemInput', 'One line: rate × quantity, taxed at its rate.', [
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      minLength: 1,
      maxLength: LIMITS.name,
      description: `1 to ${LIMITS.name} characters after trimming.`,
    },
  ],
  [
    'rate',
    {
      ...money(`Unit price: at least 0, below ${powerOfTen(LIMITS.moneyBelow)}, at most ${LIMITS.decimals} decimals.`),
      required: true,
      maxDecimals: LIMITS.decimals,
    },
  ],
  [
    'quantity',
    {
      type: 'number',
      required: true,
      exclusiveMinimum: 0,
      maximum: LIMITS.quantityMax,
      maxDecimals: LIMITS.decimals,
      description: `Above 0, at most ${powerOfTen(LIMITS.quantityMax)}, at most ${LIMITS.decimals} decimals.`,
    },
  ],
  ['gstRate', rate],
  ['taxRate', { ...rate, description: 'Alias of gstRate; both with different values: INVALID_TAX_RATE.' }],
  [
    'hsn',
    {
      type: 'string',
      pattern: /^(?:[0-9]{4}|[0-9]{6}|[0-9]{8})$/,
      message: 'must be 4, 6 or 8 digits',
      description: 'HSN/SAC code: 4, 6 or 8 digits.',
    },
  ],
]);

export const CHARGE_TYPES = ['PERCENTAGE', 'FIXED_AMOUNT'] as const;

export const CHARGE_SPEC = entry(
  'InvoiceChargeInput',
  'A charge (multiplier 1) or discount (-1), applied after tax in array order.',
  [
    [
      'label',
      {
        type: 'string',
        required: true,
        minLength: 1,
        maxLength: LIMITS.title,
        description: `1 to ${LIMITS.title} characters.`,
      },
    ],
    [
      'amount',
      {
        ...money(
          `At least 0; PERCENTAGE at most ${LIMITS.percentMax} with at most ${LIMITS.percentDecimals} decimals; ` +
            'FIXED_AMOUNT within the minor unit.',
        ),
        required: true,
      },
    ],
    [
      'type',
      {
        type: 'string',
        required: true,
        enum: CHARGE_TYPES,
        description: 'PERCENTAGE of the running total, or FIXED_AMOUNT.',
      },
    ],
    [
      'multiplier',
      { type: 'integer', required: true, minimum: -1, maximum: 1, description: '1 (charge) or -1 (discount).' },
    ],
  ],
);

export const TERMS_SPEC = entry('InvoiceTerms', 'A group of terms, stored and returned exactly as sent.', [
  ['label', { ...text(LIMITS.title), required: true }],
  [
    'terms',
    {
      type: 'strings',
      required: true,
      items: {
        type: 'string',
        maxLength: LIMITS.termLength,
        description: `At most ${grouped(LIMITS.termLength)} characters.`,
      },
      maxItems: LIMITS.termStrings,
      description: `At most ${LIMITS.termStrings} strings.`,
    },
  ],
]);

export const TRANSPORTER_SPEC = entry('InvoiceTransporter', 'The transporter.', [
  ['name', text(500)],
  ['transporterId', text(500)],
]);

export const TRANSPORT_SPEC = entry('InvoiceTransport', "The vendor's transport details (e-way bill members).", [
  ['vehicleNumber', text(500)],
  [
    'vehicleType',
    { type: 'string', enum: ['REGULAR', 'ODC'], description: 'REGULAR or ODC (over-dimensional cargo).' },
  ],
  ['transportMode', { type: 'string', enum: ['ROAD', 'RAIL', 'AIR', 'SHIP'], description: 'ROAD, RAIL, AIR or SHIP.' }],
  ['transporter', { type: 'object', entry: TRANSPORTER_SPEC, description: '{name, transporterId}.' }],
  ['challanNumber', text(500)],
  [
    'challanDate',
    {
      type: 'string',
      description:
        'A date (YYYY-MM-DD) or an ISO 8601 instant with Z or an offset; a date alone is midnight in the time zone of the business.',
    },
  ],
  [
    'subSupplyType',
    {
      type: 'string',
      enum: [
        'SUPPLY',
        'IMPORT',
        'EXPORT',
        'JOB_WORK',
        'OWN_USE',
        'JOB_WORK_RETURNS',
        'SALES_RETURN',
        'OTHERS',
        'SKD_CKD_LOTS',
        'LINE_SALES',
        'RECIPIENT_NOT_KNOWN',
        'EXHIBITION_OR_FAIRS',
      ],
      description: 'The e-way bill sub-supply type.',
    },
  ],
]);

export const CONTACT_SPEC = entry('InvoiceContact', "A contact printed on the invoice, normalised as a client's.", [
  ['phone', clientField('phone')],
  ['email', clientField('email')],
]);

const EMAIL_TO_SPEC = entry('InvoiceEmailTo', 'The recipient.', [
  ['name', text(500)],
  ['email', { ...(clientField('email') as StringSpec), required: true }],
]);
export const EMAIL_SPEC = entry(
  'InvoiceEmail',
  'Sent once after commit when mail is configured; never compared on a retry.',
  [
    ['to', { type: 'object', required: true, entry: EMAIL_TO_SPEC, description: '{name?, email}.' }],
    [
      'cc',
      {
        type: 'strings',
        items: { ...(clientField('email') as StringSpec) },
        maxItems: LIMITS.cc,
        description: `At most ${LIMITS.cc} e-mail addresses.`,
      },
    ],
  ],
);

const DATE =
  "A date (YYYY-MM-DD: 00:00 of it in the business's time zone) or an ISO 8601 instant with Z or an offset; years 1970 to 9999.";

export const INVOICE_SPEC = entry('InvoiceCreate', 'Body of POST /api/v1/businesses/:urlKey/invoices.', [
  [
    'invoiceNumber',
    {
      type: 'string',
      trim: true,
      minLength: 1,
      maxLength: LIMITS.number,
      pattern: /^[^\p{Cc}]*$/u,
      message: `must be 1 to ${LIMITS.number} characters without control characters`,
      description:
        'Unique in the business, case-sensitive; omitted: the next of the series (its last run of digits incremented).',
    },
  ],
  ['invoiceDate', { type: 'string', description: `${DATE} Default: now, to the second.` }],
  [
    'dueDate',
    {
      type: 'string',
      description: `${DATE} Not before the invoice's date. Default: the invoice date plus the client's dueInDays.`,
    },
  ],
  [
    'invoiceType',
    {
      type: 'string',
      enum: ['INVOICE', 'BOS'],
      default: 'INVOICE',
      description: 'INVOICE (tax invoice, default) or BOS (bill of supply, no tax).',
    },
  ],
  [
    'currency',
    {
      type: 'string',
      format: 'currency',
      description: "ISO 4217 with a minor unit of 0, 2 or 3 digits; upper-cased; default the business's.",
    },
  ],
  [
    'locale',
    { type: 'string', format: 'locale', description: "ll-CC; default the client's, else the business country's." },
  ],
  ['invoiceTitle', text(LIMITS.title)],
  ['invoiceSubTitle', text(LIMITS.title)],
  [
    'billedTo',
    {
      type: 'object',
      required: true,
      entry: BUYER_SPEC,
      description: 'The buyer: a party, optionally linked to a client by clientId.',
    },
  ],
  [
    'billedBy',
    {
      type: 'object',
      entry: PARTY_SPEC,
      description: "Overrides the business's billing details for this invoice; country must be the business's.",
    },
  ],
  ['shippedTo', { type: 'object', entry: PARTY_SPEC, description: 'Ship-to party.' }],
  ['shippedFrom', { type: 'object', entry: PARTY_SPEC, description: 'Ship-from party.' }],
  ['transportDetails', { type: 'object', entry: TRANSPORT_SPEC, description: 'Transport details.' }],
  ['contact', { type: 'object', entry: CONTACT_SPEC, description: '{phone, email}.' }],
  [
    'items',
    {
      type: 'array',
      required: true,
      items: ITEM_SPEC,
      maxItems: LIMITS.items,
      description: `1 to ${LIMITS.items} items (else INVALID_ITEMS).`,
    },
  ],
  [
    'additionalCharges',
    {
      type: 'array',
      items: CHARGE_SPEC,
      maxItems: LIMITS.charges,
      description: `At most ${LIMITS.charges} charges and discounts, applied after tax in order.`,
    },
  ],
  [
    'terms',
    {
      type: 'array',
      items: TERMS_SPEC,
      maxItems: LIMITS.termGroups,
      description: `At most ${LIMITS.termGroups} groups; omitted: the business's default terms; [] none.`,
    },
  ],
  [
    'tags',
    {
      type: 'strings',
      items: { type: 'string', maxLength: 500, description: "A live tag's id, else its name (any case)." },
      maxItems: LIMITS.tags,
      description: `At most ${LIMITS.tags} tags (INVALID_TAG otherwise).`,
    },
  ],
  [
    'email',
    {
      type: 'object',
      entry: EMAIL_SPEC,
      description: '{to: {name?, email}, cc?}: sent after commit when SMTP_URL is set; stored otherwise.',
    },
  ],
]);

export const CANCEL_STATUSES = ['CANCELED', 'CANCELLED'] as const;

export const PAYMENT_METHODS = [
  'ACCOUNT_TRANSFER',
  'CASH',
  'CHEQUE',
  'CREDIT_CARD',
  'DEBIT_CARD',
  'DD',
  'UPI',
] as const;

export const PAYMENT_SPEC = entry('PaymentCreate', 'Body of POST …/invoices/:invoiceId/payments.', [
  [
    'amount',
    {
      ...money("At least 0, within the currency's minor unit; amount + tds + transactionCharge must be above 0."),
      required: true,
    },
  ],
  ['tds', money('Tax deducted at source: at least 0, within the minor unit. Default 0.')],
  ['transactionCharge', money('At least 0, within the minor unit. Default 0.')],
  ['paymentDate', { type: 'string', description: `${DATE} Default: now, to the second.` }],
  ['paymentMethod', { type: 'string', enum: PAYMENT_METHODS, description: 'How it was paid, or null.' }],
  ['notes', text(LIMITS.notes)],
  ['refId', text(LIMITS.refId)],
]);
