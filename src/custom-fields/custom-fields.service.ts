import { opaqueId } from '../auth/secrets.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { Store } from '../storage/store.js';
import type { EntryRules, FieldReader, ReadValues } from '../validation/field-reader.js';
import { readBodyValues } from '../validation/read-body.js';

import type { CustomFieldDefinition, CustomFieldType } from '../storage/records.js';
import { CUSTOM_FIELDS_BODY_SPEC } from './custom-fields.schema.js';
import type { AuditEntry } from '../storage/records.js';

export type { CustomFieldDefinition };

/**
 * Replaces a business's client custom field definitions. An entry carrying the id of an existing
 * field keeps that field (and so the values stored under it) even when renamed.
 */
export function readCustomFieldSet(body: unknown, existing: CustomFieldDefinition[]): CustomFieldDefinition[] {
  const known = new Set(existing.map((f) => f.id));
  const values = readBodyValues(body, CUSTOM_FIELDS_BODY_SPEC, {
    rulesForList: (_spec, reader) => definitionRules(known, reader),
  });
  return (values.get('fields') as ReadValues[]).map((entry) => ({
    id: (entry.get('id') as string | undefined) ?? opaqueId('cf_'),
    name: entry.get('name') as string,
    type: entry.get('type') as CustomFieldType,
    options: (entry.get('options') as string[] | undefined) ?? null,
    isArchived: entry.get('isArchived') === true,
  }));
}

/** Rules across the definitions of one body: ids of this business once each, names unique ignoring case, options for SELECT only. */
function definitionRules(known: ReadonlySet<string>, reader: FieldReader): EntryRules {
  const seenIds = new Set<string>();
  const seenNames = new Set<string>();
  return {
    afterMember(key, value, path) {
      if (key === 'id') {
        const id = value as string;
        if (!known.has(id)) reader.valueError(path, `${path} is not a custom field of this business`);
        else if (seenIds.has(id)) reader.valueError(path, `${path} appears twice`);
        seenIds.add(id);
      }
      if (key === 'name') {
        const name = (value as string).toLowerCase();
        if (seenNames.has(name))
          reader.valueError(path, `${path} is used by another custom field (names compare case-insensitively)`);
        seenNames.add(name);
      }
    },
    afterEntry(values, path) {
      const at = `${path}.options`;
      const isSelect = values.get('type') === 'SELECT';
      if (isSelect && !values.has('options') && !reader.errors.some((e) => e.field === at)) {
        reader.valueError(at, `${at} must be a non-empty array of strings for a SELECT field`);
      }
      if (!isSelect && values.has('type') && values.has('options'))
        reader.valueError(at, `${at} is only for SELECT fields`);
    },
  };
}

export class CustomFieldsService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async list(urlKey: string): Promise<CustomFieldDefinition[]> {
    return (await this.store.data.getCustomFields<CustomFieldDefinition[]>(urlKey))?.document ?? [];
  }

  /** `audit`: the operator's line, written with the definitions (its detail: the count saved). */
  async replace(urlKey: string, body: unknown, audit: AuditEntry | null = null): Promise<CustomFieldDefinition[]> {
    const existing = await this.list(urlKey);
    const fields = readCustomFieldSet(body, existing);
    await this.refuseTypeChangesOverValues(urlKey, existing, fields);
    const line = audit && { ...audit, detail: { ...(audit.detail as object), count: fields.length } };
    await this.store.data.putCustomFields(urlKey, fields, this.now(), line);
    await this.store.changes.publish(`business:${urlKey}`);
    return fields;
  }

  /**
   * A saved field's type may change only while no client holds a value under it: stored values
   * would no longer fit the type, and integrations sending the old kind of value would be refused
   * (docs/reliability.md, custom field types). Deleted clients are never read again, so they do not count.
   */
  private async refuseTypeChangesOverValues(
    urlKey: string,
    existing: CustomFieldDefinition[],
    fields: CustomFieldDefinition[],
  ): Promise<void> {
    const before = new Map(existing.map((f) => [f.id, f]));
    const errors: FieldError[] = [];
    for (const [i, field] of fields.entries()) {
      const old = before.get(field.id);
      if (!old || old.type === field.type) continue;
      const count = await this.store.data.countClientsWithCustomField(urlKey, field.id);
      if (count === 0) continue;
      const at = `fields[${i}].type`;
      errors.push({
        field: at,
        code: 'INVALID_FIELD_VALUE',
        message:
          `${at} cannot change from ${old.type} to ${field.type}: ${count === 1 ? '1 client holds a value' : `${count} clients hold values`} ` +
          `for "${old.name}" of type ${old.type}. Add a new field of type ${field.type} and archive this one instead.`,
      });
    }
    if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  }
}
