import type { AppRegistry } from '../auth/app-registry.js';
import { generateAppKeyPair } from '../auth/app-keys.js';
import { hashSecret, opaqueId, randomSecret } from '../auth/secrets.js';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry, ListedApp } from '../storage/records.js';

/**
 * Apps: created with a secret and a key pair shown once; the service keeps a hash and the public key. Each
 * change takes the operator's audit line (`audit`), which the store writes in the change's transaction.
 */
export class AppsService {
  constructor(
    private readonly store: Store,
    private readonly registry: AppRegistry,
    private readonly config: Pick<Config, 'jwtAudience' | 'passwordHashCost'>,
    private readonly now: () => number,
  ) {}

  async create(name: string, audit: AuditEntry | null = null) {
    const appSecret = randomSecret();
    const { privateKeyPem, publicKeyPem } = await generateAppKeyPair();
    const appId = opaqueId('app_');
    const record = {
      appId,
      name,
      secretHash: await hashSecret(appSecret, this.config.passwordHashCost),
      secretVersion: 1,
      publicKeyPem,
      keyVersion: 1,
      createdAt: this.now(),
    };
    await this.store.accounts.createApp(record, audit && withDetail(audit, { appId }));
    return { appId, name, appSecret, privateKeyPem, audience: this.config.jwtAudience };
  }

  /** Archived apps only when asked for. */
  async list(includeArchived = false) {
    return (await this.store.accounts.listApps()).filter((a) => includeArchived || a.archivedAt === null).map(present);
  }

  /**
   * Archive (or restore): an archived app's tokens and secret stop working at once in this process
   * and within the change feed's delay in others; its key, secret, attachments and history stay, so
   * a restore brings back the same credentials. Repeating either is harmless.
   */
  async setArchived(appId: string, archived: boolean, audit: AuditEntry | null = null) {
    const current = await this.require(appId);
    if (
      !(await this.store.accounts.setAppArchived(
        appId,
        archived ? (current.archivedAt ?? this.now()) : null,
        this.now(),
        audit,
      ))
    )
      throw appNotFound();
    await this.registry.changed(appId);
    return present(await this.require(appId));
  }

  async rotateSecret(appId: string, audit: AuditEntry | null = null) {
    const appSecret = randomSecret();
    if (
      !(await this.store.accounts.rotateSecret(
        appId,
        await hashSecret(appSecret, this.config.passwordHashCost),
        this.now(),
        audit,
      ))
    )
      throw appNotFound();
    await this.registry.changed(appId);
    return { appId, appSecret };
  }

  async rotateKey(appId: string, audit: AuditEntry | null = null) {
    const { privateKeyPem, publicKeyPem } = await generateAppKeyPair();
    if (!(await this.store.accounts.rotateKey(appId, publicKeyPem, this.now(), audit))) throw appNotFound();
    await this.registry.changed(appId);
    return { appId, privateKeyPem, audience: this.config.jwtAudience };
  }

  async attach(appId: string, urlKey: string, audit: AuditEntry | null = null) {
    await this.requireBoth(appId, urlKey);
    await this.store.accounts.attach(appId, urlKey, this.now(), audit);
    await this.registry.changed(appId);
    return present(await this.require(appId));
  }

  async detach(appId: string, urlKey: string, audit: AuditEntry | null = null) {
    await this.requireBoth(appId, urlKey);
    await this.store.accounts.detach(appId, urlKey, audit);
    await this.registry.changed(appId);
    return present(await this.require(appId));
  }

  /** The app as listed (with its last-used time), straight from the store. */
  private async require(appId: string): Promise<ListedApp> {
    const app = (await this.store.accounts.listApps(appId))[0];
    if (!app) throw appNotFound();
    return app;
  }

  private async requireBoth(appId: string, urlKey: string): Promise<void> {
    await this.require(appId);
    if (!(await this.store.accounts.findBusiness(urlKey)))
      throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
  }
}

function appNotFound(): AppError {
  return new AppError('APP_NOT_FOUND', 'No app with this appId');
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function present(app: ListedApp) {
  return {
    appId: app.appId,
    name: app.name,
    businesses: app.attachedUrlKeys,
    archivedBusinesses: app.archivedUrlKeys,
    createdAt: iso(app.createdAt),
    isArchived: app.archivedAt !== null,
    archivedAt: iso(app.archivedAt),
    lastUsedAt: iso(app.lastUsedAt),
  };
}
