import { ALL_ADDITIONAL_ID_LABELS } from '../validation/additional-ids.js';
import { FORMATS, type FormatName } from '../validation/formats.js';
import { entry, type BooleanSpec, type FieldSpec, type StringSpec } from '../validation/field-spec.js';
import { OPERATOR_SOURCES } from './client.types.js';

/**
 * The one description of every accepted client field (docs/extending.md "Adding a client field"). The validator
 * reads these descriptors and the OpenAPI document's schemas are generated from them (entryInputSchema,
 * entryOutputSchema). Rules that span fields (state needs country, sort codes need GB/IE, additional-id
 * codes per country and party, custom fields per business) live in the validator and are named in the
 * descriptions.
 */

/** A text field; its description, when given, is written from the limit (`(max) => ...`) so as to state it. */
const text = (maxLength: number, describe = (max: number) => `At most ${max} characters.`): StringSpec => ({
  type: 'string',
  maxLength,
  description: describe(maxLength),
});
const formatted = (format: FormatName, extra = ''): StringSpec => ({
  type: 'string',
  format,
  description: `${FORMATS[format].description}${extra}`,
});
const flag = (defaultValue: boolean, description: string): BooleanSpec => ({
  type: 'boolean',
  default: defaultValue,
  description,
});

export const ADDITIONAL_ID_SPEC = entry(
  'AdditionalId',
  "One per code; codes by the client's country (else the business's) and party type (an individual or a company).",
  [
    [
      'label',
      {
        type: 'string',
        required: true,
        enum: ALL_ADDITIONAL_ID_LABELS,
        description:
          "The code (UDY, IEC, LUT, NAT, ...), offered by the client's country and allowed for its party type.",
      },
    ],
    [
      'value',
      {
        ...text(
          500,
          (max) => `Required; the code's format (UDY, IEC, LUT) or any non-blank text. At most ${max} characters.`,
        ),
        required: true,
      },
    ],
    ['showInInvoice', flag(false, 'Print the identifier on invoices. Default false.')],
    ['useForEInvoice', flag(false, 'Identifier read by e-invoicing (SA, MY). Only the first flagged entry keeps it.')],
  ],
);

export const CUSTOM_HEADER_SPEC = entry('CustomHeader', 'A labelled line printed with the address.', [
  ['label', { ...text(500, (max) => `Required. At most ${max} characters.`), required: true }],
  ['value', text(2500)],
]);

export const SHIPPING_DETAIL_SPEC = entry('ShippingDetail', 'A shipping address. Nothing is derived inside it.', [
  ['name', text(500)],
  ['street', text(2500)],
  ['building', text(500)],
  ['city', text(500)],
  ['district', text(500)],
  ['state', text(500)],
  ['pincode', text(20)],
  ['country', formatted('country')],
  ['gstin', formatted('gstin', ' Does not fill gstState here.')],
  ['gstState', formatted('gstState')],
  ['sstNumber', formatted('sst')],
  ['tinNumber', formatted('tin')],
  ['taxId', text(500, (max) => `Free text, at most ${max} characters.`)],
  ['taxPayerType', text(500, (max) => `Free text, at most ${max} characters; no vocabulary check.`)],
  [
    'additionalIds',
    {
      type: 'array',
      items: ADDITIONAL_ID_SPEC,
      description: "Checked against the client's country and party type, not the address's.",
    },
  ],
  ['customHeaders', { type: 'array', items: CUSTOM_HEADER_SPEC, description: 'Entries {label, value}.' }],
]);

export const BANK_ACCOUNT_SPEC = entry('BankAccount', 'A bank account of the client.', [
  ['bankAccountName', text(500)],
  ['bankAccountHolderName', text(500)],
  ['bankAccountNumber', text(2500)],
  ['ifscCode', text(500)],
  ['iban', text(500)],
  ['sortCode', formatted('sortCode')],
  ['swift', text(500)],
  ['bankAccountType', { type: 'string', enum: ['SAVINGS', 'CURRENT'], description: 'SAVINGS or CURRENT.' }],
  ['bankCountry', formatted('country')],
  ['bankCurrency', formatted('currency')],
  ['isPrimary', flag(false, 'Marks the primary account. Default false.')],
]);

