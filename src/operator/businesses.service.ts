import { randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import type { AppRegistry } from '../auth/app-registry.js';
import type { Business } from '../openapi/answer-types.js';
import type { Store } from '../storage/store.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry, BusinessRecord } from '../storage/records.js';
import { defaultTimeZone } from '../leads/lead-settings.defaults.js';
import { businessLocale, COUNTRY_CODES, CURRENCY_CODES, defaultCurrencyForCountry } from '../validation/countries.js';
import { entry, type BooleanSpec, type StringSpec } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';
import { canonicalTimeZone } from '../validation/time-zones.js';

const URL_KEY = /^[a-z0-9][a-z0-9-]{2,62}$/;

export interface NewBusiness {
  name: string;
  country: string;
  urlKey?: string;
  currency?: string;
  customFieldsEnabled?: boolean;
}

export type BusinessPatch = Partial<Pick<NewBusiness, 'name' | 'currency' | 'customFieldsEnabled'>> & {
  timeZone?: string;
};

export const BUSINESS_NAME_MAX_LENGTH = 500;

const name: StringSpec = {
  type: 'string',
  trim: true,
  minLength: 1,
  maxLength: BUSINESS_NAME_MAX_LENGTH,
  description: `Display name of the business; 1 to ${BUSINESS_NAME_MAX_LENGTH} characters, trimmed.`,
};
const currency: StringSpec = {
  type: 'string',
  enum: CURRENCY_CODES,
  message: 'must be an ISO 4217 code',
  description: "ISO 4217 currency of the business's documents; on create, defaults to the country's currency.",
};
const customFieldsEnabled: BooleanSpec = {
  type: 'boolean',
  description: 'Whether clients may carry custom fields; false on create unless sent.',
};

/** POST /admin/v1/businesses (docs/decisions.md "Foundation": urlKey). */
export const NEW_BUSINESS_RULES = entry('BusinessInput', 'A new business.', [
  ['name', { ...name, required: true }],
  [
    'country',
    {
      type: 'string',
      required: true,
      enum: COUNTRY_CODES,
      message: 'must be an ISO 3166-1 alpha-2 code',
      description: 'ISO 3166-1 alpha-2 country of the business; selects tax rules.',
    },
  ],
  [
    'urlKey',
    {
      type: 'string',
      pattern: URL_KEY,
      message: 'must be 3 to 63 characters of a-z, 0-9 and -, starting with a letter or digit',
      description:
        'The business key used in paths; generated from the name when omitted. 3 to 63 characters of a-z, 0-9 and -.',
    },
  ],
  ['currency', currency],
  ['customFieldsEnabled', customFieldsEnabled],
]);

/** PATCH /admin/v1/businesses/:urlKey: a subset of what can change (country and urlKey cannot). */
export const BUSINESS_PATCH_RULES = entry('BusinessPatch', 'What changes; country and urlKey cannot.', [
  ['name', name],
  ['currency', currency],
  ['customFieldsEnabled', customFieldsEnabled],
  [
    'timeZone',
    {
      type: 'string',
      format: 'timeZone',
      maxLength: 64,
      description:
        'IANA time zone of the business: "today" for lead follow-up dates. Any case is accepted; it is stored as the time zone database spells ' +
        'it (`asia/calcutta` → `Asia/Kolkata`, `utc` → `UTC`); links the database removed are refused. Defaults by country (IN Asia/Kolkata, ' +
        'AE Asia/Dubai, SA Asia/Riyadh, MY Asia/Kuala_Lumpur, otherwise UTC).',
    },
  ],
]);

export function readNewBusiness(body: unknown): NewBusiness {
  return readBody<NewBusiness>(body, NEW_BUSINESS_RULES);
}

export function readBusinessPatch(body: unknown): BusinessPatch {
  return readBody<BusinessPatch>(body, BUSINESS_PATCH_RULES);
}

/** Transliterates what it can, drops the rest: "Café Número 1" → "cafe-numero-1". */
export function urlKeyFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `business${base ? `-${base}` : ''}`;
}

