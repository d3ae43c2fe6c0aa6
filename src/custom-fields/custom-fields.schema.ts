import type { CustomFieldType } from '../clients/client.types.js';
import { closedObject, type JsonSchema } from '../validation/json-schema.js';

/** Limits of a business's custom field definitions (docs/decisions.md "Clients"). */
export const CUSTOM_FIELD_LIMITS = { fields: 200, name: 200, option: 500 } as const;
export const CUSTOM_FIELD_TYPES: readonly CustomFieldType[] = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'SELECT'];

/**
 * One definition in PUT /admin/v1/businesses/:urlKey/custom-fields. readCustomFieldSet accepts exactly
 * these members (its unknown-key check reads `properties`), with the limits above.
 */
export const CUSTOM_FIELD_ENTRY_SCHEMA = closedObject({
  id: { type: ['string', 'null'], description: 'The opaque id of an existing field, to keep it (and its stored values) across a rename.' },
  name: {
    type: 'string', minLength: 1, maxLength: CUSTOM_FIELD_LIMITS.name,
    description: `Display name, 1 to ${CUSTOM_FIELD_LIMITS.name} characters after trimming; unique per business, compared case-insensitively.`,
  },
  type: { enum: [...CUSTOM_FIELD_TYPES], description: 'TEXT, NUMBER, DATE (YYYY-MM-DD), BOOLEAN or SELECT (the value must be one of options).' },
  options: {
    type: ['array', 'null'], minItems: 1, uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: CUSTOM_FIELD_LIMITS.option },
    description: `SELECT only, and required there: distinct values of 1 to ${CUSTOM_FIELD_LIMITS.option} characters.`,
  },
  isArchived: { type: ['boolean', 'null'], description: 'An archived field is hidden from clients and refused on create. Default false.' },
}, ['name', 'type'], { title: 'CustomFieldDefinitionInput' });

export const CUSTOM_FIELDS_BODY_SCHEMA: JsonSchema = closedObject({
  fields: { type: 'array', maxItems: CUSTOM_FIELD_LIMITS.fields, items: CUSTOM_FIELD_ENTRY_SCHEMA, description: 'The whole set, replacing the current one.' },
}, ['fields']);

export const CUSTOM_FIELD_ENTRY_KEYS: ReadonlySet<string> = new Set(Object.keys(CUSTOM_FIELD_ENTRY_SCHEMA.properties));
