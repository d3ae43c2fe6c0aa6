import { ref } from '../openapi/operation.js';
import { entryInputSchema, entryOutputSchema, type EntrySchemaWriter } from '../validation/field-spec.js';
import {
  LEAD_SOURCE_SPEC,
  LEAD_SOURCES_BODY,
  MEMBER_SPEC,
  MEMBERS_BODY,
  TAG_SPEC,
  TAGS_BODY,
} from './lead-settings.schema.js';

/** The lead configuration's named schemas in the OpenAPI document (operations: lead-settings.routes.ts). */

const byName: EntrySchemaWriter = (entry, role) => ref(role === 'input' ? `${entry.title}Input` : entry.title);
export const urlKey = { urlKey: "The business's URL key." };

export function leadSettingsSchemas() {
  const named: Record<string, ReturnType<typeof entryInputSchema>> = {};
  for (const spec of [LEAD_SOURCE_SPEC, TAG_SPEC, MEMBER_SPEC]) {
    named[`${spec.title}Input`] = { ...entryInputSchema(spec, byName), title: `${spec.title}Input` };
    named[spec.title] = { ...entryOutputSchema(spec, byName), title: spec.title };
  }
  for (const body of [LEAD_SOURCES_BODY, TAGS_BODY, MEMBERS_BODY])
    named[body.title] = { ...entryInputSchema(body, byName), title: body.title };
  return named;
}