export class BusinessesService {
  constructor(
    private readonly store: Store,
    private readonly registry: Pick<AppRegistry, 'changed'>,
    private readonly now: () => number,
  ) {}

  /** `audit`: the operator's line, written with the business (it names the key settled on, and the name). */
  async create(input: NewBusiness, audit: AuditEntry | null = null) {
    const now = this.now();
    const record: BusinessRecord = {
      urlKey: input.urlKey ?? urlKeyFromName(input.name),
      name: input.name.trim(),
      country: input.country,
      currency: input.currency ?? defaultCurrencyForCountry(input.country),
      customFieldsEnabled: input.customFieldsEnabled ?? false,
      timeZone: null,
      createdAt: now,
      updatedAt: now,
    };
    for (let attempt = 0; attempt < 8; attempt++) {
      const line = audit && { ...withDetail(audit, { name: record.name }), businessUrlKey: record.urlKey };
      const created = await this.store.accounts.createBusiness(record, line);
      if (created.ok) return present(record);
      if (input.urlKey) throw new AppError('URL_KEY_TAKEN', 'This urlKey is already taken');
      // A generated key that is taken gets a short random suffix, retried until free.
      record.urlKey = `${urlKeyFromName(input.name).slice(0, 56)}-${randomBytes(3).toString('hex')}`;
    }
    throw new AppError('URL_KEY_TAKEN', 'Could not find a free urlKey for this name; send one');
  }

  /** Archived businesses only when asked for. */
  async list(includeArchived = false) {
    return (await this.store.accounts.listBusinesses()).filter((b) => includeArchived || !b.archivedAt).map(present);
  }

  /**
   * Archive (or restore): apps attached to it get 403 PERMISSION_DENIED, as if detached, until it is
   * restored; its data, urlKey and attachments stay. The attached apps' registry entries are dropped in
   * every process, since the guard reads the archived state from them. Repeating either is harmless.
   */
  async setArchived(urlKey: string, archived: boolean, audit: AuditEntry | null = null) {
    const current = await this.require(urlKey);
    const archivedAt = archived ? (current.archivedAt ?? this.now()) : null;
    if (!(await this.store.accounts.setBusinessArchived(urlKey, archivedAt, this.now(), audit))) throw notFound();
    for (const appId of await this.store.accounts.appIdsAttachedTo(urlKey)) await this.registry.changed(appId);
    await this.store.changes.publish(`business:${urlKey}`);
    return present({ ...current, archivedAt });
  }

  async get(urlKey: string) {
    return present(await this.require(urlKey));
  }

  async update(urlKey: string, patch: BusinessPatch, audit: AuditEntry | null = null) {
    await this.require(urlKey);
    // A time zone is stored as the time zone database spells it (the format check has accepted it).
    const timeZone =
      patch.timeZone === undefined ? {} : { timeZone: canonicalTimeZone(patch.timeZone) ?? patch.timeZone };
    const updated = await this.store.accounts.updateBusiness(
      urlKey,
      { ...patch, ...(patch.name && { name: patch.name.trim() }), ...timeZone },
      this.now(),
      audit,
    );
    if (!updated) throw notFound();
    await this.store.changes.publish(`business:${urlKey}`);
    return present(updated);
  }

  async require(urlKey: string): Promise<BusinessRecord> {
    const business = await this.store.accounts.findBusiness(urlKey);
    if (!business) throw notFound();
    return business;
  }
}

function notFound(): AppError {
  return new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
}

export function present(b: BusinessRecord) {
  return {
    urlKey: b.urlKey,
    name: b.name,
    country: b.country,
    currency: b.currency,
    customFieldsEnabled: b.customFieldsEnabled,
    timeZone: b.timeZone ?? defaultTimeZone(b.country),
    locale: businessLocale(b.country),
    isArchived: Boolean(b.archivedAt),
    archivedAt: b.archivedAt ? new Date(b.archivedAt).toISOString() : null,
  } satisfies Business;
}
