import { opaqueId } from '../auth/secrets.js';
import { readCustomFieldSet } from '../custom-fields/custom-fields.service.js';
import { AppError } from '../errors/app-error.js';
import type { CustomFieldDefinition } from '../storage/records.js';
import type { BusinessesService } from '../operator/businesses.service.js';
import type { Store } from '../storage/store.js';
import { FieldReader, isJsonObject, type EntryRules, type ReadValues } from '../validation/field-reader.js';
import type { EntrySpec } from '../validation/field-spec.js';
import { LEAD_SETTINGS_TOPIC } from './lead-context.js';
import {
  LEAD_SETTINGS_LIMITS,
  LEAD_SOURCES_BODY,
  MEMBERS_BODY,
  SOURCE_KEY,
  TAGS_BODY,
} from './lead-settings.schema.js';
import type { LeadSettings, LeadSettingsKind, LeadSource, Member, Tag } from '../storage/lead-settings.records.js';
import { withLeadSettingsDefaults } from './lead-settings.defaults.js';
import type { AuditEntry } from '../storage/records.js';

/**
 * The operator side of the lead configuration (docs/decisions.md "Lead configuration (operator side)"): each list is replaced whole. An
 * entry that names an existing one (a source by key, a tag by id, a member by e-mail) keeps it and the
 * leads that carry it; dropping one that live leads still carry is refused (archive it instead), so
 * that every lead's links keep resolving to a name.
 */
export class LeadSettingsService {
  constructor(
    private readonly store: Store,
    private readonly businesses: Pick<BusinessesService, 'require'>,
    private readonly now: () => number,
  ) {}

  async get(urlKey: string): Promise<LeadSettings> {
    await this.businesses.require(urlKey);
    return withLeadSettingsDefaults((await this.store.leadSettings.get(urlKey))!);
  }

  async replaceSources(urlKey: string, body: unknown, audit: AuditEntry | null = null): Promise<LeadSource[]> {
    const current = await this.get(urlKey);
    const sources = readList(body, LEAD_SOURCES_BODY, 'sources', sourceRules).map(
      (v): LeadSource => ({
        key: v.get('key') as string,
        label: v.get('label') as string,
        isArchived: v.get('isArchived') === true,
      }),
    );
    const dropped = current.sources.filter((s) => !sources.some((kept) => kept.key === s.key)).map((s) => s.key);
    await this.refuseInUse(urlKey, 'sources', dropped, (key) => `lead source ${key}`);
    return this.save(urlKey, 'sources', sources, audit);
  }

  async replaceTags(urlKey: string, body: unknown, audit: AuditEntry | null = null): Promise<Tag[]> {
    const current = await this.get(urlKey);
    const known = new Set(current.tags.map((t) => t.id));
    const tags = readList(body, TAGS_BODY, 'tags', (reader) => tagRules(reader, known)).map(
      (v): Tag => ({
        id: (v.get('id') as string | undefined) ?? opaqueId('tag_'),
        name: v.get('name') as string,
        isArchived: v.get('isArchived') === true,
      }),
    );
    const dropped = current.tags.filter((t) => !tags.some((kept) => kept.id === t.id));
    await this.refuseInUse(
      urlKey,
      'tags',
      dropped.map((t) => t.id),
      (id) => `tag "${dropped.find((t) => t.id === id)!.name}"`,
    );
    return this.save(urlKey, 'tags', tags, audit);
  }

  async replaceMembers(urlKey: string, body: unknown, audit: AuditEntry | null = null): Promise<Member[]> {
    const current = await this.get(urlKey);
    const members = readList(body, MEMBERS_BODY, 'members', memberRules).map((v): Member => {
      const email = (v.get('email') as string).toLowerCase();
      const id = current.members.find((m) => m.email === email)?.id ?? opaqueId('mem_');
      return { id, email, name: v.get('name') as string, isArchived: v.get('isArchived') === true };
    });
    const dropped = current.members.filter((m) => !members.some((kept) => kept.id === m.id));
    await this.refuseInUse(
      urlKey,
      'members',
      dropped.map((m) => m.id),
      (id) => `member ${dropped.find((m) => m.id === id)!.email}`,
    );
    return this.save(urlKey, 'members', members, audit);
  }

