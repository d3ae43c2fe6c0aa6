import { EMAIL_MAX_LENGTH } from '../validation/email.js';
import { entry, type EntrySpec, type FieldSpec, type StringSpec } from '../validation/field-spec.js';
import { grouped as n, powerOfTen } from '../validation/limit-text.js';
import { PHONE_MAX_LENGTH } from '../validation/phone.js';

/**
 * The lead bodies' field table (docs/leads.md "Create" and "Edit"): lead.validate.ts reads bodies against
 * it and leads.openapi.ts writes the request schemas from it. Rules that span fields, resolve names
 * or return a lead's own error codes (EXTERNAL_ID_REQUIRED, INVALID_CUSTOMER ...) live in the validator.
 */

export const LIMITS = {
  externalId: 128,
  subject: 2500,
  details: 10_000,
  name: 500,
  address: 2500,
  pincode: 20,
  tags: 50,
  tagName: 100,
  stageReasons: 20,
  entries: 20,
  entryLength: 500,
  clientRequestId: 128,
  budgetMax: 10 ** 13,
  budgetDecimals: 4,
} as const;

const text = (description: string, maxLength?: number, trim = false): StringSpec => ({
  type: 'string',
  description,
  ...(maxLength !== undefined && { maxLength }),
  ...(trim && { trim }),
});

/** Countries and currencies are upper-cased before their check, so `in` is IN. */
const countryField = text('ISO 3166-1 alpha-2, upper-cased; default IN.');

export const CUSTOMER_SPEC: EntrySpec = entry(
  'LeadCustomer',
  'The customer: an existing client by clientId, or a new client by name.',
  [
    ['clientId', text('The clientId of an existing, visible client of the business.', LIMITS.externalId, true)],
    ['name', text(`1 to ${n(LIMITS.name)} characters after trimming.`, LIMITS.name, true)],
    ['country', countryField],
    [
      'phone',
      {
        type: 'string',
        description: `Normalised as a client's phone; at most ${PHONE_MAX_LENGTH} characters.`,
        format: 'phone',
      },
    ],
    ['address', text('Snapshot only.', LIMITS.address)],
    ['city', text('Snapshot only.', LIMITS.name)],
    ['state', text('Snapshot only.', LIMITS.name)],
    ['pincode', text('Snapshot only.', LIMITS.pincode)],
  ],
);

export const CONTACT_SPEC: EntrySpec = entry(
  'LeadContact',
  'The contact: an existing contact by contactId, or a new contact by name.',
  [
    ['contactId', text('The id of an existing contact of the business.', 64, true)],
    ['name', text(`1 to ${n(LIMITS.name)} characters after trimming.`, LIMITS.name, true)],
    [
      'email',
      {
        type: 'string',
        description: 'An e-mail address, stored lower-cased.',
        format: 'email',
        maxLength: EMAIL_MAX_LENGTH,
      },
    ],
    ['phone', { type: 'string', description: "Normalised as a client's phone.", format: 'phone' }],
    ['country', countryField],
    ['designation', text(`At most ${n(LIMITS.name)} characters.`, LIMITS.name)],
  ],
);

export const BUDGET_SPEC: EntrySpec = entry('LeadBudget', 'Amount and currency.', [
  [
    'amount',
    {
      type: 'number',
      description: `Greater than 0, at most ${powerOfTen(LIMITS.budgetMax)}, at most ${LIMITS.budgetDecimals} decimal places.`,
      exclusiveMinimum: 0,
      maximum: LIMITS.budgetMax,
      maxDecimals: LIMITS.budgetDecimals,
    },
  ],
  ['currency', text('ISO 4217 code, upper-cased; default the business currency.')],
]);

const names = (description: string, maxItems: number, maxLength: number): FieldSpec => ({
  type: 'strings',
  description,
  maxItems,
  items: text('A name.', maxLength),
});

export const NOTES_SPEC: EntrySpec = entry('LeadNotes', 'A batch of comments or internal notes.', [
  [
    'body',
    names(
      `1 to ${n(LIMITS.entries)} entries of 1 to ${n(LIMITS.entryLength)} characters; each becomes one activity entry.`,
      LIMITS.entries,
      LIMITS.entryLength,
    ),
  ],
  [
    'clientRequestId',
    text('Makes the batch retry-safe: a later PATCH with the same id appends nothing.', LIMITS.clientRequestId),
  ],
]);

