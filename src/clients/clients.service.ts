import type { CachedLoader } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { ClientStatus, StoredClient } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { BusinessContext } from './business-context.js';
import { sameClient } from './client.compare.js';
import { presentClient } from './client.present.js';
import type { ClientValue } from './client.types.js';
import { validateClient } from './client.validate.js';

export type CreateOutcome = { client: Record<string, unknown>; idempotent: boolean };

const notFound = () => new AppError('CLIENT_NOT_FOUND', 'Client not found');

/** Client use cases: idempotent create keyed by clientId, get, and the dashboard's actions. */
export class ClientsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<BusinessContext>,
    private readonly config: Pick<Config, 'enforceGstinChecksum'>,
    private readonly now: () => number,
  ) {}

  async context(urlKey: string): Promise<BusinessContext> {
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return context;
  }

  private validate(body: unknown, context: BusinessContext, mode: 'api' | 'operator'): ClientValue {
    const result = validateClient(body, {
      businessCountry: context.business.country,
      customFieldsEnabled: context.business.customFieldsEnabled,
      customFields: context.customFields,
      enforceGstinChecksum: this.config.enforceGstinChecksum,
    }, mode);
    if (!result.ok) throw AppError.fromFieldErrors(result.errors);
    return result.value;
  }

  /**
   * Validation first (a bad body is 400 even when the clientId is taken), then one INSERT … ON CONFLICT
   * DO NOTHING: the winner stores, every other caller compares against what is stored.
   */
  async create(urlKey: string, body: unknown): Promise<CreateOutcome> {
    const context = await this.context(urlKey);
    const value = this.validate(body, context, 'api');
    const clientId = (value as { clientId: string }).clientId;
    const result = await this.store.data.insertClient(urlKey, clientId, 'API', value, this.now());
    if (result.outcome === 'no-business') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    if (result.outcome === 'inserted') return { client: presentClient(result.client, context), idempotent: false };
    const stored = result.client;
    if (stored.status !== 'active' || !sameClient(stored.data as ClientValue, value, context.liveFieldIds)) {
      throw new AppError('IDEMPOTENCY_CONFLICT', 'A client with this clientId already exists with different details');
    }
    return { client: presentClient(stored, context), idempotent: true };
  }

  async get(urlKey: string, clientId: string): Promise<Record<string, unknown>> {
    const [context, stored] = await Promise.all([this.context(urlKey), this.store.data.findClient(urlKey, clientId)]);
    if (!stored || stored.status !== 'active') throw notFound();
    return presentClient(stored, context);
  }

  async getForOperator(urlKey: string, clientId: string): Promise<Record<string, unknown>> {
    const context = await this.context(urlKey);
    const stored = await this.require(urlKey, clientId);
    return { ...presentClient(stored, context), status: stored.status };
  }

  async setStatus(urlKey: string, clientId: string, status: Exclude<ClientStatus, 'active'>): Promise<{ clientId: string; status: ClientStatus }> {
    await this.context(urlKey);
    const stored = await this.require(urlKey, clientId);
    // Deleted is final: archiving a deleted client does not bring it back to a lesser state.
    const next = stored.status === 'deleted' ? 'deleted' : status;
    if (stored.status !== next) await this.store.data.setClientStatus(urlKey, clientId, next, this.now());
    return { clientId, status: next };
  }

  /** Archive is the reversible action: an archived client becomes active again. Delete is final. */
  async restore(urlKey: string, clientId: string): Promise<{ clientId: string; status: ClientStatus }> {
    await this.context(urlKey);
    const stored = await this.require(urlKey, clientId);
    if (stored.status === 'deleted') throw new AppError('CLIENT_DELETED', 'This client was deleted, and deletion is final: only an archived client can be restored');
    if (stored.status !== 'active') await this.store.data.setClientStatus(urlKey, clientId, 'active', this.now());
    return { clientId, status: 'active' };
  }

  /** A client made in the dashboard (or another origin): no clientId, so never readable or matched by the API. */
  async createFromDashboard(urlKey: string, body: unknown): Promise<Record<string, unknown>> {
    const context = await this.context(urlKey);
    const value = this.validate(body, context, 'operator');
    const { source, ...data } = value as ClientValue & { source: string };
    const result = await this.store.data.insertClient(urlKey, null, source, data, this.now());
    if (result.outcome !== 'inserted') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return presentClient(result.client, context);
  }

  async addDocument(urlKey: string, clientId: string, member: string, amount: number): Promise<Record<string, unknown>> {
    const context = await this.context(urlKey);
    await this.require(urlKey, clientId);
    await this.store.data.addToBalance(urlKey, clientId, member, amount);
    const stored = (await this.store.data.findClient(urlKey, clientId))!;
    return presentClient(stored, context).balance as Record<string, unknown>;
  }

  private async require(urlKey: string, clientId: string): Promise<StoredClient> {
    const stored = await this.store.data.findClient(urlKey, clientId);
    if (!stored) throw notFound();
    return stored;
  }
}