  /** As the client custom fields: a removed field's values take no part in anything (docs/decisions.md "Clients"). */
  async replaceCustomFields(
    urlKey: string,
    body: unknown,
    audit: AuditEntry | null = null,
  ): Promise<CustomFieldDefinition[]> {
    const current = await this.get(urlKey);
    return this.save(urlKey, 'customFields', readCustomFieldSet(body, current.customFields), audit);
  }

  private async refuseInUse(
    urlKey: string,
    kind: 'sources' | 'tags' | 'members',
    ids: string[],
    name: (id: string) => string,
  ): Promise<void> {
    if (ids.length === 0) return;
    const used = await this.store.leadSettings.inUse(urlKey, kind, ids);
    if (used.length === 0) return;
    throw AppError.fromFieldErrors(
      used.map((id) => ({
        field: kind,
        code: 'INVALID_FIELD_VALUE',
        message: `${name(id)} is carried by leads and cannot be removed; archive it instead`,
      })),
    );
  }

  /** `audit`: the operator's line, written with the kind (its detail: the count saved). */
  private async save<K extends LeadSettingsKind>(
    urlKey: string,
    kind: K,
    value: LeadSettings[K],
    audit: AuditEntry | null,
  ): Promise<LeadSettings[K]> {
    const line = audit && { ...audit, detail: { ...(audit.detail as object), count: value.length } };
    await this.store.leadSettings.put(urlKey, kind, value, this.now(), line);
    await this.store.changes.publish(`${LEAD_SETTINGS_TOPIC}:${urlKey}`);
    return value;
  }
}

/** Reads `{<key>: [entries]}` with the one body reader; every failure at once, in body order. */
function readList(
  body: unknown,
  spec: EntrySpec,
  key: string,
  rulesFor: (reader: FieldReader) => EntryRules,
): ReadValues[] {
  if (!isJsonObject(body)) throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const reader: FieldReader = new FieldReader(
    { businessCountry: '', enforceGstinChecksum: false },
    { rulesForList: () => rulesFor(reader), readCustomFields: () => undefined },
  );
  const values = reader.readEntry(spec, body, '');
  if (!Array.isArray(body[key])) reader.valueError(key, `${key} is required and must be an array`);
  if (reader.errors.length > 0) throw AppError.fromFieldErrors(reader.errors);
  return values!.get(key) as ReadValues[];
}

/** A rule that a member's value is unique in its list, compared as `normal` makes it. */
function unique(reader: FieldReader, member: string, what: string, normal: (value: string) => string = (v) => v) {
  const seen = new Set<string>();
  return (key: string, value: unknown, path: string) => {
    if (key !== member) return;
    const compared = normal(value as string);
    if (seen.has(compared)) reader.valueError(path, `${path} repeats a ${what} already in the list`);
    seen.add(compared);
  };
}

function sourceRules(reader: FieldReader): EntryRules {
  const once = unique(reader, 'key', 'key');
  return {
    afterMember(key, value, path) {
      if (key === 'key' && !SOURCE_KEY.test(value as string))
        reader.valueError(path, `${path} must be 1 to ${LEAD_SETTINGS_LIMITS.sourceKey} characters of A-Z, 0-9 and _`);
      else once(key, value, path);
    },
  };
}

function tagRules(reader: FieldReader, known: ReadonlySet<string>): EntryRules {
  const onceName = unique(reader, 'name', 'tag name (names compare ignoring case)', (v) => v.toLowerCase());
  const onceId = unique(reader, 'id', 'tag id');
  return {
    afterMember(key, value, path) {
      if (key === 'id' && !known.has(value as string))
        return reader.valueError(path, `${path} is not a tag of this business`);
      onceName(key, value, path);
      onceId(key, value, path);
    },
  };
}

function memberRules(reader: FieldReader): EntryRules {
  const once = unique(reader, 'email', 'member e-mail (compared ignoring case)', (v) => v.toLowerCase());
  return { afterMember: once };
}
