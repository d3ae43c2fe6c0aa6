import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { AppRecord, BusinessRecord, OperatorRecord } from './records.js';
import { isUniqueViolation } from './errors.js';
import { canName } from './keys.js';

type Created<T> = { ok: true; record: T } | { ok: false; reason: 'taken' };

/** Operators, businesses, apps and their attachments. */
export class AccountsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async countOperators(): Promise<number> {
    const row = await this.db.selectFrom('operators').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async createOperator(op: OperatorRecord, now: number): Promise<Created<OperatorRecord>> {
    try {
      await this.db.insertInto('operators').values({ public_id: op.publicId, email: op.email, password_hash: op.passwordHash, created_at: now }).execute();
      return { ok: true, record: op };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
      throw error;
    }
  }

  async findOperatorByEmail(email: string): Promise<OperatorRecord | undefined> {
    if (!canName(email)) return undefined;
    const row = await this.db.selectFrom('operators').select(['public_id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();
    return row && { publicId: row.public_id, email: row.email, passwordHash: row.password_hash };
  }

  async findOperatorByPublicId(publicId: string): Promise<OperatorRecord | undefined> {
    if (!canName(publicId)) return undefined;
    const row = await this.db.selectFrom('operators').select(['public_id', 'email', 'password_hash']).where('public_id', '=', publicId).executeTakeFirst();
    return row && { publicId: row.public_id, email: row.email, passwordHash: row.password_hash };
  }

  async setOperatorPassword(email: string, passwordHash: string): Promise<boolean> {
    const result = await this.db.updateTable('operators').set({ password_hash: passwordHash }).where('email', '=', email).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async signingKeys(): Promise<{ kid: string; secret: string }[]> {
    return this.db.selectFrom('signing_keys').select(['kid', 'secret']).orderBy('created_at', 'desc').execute();
  }

  async createBusiness(b: BusinessRecord): Promise<Created<BusinessRecord>> {
    try {
      await this.db.insertInto('businesses').values({
        url_key: b.urlKey, name: b.name, country: b.country, currency: b.currency,
        custom_fields_enabled: b.customFieldsEnabled ? 1 : 0, created_at: b.createdAt, updated_at: b.updatedAt,
      }).execute();
      return { ok: true, record: b };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
      throw error;
    }
  }

  async listBusinesses(): Promise<BusinessRecord[]> {
    const rows = await this.businessQuery().orderBy('created_at').orderBy('url_key').execute();
    return rows.map(toBusiness);
  }

  async findBusiness(urlKey: string): Promise<BusinessRecord | undefined> {
    if (!canName(urlKey)) return undefined;
    const row = await this.businessQuery().where('url_key', '=', urlKey).executeTakeFirst();
    return row && toBusiness(row);
  }

  async updateBusiness(urlKey: string, patch: Partial<Pick<BusinessRecord, 'name' | 'currency' | 'customFieldsEnabled' | 'timeZone'>>, now: number): Promise<BusinessRecord | undefined> {
    await this.db.updateTable('businesses').set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.currency !== undefined && { currency: patch.currency }),
      ...(patch.customFieldsEnabled !== undefined && { custom_fields_enabled: patch.customFieldsEnabled ? 1 : 0 }),
      ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
      updated_at: now,
    }).where('url_key', '=', urlKey).execute();
    return this.findBusiness(urlKey);
  }

  private businessQuery() {
    return this.db.selectFrom('businesses').select(['url_key', 'name', 'country', 'currency', 'custom_fields_enabled', 'time_zone', 'created_at', 'updated_at']);
  }

  async createApp(app: Omit<AppRecord, 'attachedUrlKeys'>): Promise<void> {
    await this.db.insertInto('apps').values({
      app_id: app.appId, name: app.name, secret_hash: app.secretHash, secret_version: app.secretVersion,
      public_key_pem: app.publicKeyPem, key_version: app.keyVersion, created_at: app.createdAt, updated_at: app.createdAt,
    }).execute();
  }

  async findApp(appId: string): Promise<AppRecord | undefined> {
    if (!canName(appId)) return undefined;
    const rows = await this.appQuery().where('apps.app_id', '=', appId).execute();
    return toApps(rows)[0];
  }

  async listApps(): Promise<AppRecord[]> {
    return toApps(await this.appQuery().orderBy('apps.created_at').orderBy('apps.app_id').execute());
  }

  private appQuery() {
    return this.db.selectFrom('apps')
      .leftJoin('app_businesses', 'app_businesses.app_pk', 'apps.id')
      .leftJoin('businesses', 'businesses.id', 'app_businesses.business_pk')
      .select(['apps.app_id', 'apps.name', 'apps.secret_hash', 'apps.secret_version', 'apps.public_key_pem', 'apps.key_version', 'apps.created_at', 'businesses.url_key']);
  }

  /** Replaces the secret hash and bumps its version, which invalidates every token issued with the old one. */
  async rotateSecret(appId: string, secretHash: string, now: number): Promise<boolean> {
    if (!canName(appId)) return false;
    const result = await this.db.updateTable('apps')
      .set((eb) => ({ secret_hash: secretHash, secret_version: eb('secret_version', '+', 1), updated_at: now }))
      .where('app_id', '=', appId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async rotateKey(appId: string, publicKeyPem: string, now: number): Promise<boolean> {
    if (!canName(appId)) return false;
    const result = await this.db.updateTable('apps')
      .set((eb) => ({ public_key_pem: publicKeyPem, key_version: eb('key_version', '+', 1), updated_at: now }))
      .where('app_id', '=', appId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async attach(appId: string, urlKey: string, now: number): Promise<void> {
    await this.db.insertInto('app_businesses')
      .expression((eb) => eb.selectFrom('apps').innerJoin('businesses', (join) => join.onTrue())
        .select(['apps.id as app_pk', 'businesses.id as business_pk', eb.val(now).as('created_at')])
        .where('apps.app_id', '=', appId).where('businesses.url_key', '=', urlKey))
      .onConflict((oc) => oc.columns(['app_pk', 'business_pk']).doNothing())
      .execute();
  }

  async detach(appId: string, urlKey: string): Promise<void> {
    await this.db.deleteFrom('app_businesses')
      .where('app_pk', '=', (eb) => eb.selectFrom('apps').select('id').where('app_id', '=', appId))
      .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
      .execute();
  }
}

function toBusiness(row: { url_key: string; name: string; country: string; currency: string; custom_fields_enabled: number; time_zone: string | null; created_at: number; updated_at: number }): BusinessRecord {
  return {
    urlKey: row.url_key, name: row.name, country: row.country, currency: row.currency,
    customFieldsEnabled: Number(row.custom_fields_enabled) === 1, timeZone: row.time_zone, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at),
  };
}

interface AppRow {
  app_id: string; name: string; secret_hash: string; secret_version: number; public_key_pem: string;
  key_version: number; created_at: number; url_key: string | null;
}

function toApps(rows: AppRow[]): AppRecord[] {
  const apps = new Map<string, AppRecord>();
  for (const row of rows) {
    let app = apps.get(row.app_id);
    if (!app) {
      app = {
        appId: row.app_id, name: row.name, secretHash: row.secret_hash, secretVersion: Number(row.secret_version),
        publicKeyPem: row.public_key_pem, keyVersion: Number(row.key_version), attachedUrlKeys: [], createdAt: Number(row.created_at),
      };
      apps.set(row.app_id, app);
    }
    if (row.url_key !== null) app.attachedUrlKeys.push(row.url_key);
  }
  for (const app of apps.values()) app.attachedUrlKeys.sort();
  return [...apps.values()];
}
