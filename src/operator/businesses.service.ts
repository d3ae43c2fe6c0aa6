import { randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import type { BusinessRecord } from '../storage/records.js';
import { defaultCurrencyForCountry, isCountryCode, isCurrencyCode } from '../validation/countries.js';
import { nonEmptyText, readBody } from './body-shape.js';

const URL_KEY = /^[a-z0-9][a-z0-9-]{2,62}$/;

export interface NewBusiness {
  name: string;
  country: string;
  urlKey?: string;
  currency?: string;
  customFieldsEnabled?: boolean;
}

export type BusinessPatch = Partial<Pick<NewBusiness, 'name' | 'currency' | 'customFieldsEnabled'>>;

const nameRule = { type: 'string', check: nonEmptyText(500) } as const;
const currencyRule = { type: 'string', check: (v: string) => (isCurrencyCode(v) ? undefined : 'currency must be an ISO 4217 code') } as const;
const flagRule = { type: 'boolean' } as const;

export function readNewBusiness(body: unknown): NewBusiness {
  return readBody<NewBusiness>(body, {
    name: { ...nameRule, required: true },
    country: { type: 'string', required: true, check: (v: string) => (isCountryCode(v) ? undefined : 'country must be an ISO 3166-1 alpha-2 code') },
    urlKey: { type: 'string', check: (v: string) => (URL_KEY.test(v) ? undefined : 'urlKey must be 3 to 63 characters of a-z, 0-9 and -, starting with a letter or digit') },
    currency: currencyRule,
    customFieldsEnabled: flagRule,
  });
}

export function readBusinessPatch(body: unknown): BusinessPatch {
  return readBody<BusinessPatch>(body, { name: nameRule, currency: currencyRule, customFieldsEnabled: flagRule });
}

/** Transliterates what it can, drops the rest: "Café Número 1" → "cafe-numero-1". */
export function urlKeyFromName(name: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50).replace(/-+$/, '');
  return base.length >= 3 ? base : `business${base ? `-${base}` : ''}`;
}

export class BusinessesService {
  constructor(private readonly store: Store, private readonly now: () => number) {}

  async create(input: NewBusiness) {
    const now = this.now();
    const record: BusinessRecord = {
      urlKey: input.urlKey ?? urlKeyFromName(input.name), name: input.name.trim(), country: input.country,
      currency: input.currency ?? defaultCurrencyForCountry(input.country), customFieldsEnabled: input.customFieldsEnabled ?? false,
      createdAt: now, updatedAt: now,
    };
    for (let attempt = 0; attempt < 8; attempt++) {
      const created = await this.store.accounts.createBusiness(record);
      if (created.ok) return present(record);
      if (input.urlKey) throw new AppError('URL_KEY_TAKEN', 'This urlKey is already taken');
      // A generated key that is taken gets a short random suffix, retried until free.
      record.urlKey = `${urlKeyFromName(input.name).slice(0, 56)}-${randomBytes(3).toString('hex')}`;
    }
    throw new AppError('URL_KEY_TAKEN', 'Could not find a free urlKey for this name; send one');
  }

  async list() {
    return (await this.store.accounts.listBusinesses()).map(present);
  }

  async get(urlKey: string) {
    return present(await this.require(urlKey));
  }

  async update(urlKey: string, patch: BusinessPatch) {
    await this.require(urlKey);
    const updated = await this.store.accounts.updateBusiness(urlKey, { ...patch, ...(patch.name && { name: patch.name.trim() }) }, this.now());
    await this.store.changes.publish(`business:${urlKey}`);
    return present(updated!);
  }

  async require(urlKey: string): Promise<BusinessRecord> {
    const business = await this.store.accounts.findBusiness(urlKey);
    if (!business) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return business;
  }
}

export function present(b: BusinessRecord) {
  return { urlKey: b.urlKey, name: b.name, country: b.country, currency: b.currency, customFieldsEnabled: b.customFieldsEnabled };
}
