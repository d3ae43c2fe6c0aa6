import { type Kysely, type UpdateObject, sql } from 'kysely';
import type { Database } from './schema.js';
import type { AppRecord, AuditEntry, BusinessRecord, ListedApp, OperatorRecord } from './records.js';
import { withAuditLine } from './audit-lines.js';
import { isUniqueViolation } from './errors.js';
import { canName } from './keys.js';

type Created<T> = { ok: true; record: T } | { ok: false; reason: 'taken' };

/**
 * Operators, businesses, apps and their attachments. Each write an operator makes takes the operator's audit
 * line (`audit`) and writes it in the write's own transaction, when the write finds what it changes.
 */
export class AccountsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async countOperators(): Promise<number> {
    const row = await this.db
      .selectFrom('operators')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async createOperator(
    op: Omit<OperatorRecord, 'sessionVersion' | 'createdAt'>,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<Created<OperatorRecord>> {
    try {
      await withAuditLine(this.db, audit, (db) =>
        db
          .insertInto('operators')
          .values({ public_id: op.publicId, email: op.email, password_hash: op.passwordHash, created_at: now })
          .execute(),
      );
      return { ok: true, record: { ...op, sessionVersion: 0, createdAt: now } };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
      throw error;
    }
  }

  async findOperatorByEmail(email: string): Promise<OperatorRecord | undefined> {
    if (!canName(email)) return undefined;
    const row = await this.operatorQuery().where('email', '=', email).executeTakeFirst();
    return row && toOperator(row);
  }

  async findOperatorByPublicId(publicId: string): Promise<OperatorRecord | undefined> {
    if (!canName(publicId)) return undefined;
    const row = await this.operatorQuery().where('public_id', '=', publicId).executeTakeFirst();
    return row && toOperator(row);
  }

  async listOperators(): Promise<OperatorRecord[]> {
    return (await this.operatorQuery().orderBy('created_at').orderBy('email').execute()).map(toOperator);
  }

  private operatorQuery() {
    return this.db
      .selectFrom('operators')
      .select(['public_id', 'email', 'password_hash', 'session_version', 'created_at']);
  }

  /** A new password ends every session issued before it (the session version goes up). */
  async setOperatorPassword(email: string, passwordHash: string, audit: AuditEntry | null = null): Promise<boolean> {
    return withAuditLine(
      this.db,
      audit,
      async (db) => {
        const result = await db
          .updateTable('operators')
          .set((eb) => ({ password_hash: passwordHash, session_version: eb('session_version', '+', 1) }))
          .where('email', '=', email)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
      (changed) => changed,
    );
  }

  async signingKeys(): Promise<{ kid: string; secret: string }[]> {
    return this.db.selectFrom('signing_keys').select(['kid', 'secret']).orderBy('created_at', 'desc').execute();
  }

  async createBusiness(b: BusinessRecord, audit: AuditEntry | null = null): Promise<Created<BusinessRecord>> {
    try {
      await withAuditLine(this.db, audit, (db) =>
        db
          .insertInto('businesses')
          .values({
            url_key: b.urlKey,
            name: b.name,
            country: b.country,
            currency: b.currency,
            custom_fields_enabled: b.customFieldsEnabled ? 1 : 0,
            created_at: b.createdAt,
            updated_at: b.updatedAt,
          })
          .execute(),
      );
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

  async updateBusiness(
    urlKey: string,
    patch: Partial<Pick<BusinessRecord, 'name' | 'currency' | 'customFieldsEnabled' | 'timeZone'>>,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<BusinessRecord | undefined> {
    if (!canName(urlKey)) return undefined;
    const changed = await withAuditLine(
      this.db,
      audit,
      async (db) => {
        const result = await db
          .updateTable('businesses')
          .set({
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.currency !== undefined && { currency: patch.currency }),
            ...(patch.customFieldsEnabled !== undefined && {
              custom_fields_enabled: patch.customFieldsEnabled ? 1 : 0,
            }),
            ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
            updated_at: now,
          })
          .where('url_key', '=', urlKey)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
      (updated) => updated,
    );
    return changed ? this.findBusiness(urlKey) : undefined;
  }

  /** Archive (a time) or restore (null); false when no such business. */
  async setBusinessArchived(
    urlKey: string,
    archivedAt: number | null,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    if (!canName(urlKey)) return false;
    return withAuditLine(
      this.db,
      audit,
      async (db) => {
        const result = await db
          .updateTable('businesses')
          .set({ archived_at: archivedAt, updated_at: now })
          .where('url_key', '=', urlKey)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
      (changed) => changed,
    );
  }

  private businessQuery() {
    return this.db
      .selectFrom('businesses')
      .select([
        'url_key',
        'name',
        'country',
        'currency',
        'custom_fields_enabled',
        'time_zone',
        'created_at',
        'updated_at',
        'archived_at',
      ]);
  }

  async createApp(
    app: Omit<AppRecord, 'attachedUrlKeys' | 'archivedUrlKeys' | 'archivedAt'>,
    audit: AuditEntry | null = null,
  ): Promise<void> {
    await withAuditLine(this.db, audit, (db) => this.insertApp(db, app));
  }

  private async insertApp(
    db: Kysely<Database>,
    app: Omit<AppRecord, 'attachedUrlKeys' | 'archivedUrlKeys' | 'archivedAt'>,
  ): Promise<void> {
    await db
      .insertInto('apps')
      .values({
        app_id: app.appId,
        name: app.name,
        secret_hash: app.secretHash,
        secret_version: app.secretVersion,
        public_key_pem: app.publicKeyPem,
        key_version: app.keyVersion,
        created_at: app.createdAt,
        updated_at: app.createdAt,
      })
      .execute();
  }

  async findApp(appId: string): Promise<AppRecord | undefined> {
    if (!canName(appId)) return undefined;
    const rows = await this.appQuery().where('apps.app_id', '=', appId).execute();
    return toApps(rows)[0];
  }

  /** Every app, or the one named. */
  async listApps(appId?: string): Promise<ListedApp[]> {
    if (appId !== undefined && !canName(appId)) return [];
    const query = appId === undefined ? this.appQuery() : this.appQuery().where('apps.app_id', '=', appId);
    return toApps(await query.orderBy('apps.created_at').orderBy('apps.app_id').execute());
  }

  private appQuery() {
    return this.db
      .selectFrom('apps')
      .leftJoin('app_businesses', 'app_businesses.app_pk', 'apps.id')
      .leftJoin('businesses', 'businesses.id', 'app_businesses.business_pk')
      .select([
        'apps.app_id',
        'apps.name',
        'apps.secret_hash',
        'apps.secret_version',
        'apps.public_key_pem',
        'apps.key_version',
        'apps.created_at',
        'apps.archived_at',
        'apps.last_used_at',
        'businesses.url_key',
        'businesses.archived_at as business_archived_at',
      ]);
  }

  /** Archive (a time) or restore (null); false when no such app. */
  async setAppArchived(
    appId: string,
    archivedAt: number | null,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    return this.changeApp(appId, { archived_at: archivedAt, updated_at: now }, audit);
  }

  /** Moves the last-used time forward only: two processes writing out of order never set it back. */
  async noteAppUsed(appId: string, at: number): Promise<void> {
    if (!canName(appId)) return;
    await this.db
      .updateTable('apps')
      .set({ last_used_at: at })
      .where('app_id', '=', appId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }

  /** The apps attached to a business: archiving the business must drop them from every process's cache. */
  async appIdsAttachedTo(urlKey: string): Promise<string[]> {
    if (!canName(urlKey)) return [];
    const rows = await this.db
      .selectFrom('app_businesses')
      .innerJoin('apps', 'apps.id', 'app_businesses.app_pk')
      .innerJoin('businesses', 'businesses.id', 'app_businesses.business_pk')
      .select('apps.app_id')
      .where('businesses.url_key', '=', urlKey)
      .execute();
    return rows.map((r) => r.app_id);
  }

  /** Replaces the secret hash and bumps its version, which invalidates every token issued with the old one. */
  async rotateSecret(
    appId: string,
    secretHash: string,
    now: number,
    audit: AuditEntry | null = null,
  ): Promise<boolean> {
    return this.changeApp(
      appId,
      { secret_hash: secretHash, secret_version: sql`secret_version + 1`, updated_at: now },
      audit,
    );
  }

  async rotateKey(appId: string, publicKeyPem: string, now: number, audit: AuditEntry | null = null): Promise<boolean> {
    return this.changeApp(
      appId,
      { public_key_pem: publicKeyPem, key_version: sql`key_version + 1`, updated_at: now },
      audit,
    );
  }

  async attach(appId: string, urlKey: string, now: number, audit: AuditEntry | null = null): Promise<void> {
    await withAuditLine(this.db, audit, (db) => attachIn(db, appId, urlKey, now));
  }

  async detach(appId: string, urlKey: string, audit: AuditEntry | null = null): Promise<void> {
    await withAuditLine(this.db, audit, (db) =>
      db
        .deleteFrom('app_businesses')
        .where('app_pk', '=', (eb) => eb.selectFrom('apps').select('id').where('app_id', '=', appId))
        .where('business_pk', '=', (eb) => eb.selectFrom('businesses').select('id').where('url_key', '=', urlKey))
        .execute(),
    );
  }

  /** One app's row changed with its operator's line in the same transaction; false when no such app. */
  private async changeApp(
    appId: string,
    change: UpdateObject<Database, 'apps'>,
    audit: AuditEntry | null,
  ): Promise<boolean> {
    if (!canName(appId)) return false;
    return withAuditLine(
      this.db,
      audit,
      async (db) => {
        const result = await db.updateTable('apps').set(change).where('app_id', '=', appId).executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
      (changed) => changed,
    );
  }
}

async function attachIn(db: Kysely<Database>, appId: string, urlKey: string, now: number): Promise<void> {
  await db
    .insertInto('app_businesses')
    .expression((eb) =>
      eb
        .selectFrom('apps')
        .innerJoin('businesses', (join) => join.onTrue())
        .select(['apps.id as app_pk', 'businesses.id as business_pk', eb.val(now).as('created_at')])
        .where('apps.app_id', '=', appId)
        .where('businesses.url_key', '=', urlKey),
    )
    .onConflict((oc) => oc.columns(['app_pk', 'business_pk']).doNothing())
    .execute();
}

const orNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toOperator(row: {
  public_id: string;
  email: string;
  password_hash: string;
  session_version: number;
  created_at: number;
}): OperatorRecord {
  return {
    publicId: row.public_id,
    email: row.email,
    passwordHash: row.password_hash,
    sessionVersion: Number(row.session_version),
    createdAt: Number(row.created_at),
  };
}

function toBusiness(row: {
  url_key: string;
  name: string;
  country: string;
  currency: string;
  custom_fields_enabled: number;
  time_zone: string | null;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
}): BusinessRecord {
  return {
    urlKey: row.url_key,
    name: row.name,
    country: row.country,
    currency: row.currency,
    customFieldsEnabled: Number(row.custom_fields_enabled) === 1,
    timeZone: row.time_zone,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    archivedAt: orNull(row.archived_at),
  };
}

interface AppRow {
  app_id: string;
  name: string;
  secret_hash: string;
  secret_version: number;
  public_key_pem: string;
  key_version: number;
  created_at: number;
  archived_at: number | null;
  last_used_at: number | null;
  url_key: string | null;
  business_archived_at: number | null;
}

function toApps(rows: AppRow[]): ListedApp[] {
  const apps = new Map<string, ListedApp>();
  for (const row of rows) {
    let app = apps.get(row.app_id);
    if (!app) {
      app = {
        appId: row.app_id,
        name: row.name,
        secretHash: row.secret_hash,
        secretVersion: Number(row.secret_version),
        publicKeyPem: row.public_key_pem,
        keyVersion: Number(row.key_version),
        attachedUrlKeys: [],
        archivedUrlKeys: [],
        createdAt: Number(row.created_at),
        archivedAt: orNull(row.archived_at),
        lastUsedAt: orNull(row.last_used_at),
      };
      apps.set(row.app_id, app);
    }
    if (row.url_key !== null) app.attachedUrlKeys.push(row.url_key);
    if (row.url_key !== null && row.business_archived_at !== null) app.archivedUrlKeys.push(row.url_key);
  }
  for (const app of apps.values()) {
    app.attachedUrlKeys.sort();
    app.archivedUrlKeys.sort();
  }
  return [...apps.values()];
}
