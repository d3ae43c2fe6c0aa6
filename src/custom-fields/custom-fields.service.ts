import { opaqueId } from '../auth/secrets.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { Store } from '../storage/store.js';
import { isStorableString } from '../validation/strings.js';

import type { CustomFieldDefinition, CustomFieldType } from '../clients/client.types.js';
import { CUSTOM_FIELD_ENTRY_KEYS, CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPES } from './custom-fields.schema.js';

export type { CustomFieldDefinition };

const { fields: MAX_FIELDS, name: MAX_NAME, option: MAX_OPTION } = CUSTOM_FIELD_LIMITS;

/**
 * Replaces a business's client custom field definitions. An entry carrying the id of an existing
 * field keeps that field (and so the values stored under it) even when renamed.
 */
export function readCustomFieldSet(body: unknown, existing: CustomFieldDefinition[]): CustomFieldDefinition[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const errors: FieldError[] = [];
  const bad = (field: string, message: string, code: FieldError['code'] = 'INVALID_FIELD_VALUE') => errors.push({ field, message, code });
  for (const key of Object.keys(body)) if (key !== 'fields') bad(key, `${key} is not an accepted field`, 'INVALID_FIELD');
  const fields = (body as { fields?: unknown }).fields;
  if (!Array.isArray(fields)) {
    bad('fields', 'fields must be an array', fields === undefined ? 'INVALID_FIELD_VALUE' : 'INVALID_FIELD');
    throw AppError.fromFieldErrors(errors);
  }
  if (fields.length > MAX_FIELDS) bad('fields', `at most ${MAX_FIELDS} custom fields`);
  const known = new Map(existing.map((f) => [f.id, f]));
  const seenNames = new Set<string>();
  const seenIds = new Set<string>();
  const result: CustomFieldDefinition[] = [];
  fields.forEach((entry: unknown, i) => {
    const at = `fields[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return void bad(at, `${at} must be an object`, 'INVALID_FIELD');
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!CUSTOM_FIELD_ENTRY_KEYS.has(key)) bad(`${at}.${key}`, `${at}.${key} is not an accepted field`, 'INVALID_FIELD');
    let id: string | undefined;
    if (e.id !== undefined && e.id !== null) {
      if (typeof e.id !== 'string') bad(`${at}.id`, `${at}.id must be a string`, 'INVALID_FIELD');
      else if (!known.has(e.id)) bad(`${at}.id`, `${at}.id is not a custom field of this business`);
      else if (seenIds.has(e.id)) bad(`${at}.id`, `${at}.id appears twice`);
      else id = e.id;
      if (id) seenIds.add(id);
    }
    const name = typeof e.name === 'string' ? e.name.trim() : '';
    if (typeof e.name !== 'string' && e.name !== undefined && e.name !== null) bad(`${at}.name`, `${at}.name must be a string`, 'INVALID_FIELD');
    else if (name.length === 0 || [...name].length > MAX_NAME) bad(`${at}.name`, `${at}.name must be 1 to ${MAX_NAME} characters`);
    else if (!isStorableString(name)) bad(`${at}.name`, `${at}.name must not contain NUL characters or unpaired surrogates`);
    else if (seenNames.has(name.toLowerCase())) bad(`${at}.name`, `${at}.name is used by another custom field (names compare case-insensitively)`);
    seenNames.add(name.toLowerCase());
    const type = e.type as CustomFieldType;
    if (!CUSTOM_FIELD_TYPES.includes(type)) bad(`${at}.type`, `${at}.type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
    const options = readOptions(e.options, type, `${at}.options`, bad);
    if (e.isArchived !== undefined && e.isArchived !== null && typeof e.isArchived !== 'boolean') bad(`${at}.isArchived`, `${at}.isArchived must be a boolean`, 'INVALID_FIELD');
    result.push({ id: id ?? opaqueId('cf_'), name, type, options, isArchived: e.isArchived === true });
  });
  if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  return result;
}

function readOptions(value: unknown, type: CustomFieldType, at: string, bad: (f: string, m: string, c?: FieldError['code']) => void): string[] | null {
  if (type !== 'SELECT') {
    if (value !== undefined && value !== null) bad(at, `${at} is only for SELECT fields`);
    return null;
  }
  if (!Array.isArray(value) || value.length === 0) {
    bad(at, `${at} must be a non-empty array of strings for a SELECT field`);
    return null;
  }
  if (value.some((o) => typeof o !== 'string' || o.length === 0 || [...o].length > MAX_OPTION)) bad(at, `${at} must hold strings of 1 to ${MAX_OPTION} characters`);
  else if (!value.every(isStorableString)) bad(at, `${at} must not contain NUL characters or unpaired surrogates`);
  else if (new Set(value).size !== value.length) bad(at, `${at} must not repeat an option`);
  return value as string[];
}

export class CustomFieldsService {
  constructor(private readonly store: Store, private readonly now: () => number) {}

  async list(urlKey: string): Promise<CustomFieldDefinition[]> {
    return (await this.store.data.getCustomFields<CustomFieldDefinition[]>(urlKey))?.document ?? [];
  }

  async replace(urlKey: string, body: unknown): Promise<CustomFieldDefinition[]> {
    const existing = await this.list(urlKey);
    const fields = readCustomFieldSet(body, existing);
    await this.refuseTypeChangesOverValues(urlKey, existing, fields);
    await this.store.data.putCustomFields(urlKey, fields, this.now());
    await this.store.changes.publish(`business:${urlKey}`);
    return fields;
  }

  /**
   * A saved field's type may change only while no client holds a value under it: stored values
   * would no longer fit the type, and integrations sending the old kind of value would be refused
   * (decisions.md "Custom field type changes"). Deleted clients are never read again, so they do not count.
   */
  private async refuseTypeChangesOverValues(urlKey: string, existing: CustomFieldDefinition[], fields: CustomFieldDefinition[]): Promise<void> {
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
        message: `${at} cannot change from ${old.type} to ${field.type}: ${count === 1 ? '1 client holds a value' : `${count} clients hold values`} `
          + `for "${old.name}" of type ${old.type}. Add a new field of type ${field.type} and archive this one instead.`,
      });
    }
    if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  }
}
