import type { CustomFieldType } from '../storage/records.js';
import { entry } from '../validation/field-spec.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { bodyJsonSchema } from '../validation/read-body.js';

/** Limits of a business's custom field definitions (docs/decisions.md "Clients"). */
export const CUSTOM_FIELD_LIMITS = { fields: 200, name: 200, option: 500 } as const;
export const CUSTOM_FIELD_TYPES: readonly CustomFieldType[] = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'SELECT'];

/**
 * One definition in PUT /admin/v1/businesses/:urlKey/custom-fields, read by the one field reader
 * (readCustomFieldSet adds the rules across entries: known ids, unique names, options for SELECT only).
 */
export const CUSTOM_FIELD_ENTRY_SPEC = entry('CustomFieldDefinitionInput', 'One custom field definition.', [
  [
    'id',
    {
      type: 'string',
      description: 'The opaque id of an existing field, to keep it (and its stored values) across a rename.',
    },
  ],
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: CUSTOM_FIELD_LIMITS.name,
      description: `Display name, 1 to ${CUSTOM_FIELD_LIMITS.name} characters after trimming; unique per business, compared case-insensitively.`,
    },
  ],
  [
    'type',
    {
      type: 'string',
      required: true,
      enum: CUSTOM_FIELD_TYPES,
      description: 'TEXT, NUMBER, DATE (YYYY-MM-DD), BOOLEAN or SELECT (the value must be one of options).',
    },
  ],
  [
    'options',
    {
      type: 'strings',
      minItems: 1,
      unique: true,
      errorsAtList: true,
      items: {
        type: 'string',
        maxLength: CUSTOM_FIELD_LIMITS.option,
        description: `1 to ${CUSTOM_FIELD_LIMITS.option} characters.`,
      },
      description: `SELECT only, and required there: distinct values of 1 to ${CUSTOM_FIELD_LIMITS.option} characters.`,
    },
  ],
  [
    'isArchived',
    {
      type: 'boolean',
      default: false,
      description: 'An archived field is hidden from clients and refused on create. Default false.',
    },
  ],
]);

export const CUSTOM_FIELDS_BODY_SPEC = entry('CustomFieldsInput', 'The whole set, replacing the current one.', [
  [
    'fields',
    {
      type: 'array',
      required: true,
      maxItems: CUSTOM_FIELD_LIMITS.fields,
      items: CUSTOM_FIELD_ENTRY_SPEC,
      description: 'The whole set, replacing the current one.',
    },
  ],
]);

export const CUSTOM_FIELDS_BODY_SCHEMA: JsonSchema = bodyJsonSchema(
  CUSTOM_FIELDS_BODY_SPEC,
  'The custom field definitions of a business.',
);