const COMMON: [string, FieldSpec][] = [
  ['subject', text(`At most ${n(LIMITS.subject)} characters.`, LIMITS.subject)],
  ['details', text(`At most ${n(LIMITS.details)} characters.`, LIMITS.details)],
  ['budget', { type: 'object', description: 'Amount and currency.', entry: BUDGET_SPEC }],
  ['leadSource', text("A lead source's key (ignoring case) or label.")],
  ['assignedTo', text("A live member's e-mail.")],
  [
    'followUpDate',
    text("YYYY-MM-DD, or an ISO 8601 instant whose UTC date is taken; not before today in the business's time zone."),
  ],
  ['pipeline', text("A live pipeline's name (the first of that name, in configured order).")],
  ['stage', text("A live stage's name inside that pipeline.")],
  [
    'stageReasons',
    names(
      `Labels of reasons the destination stage lists; at most ${n(LIMITS.stageReasons)}.`,
      LIMITS.stageReasons,
      LIMITS.entryLength,
    ),
  ],
  [
    'tags',
    names(`Tag names (ignoring case); duplicates count once; at most ${n(LIMITS.tags)}.`, LIMITS.tags, LIMITS.tagName),
  ],
  ['customFields', { type: 'customFields', description: 'Lead custom field values by display name.' }],
];

export const CREATE_SPEC: EntrySpec = entry('LeadCreate', 'A lead create.', [
  [
    'externalId',
    text(
      `The idempotency key: trimmed, 1 to ${n(LIMITS.externalId)} characters, unique per business.`,
      LIMITS.externalId,
      true,
    ),
  ],
  [
    'customer',
    {
      type: 'object',
      description: 'The customer: an existing client by clientId, or a new one by name.',
      entry: CUSTOMER_SPEC,
    },
  ],
  [
    'contact',
    {
      type: 'object',
      description: 'The contact: an existing contact by contactId, or a new one by name.',
      entry: CONTACT_SPEC,
    },
  ],
  ...COMMON,
]);

/** The dashboard's create: the same without externalId. */
export const OPERATOR_CREATE_SPEC: EntrySpec = entry(
  'OperatorLeadCreate',
  'A lead created by an operator: as the public create, without externalId.',
  [...CREATE_SPEC.fields].filter(([key]) => key !== 'externalId'),
);

export const PATCH_SPEC: EntrySpec = entry('LeadPatch', 'A partial edit: only the fields sent change; null clears.', [
  ...COMMON,
  ['tagsAdd', names('Tag names to add, keeping the rest.', LIMITS.tags, LIMITS.tagName)],
  ['tagsRemove', names('Tag names to remove; a tag the lead does not carry is no error.', LIMITS.tags, LIMITS.tagName)],
  [
    'customer',
    {
      type: 'object',
      description: 'Snapshot changes, or a relink by clientId; only while the lead is NEW or OPEN.',
      entry: CUSTOMER_SPEC,
    },
  ],
  [
    'contact',
    {
      type: 'object',
      description: 'Snapshot changes, or a relink by contactId; only while the lead is NEW or OPEN.',
      entry: CONTACT_SPEC,
    },
  ],
  ['addComments', { type: 'object', description: 'COMMENT entries.', entry: NOTES_SPEC }],
  [
    'addInternalNotes',
    { type: 'object', description: 'INTERNAL_NOTE entries (the business only).', entry: NOTES_SPEC },
  ],
]);

/** Answer-only fields: sending one is INVALID_FIELD. */
export const ANSWER_ONLY_KEYS: ReadonlySet<string> = new Set([
  'leadId',
  'source',
  'status',
  'createdAt',
  'updatedAt',
  'idempotent',
]);

/** PATCH: values that `null` clears (customer and contact members are cleared inside their block). */
export const CLEARABLE_KEYS: ReadonlySet<string> = new Set([
  'subject',
  'details',
  'budget',
  'followUpDate',
  'leadSource',
  'assignedTo',
]);
