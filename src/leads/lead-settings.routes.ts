import { CUSTOM_FIELDS_BODY_SCHEMA } from '../custom-fields/custom-fields.schema.js';
import { feature, type FeatureEnv } from '../feature.js';
import { ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection, type Operation } from '../openapi/operation.js';
import type { Services } from '../services.js';
import { leadSettingsSchemas, urlKey } from './lead-settings.openapi.js';
import { LeadSettingsService } from './lead-settings.service.js';
import type { AuditEntry } from '../storage/records.js';

export const ADMIN_BUSINESS = '/admin/v1/businesses/:urlKey';

interface SettingsContext {
  settings: LeadSettingsService;
  services: Services;
}

const settingsContext = ({ deps, services }: FeatureEnv): SettingsContext => ({
  settings: new LeadSettingsService(deps.store, services.businesses, () => deps.clock.now()),
  services,
});

const operation = operationsOf<SettingsContext>();

/** How one list is read and replaced, in its public shape. */
interface ListAccess {
  read(settings: LeadSettingsService, urlKey: string): Promise<unknown[]>;
  replace(settings: LeadSettingsService, urlKey: string, body: unknown, audit: AuditEntry): Promise<unknown[]>;
  /** The audit action of a replace. */
  action: string;
}

/** GET and PUT of one list; the PUT body and the answer have the same shape, so a GET can be edited and sent back. */
function listOperations(
  path: string,
  key: string,
  entryTitle: string,
  bodyTitle: string,
  what: string,
  example: unknown,
  access: ListAccess,
): Operation<SettingsContext>[] {
  const answer = success({
    type: 'object',
    additionalProperties: false,
    required: [key],
    properties: { [key]: { type: 'array', items: ref(entryTitle) } },
  });
  const name = what
    .replace(/(^|\s)(\w)/g, (_m, space: string, letter: string) => `${space}${letter.toUpperCase()}`)
    .replace(/\s/g, '');
  return [
    operation({
      method: 'get',
      path: `${ADMIN_BUSINESS}/${path}`,
      operationId: `list${name}`,
      guard: 'operator',
      pathParams: urlKey,
      summary: `List the ${what}`,
      answers: [{ status: 200, description: `The ${what}, archived ones included, in display order.`, schema: answer }],
      errors: ['BUSINESS_NOT_FOUND'],
      handler:
        ({ settings }) =>
        async (request) =>
          ok({ [key]: await access.read(settings, request.params.urlKey) }),
    }),
    operation({
      method: 'put',
      path: `${ADMIN_BUSINESS}/${path}`,
      operationId: `replace${name}`,
      guard: 'operator',
      pathParams: urlKey,
      summary: `Replace the ${what}`,
      description:
        'The whole list, replacing the current one. An entry that names an existing one keeps it and its leads; removing one that live leads carry is refused (archive it instead).',
      body: {
        required: true,
        schema: ref(bodyTitle),
        examples: { one: { summary: 'A typical list', value: example } },
      },
      answers: [{ status: 200, description: `The stored ${what}.`, schema: answer }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ settings, services }) =>
        async (request) => {
          const { urlKey } = request.params;
          const audit = services.audit.entryOf(request, access.action, urlKey);
          return ok({ [key]: await access.replace(settings, urlKey, request.body, audit) });
        },
    }),
  ];
}

/** Members are known by e-mail; their internal id never leaves the server. */
function presentMember(member: { email: string; name: string; isArchived: boolean }) {
  return { email: member.email, name: member.name, isArchived: member.isArchived };
}

export const leadSettingsApi: ApiSection<SettingsContext> = {
  tag: {
    name: 'Operator: lead configuration',
    description:
      'What lead writes resolve names against: lead sources, tags, members, lead custom fields; needs an operator session.',
  },
  schemas: {
    ...leadSettingsSchemas(),
    LeadCustomFieldsInput: { ...CUSTOM_FIELDS_BODY_SCHEMA, title: 'LeadCustomFieldsInput' },
  },
  operations: [
    ...listOperations(
      'lead-sources',
      'sources',
      'LeadSource',
      'LeadSources',
      'lead sources',
      {
        sources: [
          { key: 'WEBSITE', label: 'Website' },
          { key: 'TRADE_FAIR', label: 'Trade fair' },
        ],
      },
      {
        read: async (settings, key) => (await settings.get(key)).sources,
        replace: (settings, key, body, audit) => settings.replaceSources(key, body, audit),
        action: 'lead-sources.replace',
      },
    ),
    ...listOperations(
      'tags',
      'tags',
      'Tag',
      'Tags',
      'tags',
      { tags: [{ name: 'VIP' }, { name: 'Export' }] },
      {
        read: async (settings, key) => (await settings.get(key)).tags,
        replace: (settings, key, body, audit) => settings.replaceTags(key, body, audit),
        action: 'tags.replace',
      },
    ),
    ...listOperations(
      'members',
      'members',
      'Member',
      'Members',
      'members',
      { members: [{ email: 'ravi@example.com', name: 'Ravi Kumar' }] },
      {
        read: async (settings, key) => (await settings.get(key)).members.map(presentMember),
        replace: async (settings, key, body, audit) =>
          (await settings.replaceMembers(key, body, audit)).map(presentMember),
        action: 'members.replace',
      },
    ),
    operation({
      method: 'get',
      path: `${ADMIN_BUSINESS}/lead-custom-fields`,
      operationId: 'listLeadCustomFields',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'List the lead custom field definitions',
      answers: [
        {
          status: 200,
          description: 'The definitions, archived ones included.',
          schema: success({ type: 'array', items: ref('CustomFieldDefinition') }),
        },
      ],
      errors: ['BUSINESS_NOT_FOUND'],
      handler:
        ({ settings }) =>
        async (request) =>
          ok((await settings.get(request.params.urlKey)).customFields),
    }),
    operation({
      method: 'put',
      path: `${ADMIN_BUSINESS}/lead-custom-fields`,
      operationId: 'replaceLeadCustomFields',
      guard: 'operator',
      pathParams: urlKey,
      summary: 'Replace the lead custom field definitions',
      description:
        'As the client custom fields, for leads: an entry carrying the id of an existing field keeps it and its values.',
      body: {
        required: true,
        schema: ref('LeadCustomFieldsInput'),
        examples: {
          one: {
            summary: 'A choice',
            value: { fields: [{ name: 'Product line', type: 'SELECT', options: ['Spices', 'Textiles'] }] },
          },
        },
      },
      answers: [
        {
          status: 200,
          description: 'The stored definitions, each with its id.',
          schema: success({ type: 'array', items: ref('CustomFieldDefinition') }),
        },
      ],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ settings, services }) =>
        async (request) => {
          const { urlKey } = request.params;
          const audit = services.audit.entryOf(request, 'lead-custom-fields.replace', urlKey);
          return ok(await settings.replaceCustomFields(urlKey, request.body, audit));
        },
    }),
  ],
};

/** The lead configuration operators edit (docs/decisions.md "Lead configuration (operator side)"): sources, tags, members, lead custom fields. */
export const leadSettingsFeature = feature({ sections: [leadSettingsApi], context: settingsContext });
