import { EMAIL_MAX_LENGTH } from '../validation/email.js';
import { entry, type EntrySpec } from '../validation/field-spec.js';

/**
 * The operator bodies of the lead configuration (docs/decisions.md "Lead configuration (operator side)"): one descriptor each, read by the
 * one body reader and rendered into the OpenAPI document.
 */
export const LEAD_SETTINGS_LIMITS = {
  sources: 200,
  tags: 1000,
  members: 1000,
  label: 200,
  tagName: 100,
  memberName: 500,
  sourceKey: 64,
} as const;

export const SOURCE_KEY = new RegExp(`^[A-Z0-9_]{1,${LEAD_SETTINGS_LIMITS.sourceKey}}$`);

const archived = {
  type: 'boolean',
  default: false,
  description: 'Archived entries stay on the leads that carry them but cannot be chosen. Default false.',
} as const;

export const LEAD_SOURCE_SPEC = entry('LeadSource', 'A lead source.', [
  [
    'key',
    {
      type: 'string',
      required: true,
      maxLength: LEAD_SETTINGS_LIMITS.sourceKey,
      description: `1 to ${LEAD_SETTINGS_LIMITS.sourceKey} characters of A-Z, 0-9 and _; unique per business. Leads keep the key.`,
    },
  ],
  [
    'label',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: LEAD_SETTINGS_LIMITS.label,
      description: `Display label, 1 to ${LEAD_SETTINGS_LIMITS.label} characters after trimming.`,
    },
  ],
  ['isArchived', archived],
]);

export const TAG_SPEC = entry('Tag', 'A tag leads can carry.', [
  [
    'id',
    {
      type: 'string',
      maxLength: 64,
      description: 'The id of an existing tag, to keep it (and its leads) across a rename; omitted for a new tag.',
    },
  ],
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: LEAD_SETTINGS_LIMITS.tagName,
      description: `1 to ${LEAD_SETTINGS_LIMITS.tagName} characters after trimming; unique per business ignoring case.`,
    },
  ],
  ['isArchived', archived],
]);

export const MEMBER_SPEC = entry('Member', 'A person of the business to whom leads can be assigned.', [
  [
    'email',
    {
      type: 'string',
      required: true,
      format: 'email',
      maxLength: EMAIL_MAX_LENGTH,
      description: "Unique per business ignoring case; stored lower-cased. The member's identity.",
    },
  ],
  [
    'name',
    {
      type: 'string',
      required: true,
      trim: true,
      maxLength: LEAD_SETTINGS_LIMITS.memberName,
      description: `1 to ${LEAD_SETTINGS_LIMITS.memberName} characters after trimming.`,
    },
  ],
  [
    'isArchived',
    {
      ...archived,
      description: 'An archived member keeps the leads assigned to them (shown, not assignable). Default false.',
    },
  ],
]);

const list = (key: string, items: EntrySpec, maxItems: number, what: string) =>
  entry(`${items.title}s`, `Body of PUT …/${what}: the whole list, replacing the current one.`, [
    [
      key,
      { type: 'array', items, maxItems, description: `The whole list in display order, at most ${maxItems} entries.` },
    ],
  ]);

export const LEAD_SOURCES_BODY = list('sources', LEAD_SOURCE_SPEC, LEAD_SETTINGS_LIMITS.sources, 'lead-sources');
export const TAGS_BODY = list('tags', TAG_SPEC, LEAD_SETTINGS_LIMITS.tags, 'tags');
export const MEMBERS_BODY = list('members', MEMBER_SPEC, LEAD_SETTINGS_LIMITS.members, 'members');