const IDENTITY_FIELDS: [string, FieldSpec][] = [
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: 500,
      description: 'Required; 1 to 500 characters after trimming.',
    },
  ],
  ['alias', text(500)],
  [
    'clientType',
    {
      type: 'string',
      enum: ['INDIVIDUAL', 'COMPANY'],
      description: 'INDIVIDUAL or COMPANY; derived from the tax ids when omitted.',
    },
  ],
  ['isClient', flag(true, 'Customer. Default true. isClient and isVendor cannot both be false.')],
  ['isVendor', flag(false, 'Vendor. Default false.')],
  ['email', { ...formatted('email'), maxLength: 254, compare: 'email' }],
  ['phone', formatted('phone')],
  ['phoneShowInInvoice', flag(false, 'Default false.')],
  ['emailShowInInvoice', flag(false, 'Default false.')],
  [
    'dueInDays',
    { type: 'integer', minimum: 0, maximum: 36500, description: 'Default payment terms in whole days, 0 to 36500.' },
  ],
  ['locale', formatted('locale', " Derived from the client's country, else the business's, when omitted.")],
];

const ADDRESS_AND_TAX_FIELDS: [string, FieldSpec][] = [
  ['street', text(2500)],
  ['building', text(500)],
  ['city', text(500)],
  ['district', text(500)],
  ['state', text(500, (max) => `At most ${max} characters. Requires country in the same request.`)],
  ['pincode', text(20)],
  ['country', formatted('country', " Defaults to the business's country.")],
  ['gstin', formatted('gstin', ' Fills panNumber and gstState when those are omitted.')],
  ['gstState', formatted('gstState', ' Derived from gstin when omitted.')],
  ['panNumber', formatted('pan', ' Derived from gstin when omitted (null for GSTIN forms without a PAN).')],
  ['trnNumber', formatted('trn')],
  ['tinNumber', formatted('tin')],
  ['sstNumber', formatted('sst')],
  ['taxPayerType', formatted('taxPayerType', ' Derived when omitted.')],
  ['vatNumber', text(500, (max) => `Stored as given; at most ${max} characters.`)],
  [
    'vatLabel',
    {
      type: 'string',
      maxLength: 500,
      default: 'VAT Number',
      description: 'Label shown against the VAT number. Default "VAT Number".',
    },
  ],
  ['additionalIds', { type: 'array', items: ADDITIONAL_ID_SPEC, description: 'See 2.5.' }],
  ['shippingDetails', { type: 'array', items: SHIPPING_DETAIL_SPEC, description: 'See 2.6.' }],
  ['bankAccounts', { type: 'array', items: BANK_ACCOUNT_SPEC, description: 'See 2.7.' }],
  [
    'customFields',
    {
      type: 'customFields',
      description: 'Values keyed by custom field display name (case-insensitive), as defined by the operator.',
    },
  ],
];

export const CLIENT_ID_MAX_LENGTH = 128;

export const CLIENT_SPEC = entry('ClientCreate', 'Body of POST /api/v1/businesses/:urlKey/clients.', [
  [
    'clientId',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: CLIENT_ID_MAX_LENGTH,
      description: `Caller's reference, unique within the business; 1 to ${CLIENT_ID_MAX_LENGTH} characters after trimming.`,
    },
  ],
  ...IDENTITY_FIELDS,
  ...ADDRESS_AND_TAX_FIELDS,
]);

export const OPERATOR_CLIENT_SPEC = entry(
  'OperatorClientCreate',
  'Body of POST /admin/v1/businesses/:urlKey/clients: no clientId, an origin instead.',
  [
    [
      'source',
      {
        type: 'string',
        required: true,
        enum: OPERATOR_SOURCES,
        description: 'Origin of the client (any of 2.4 except API).',
      },
    ],
    ...IDENTITY_FIELDS,
    ...ADDRESS_AND_TAX_FIELDS,
  ],
);

/** Keys the server sets: sending them is a name error (INVALID_FIELD), not an unknown-key error. */
export const SERVER_OWNED_KEYS: ReadonlySet<string> = new Set([
  'source',
  'createdAt',
  'updatedAt',
  'balance',
  'idempotent',
]);
