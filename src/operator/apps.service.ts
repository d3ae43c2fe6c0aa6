import type { AppRegistry } from '../auth/app-registry.js';
import { generateAppKeyPair } from '../auth/app-keys.js';
import { hashSecret, opaqueId, randomSecret } from '../auth/secrets.js';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import type { AppRecord } from '../storage/records.js';

/** Apps: created with a secret and a key pair shown once; the service keeps a hash and the public key. */
export class AppsService {
  constructor(private readonly store: Store, private readonly registry: AppRegistry, private readonly config: Pick<Config, 'jwtAudience'>, private readonly now: () => number) {}

  async create(name: string) {
    const appSecret = randomSecret();
    const { privateKeyPem, publicKeyPem } = await generateAppKeyPair();
    const appId = opaqueId('app_');
    await this.store.accounts.createApp({
      appId, name, secretHash: await hashSecret(appSecret), secretVersion: 1, publicKeyPem, keyVersion: 1, createdAt: this.now(),
    });
    return { appId, name, appSecret, privateKeyPem, audience: this.config.jwtAudience };
  }

  async list() {
    return (await this.store.accounts.listApps()).map(present);
  }

  async rotateSecret(appId: string) {
    const appSecret = randomSecret();
    if (!(await this.store.accounts.rotateSecret(appId, await hashSecret(appSecret), this.now()))) throw appNotFound();
    await this.registry.changed(appId);
    return { appId, appSecret };
  }

  async rotateKey(appId: string) {
    const { privateKeyPem, publicKeyPem } = await generateAppKeyPair();
    if (!(await this.store.accounts.rotateKey(appId, publicKeyPem, this.now()))) throw appNotFound();
    await this.registry.changed(appId);
    return { appId, privateKeyPem, audience: this.config.jwtAudience };
  }

  async attach(appId: string, urlKey: string) {
    await this.requireBoth(appId, urlKey);
    await this.store.accounts.attach(appId, urlKey, this.now());
    await this.registry.changed(appId);
    return present((await this.store.accounts.findApp(appId))!);
  }

  async detach(appId: string, urlKey: string) {
    await this.requireBoth(appId, urlKey);
    await this.store.accounts.detach(appId, urlKey);
    await this.registry.changed(appId);
    return present((await this.store.accounts.findApp(appId))!);
  }

  private async requireBoth(appId: string, urlKey: string): Promise<void> {
    if (!(await this.store.accounts.findApp(appId))) throw appNotFound();
    if (!(await this.store.accounts.findBusiness(urlKey))) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
  }
}

function appNotFound(): AppError {
  return new AppError('APP_NOT_FOUND', 'No app with this appId');
}

function present(app: AppRecord) {
  return { appId: app.appId, name: app.name, businesses: app.attachedUrlKeys, createdAt: new Date(app.createdAt).toISOString() };
}
