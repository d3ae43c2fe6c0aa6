import { CUSTOM_FIELDS_BODY_SCHEMA } from '../custom-fields/custom-fields.schema.js';
import { ref, success, type DocSection, type OperationDoc } from '../openapi/operation.js';
import { entryInputSchema, entryOutputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import { ADMIN_BUSINESS } from './lead-settings.routes.js';
import { LEAD_SOURCE_SPEC, LEAD_SOURCES_BODY, MEMBER_SPEC, MEMBERS_BODY, TAG_SPEC, TAGS_BODY } from './lead-settings.schema.js';

const byName: EntrySchemaWriter = (entry, role) => ref(role === 'input' ? `${entry.title}Input` : entry.title);
const urlKey = { urlKey: 'The business\'s URL key.' };

function schemas() {
  const named: Record<string, ReturnType<typeof entryInputSchema>> = {};
  for (const spec of [LEAD_SOURCE_SPEC, TAG_SPEC, MEMBER_SPEC]) {
    named[`${spec.title}Input`] = { ...entryInputSchema(spec, byName), title: `${spec.title}Input` };
    named[spec.title] = { ...entryOutputSchema(spec, byName), title: spec.title };
  }
  for (const body of [LEAD_SOURCES_BODY, TAGS_BODY, MEMBERS_BODY]) named[body.title] = { ...entryInputSchema(body, byName), title: body.title };
  return named;
}

/** GET and PUT of one list; the PUT body and the answer have the same shape, so a GET can be edited and sent back. */
function listOperations(path: string, key: string, entryTitle: string, bodyTitle: string, what: string, example: unknown): OperationDoc[] {
  const answer = success({ type: 'object', additionalProperties: false, required: [key], properties: { [key]: { type: 'array', items: ref(entryTitle) } } });
  const name = what.replace(/(^|\s)(\w)/g, (_m, space: string, letter: string) => `${space}${letter.toUpperCase()}`).replace(/\s/g, '');
  return [
    {
      method: 'get', path: `${ADMIN_BUSINESS}/${path}`, operationId: `list${name}`, guard: 'operator', pathParams: urlKey,
      summary: `List the ${what}`, answers: [{ status: 200, description: `The ${what}, archived ones included, in display order.`, schema: answer }],
      errors: ['BUSINESS_NOT_FOUND'],
    },
    {
      method: 'put', path: `${ADMIN_BUSINESS}/${path}`, operationId: `replace${name}`, guard: 'operator', pathParams: urlKey,
      summary: `Replace the ${what}`,
      description: 'The whole list, replacing the current one. An entry that names an existing one keeps it and its leads; removing one that live leads carry is refused (archive it instead).',
      body: { required: true, schema: ref(bodyTitle), examples: { one: { summary: 'A typical list', value: example } } },
      answers: [{ status: 200, description: `The stored ${what}.`, schema: answer }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
  ];
}

export const leadSettingsApi: DocSection = {
  tag: { name: 'Operator: lead configuration', description: 'What lead writes resolve names against: lead sources, tags, members, lead custom fields; needs an operator session.' },
  schemas: { ...schemas(), LeadCustomFieldsInput: { ...CUSTOM_FIELDS_BODY_SCHEMA, title: 'LeadCustomFieldsInput' } },
  operations: [
    ...listOperations('lead-sources', 'sources', 'LeadSource', 'LeadSources', 'lead sources', { sources: [{ key: 'WEBSITE', label: 'Website' }, { key: 'TRADE_FAIR', label: 'Trade fair' }] }),
    ...listOperations('tags', 'tags', 'Tag', 'Tags', 'tags', { tags: [{ name: 'VIP' }, { name: 'Export' }] }),
    ...listOperations('members', 'members', 'Member', 'Members', 'members', { members: [{ email: 'ravi@example.com', name: 'Ravi Kumar' }] }),
    {
      method: 'get', path: `${ADMIN_BUSINESS}/lead-custom-fields`, operationId: 'listLeadCustomFields', guard: 'operator', pathParams: urlKey,
      summary: 'List the lead custom field definitions',
      answers: [{ status: 200, description: 'The definitions, archived ones included.', schema: success({ type: 'array', items: ref('CustomFieldDefinition') }) }],
      errors: ['BUSINESS_NOT_FOUND'],
    },
    {
      method: 'put', path: `${ADMIN_BUSINESS}/lead-custom-fields`, operationId: 'replaceLeadCustomFields', guard: 'operator', pathParams: urlKey,
      summary: 'Replace the lead custom field definitions',
      description: 'As the client custom fields, for leads: an entry carrying the id of an existing field keeps it and its values.',
      body: { required: true, schema: ref('LeadCustomFieldsInput'), examples: { one: { summary: 'A choice', value: { fields: [{ name: 'Product line', type: 'SELECT', options: ['Spices', 'Textiles'] }] } } } },
      answers: [{ status: 200, description: 'The stored definitions, each with its id.', schema: success({ type: 'array', items: ref('CustomFieldDefinition') }) }],
      errors: ['INVALID_FIELD_VALUE', 'BUSINESS_NOT_FOUND'],
    },
  ],
};
