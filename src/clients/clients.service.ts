import type { CachedLoader } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { decimalOf, roundToScale } from '../invoices/invoice.money.js';
import { BALANCE_DECIMALS, insertedClient } from '../storage/client-batches.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry, ClientStatus, StoredClient } from '../storage/records.js';
import type { OutboxRow } from '../storage/webhooks.store.js';
import type { EventType } from '../webhooks/event-types.js';
import type { WebhookEvents } from '../webhooks/events.js';
import type { Store } from '../storage/store.js';
import type { BusinessContext } from './business-context.js';
import { sameClient } from './client.compare.js';
import { presentClient } from './client.present.js';
import type { ClientValue } from './client.types.js';
import { validateClient } from './client.validate.js';

export type CreateOutcome = { client: Record<string, unknown>; idempotent: boolean };

const NO_EVENTS: OutboxRow[] = [];

const notFound = () => new AppError('CLIENT_NOT_FOUND', 'Client not found');

/** Client use cases: idempotent create keyed by clientId, get, and the dashboard's actions. */
export class ClientsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<BusinessContext>,
    private readonly config: Pick<Config, 'enforceGstinChecksum'>,
    private readonly now: () => number,
    private readonly events: WebhookEvents,
  ) {}

  /**
   * The outbox rows of one client event, or none (and no work: `present` is not even called) when no
   * enabled endpoint of the business wants `type`, which the cached subscriptions answer from memory.
   */
  private async eventRows(
    urlKey: string,
    type: EventType,
    clientId: string | null,
    present: () => Record<string, unknown>,
    at: number,
  ): Promise<OutboxRow[]> {
    const wanted = this.events.wants(urlKey, type);
    if (!(wanted instanceof Promise ? await wanted : wanted)) return NO_EVENTS;
    return this.events.rows(urlKey, { type, resourceId: clientId ?? '', data: present() }, at);
  }

  async context(urlKey: string): Promise<BusinessContext> {
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return context;
  }

  private validate(body: unknown, context: BusinessContext, mode: 'api' | 'operator'): ClientValue {
    const result = validateClient(
      body,
      {
        businessCountry: context.business.country,
        customFieldsEnabled: context.business.customFieldsEnabled,
        customFields: context.customFields,
        enforceGstinChecksum: this.config.enforceGstinChecksum,
      },
      mode,
    );
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
    const now = this.now();
    let presented: Record<string, unknown> | undefined;
    const events = await this.eventRows(
      urlKey,
      'client.created',
      clientId,
      () => (presented = presentClient(insertedClient(clientId, 'API', value, now), context)),
      now,
    );
    const result = await this.store.data.insertClient(urlKey, clientId, 'API', value, now, events);
    if (result.outcome === 'no-business') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    if (result.outcome === 'inserted') {
      if (events.length > 0) this.events.sent();
      return { client: presented ?? presentClient(result.client, context), idempotent: false };
    }
    const stored = result.client;
    if (stored.status !== 'active' || !sameClient(stored.data as ClientValue, value, context.liveFieldIds)) {
      throw new AppError('IDEMPOTENCY_CONFLICT', 'A client with this clientId already exists with different details');
    }
    return { client: presentClient(stored, context), idempotent: true };
  }

  /**
   * What create would do with this body, writing nothing (an import's preview): `new`, `unchanged` (the
   * clientId is stored with the same details), or the create's own refusal (400, 409).
   */
  async check(urlKey: string, body: unknown): Promise<'new' | 'unchanged'> {
    const context = await this.context(urlKey);
    const value = this.validate(body, context, 'api');
    const stored = await this.store.data.findClient(urlKey, (value as { clientId: string }).clientId);
    if (!stored) return 'new';
    if (stored.status !== 'active' || !sameClient(stored.data as ClientValue, value, context.liveFieldIds)) {
      throw new AppError('IDEMPOTENCY_CONFLICT', 'A client with this clientId already exists with different details');
    }
    return 'unchanged';
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

  async setStatus(
    urlKey: string,
    clientId: string,
    status: Exclude<ClientStatus, 'active'>,
    audit: AuditEntry | null = null,
  ): Promise<{ clientId: string; status: ClientStatus }> {
    const context = await this.context(urlKey);
    const stored = await this.require(urlKey, clientId);
    // Deleted is final: archiving a deleted client does not bring it back to a lesser state.
    const next = stored.status === 'deleted' ? 'deleted' : status;
    if (stored.status !== next) {
      const now = this.now();
      const events = await this.eventRows(
        urlKey,
        next === 'archived' ? 'client.archived' : 'client.deleted',
        clientId,
        () => ({ ...presentClient({ ...stored, status: next, updatedAt: now }, context), status: next }),
        now,
      );
      if (!(await this.store.data.setClientStatus(urlKey, clientId, next, now, events, audit))) throw notFound();
      if (events.length > 0) this.events.sent();
    } else if (audit) await this.store.data.recordAudit(audit);
    return { clientId, status: next };
  }

  /** Archive is the reversible action: an archived client becomes active again. Delete is final. */
  async restore(
    urlKey: string,
    clientId: string,
    audit: AuditEntry | null = null,
  ): Promise<{ clientId: string; status: ClientStatus }> {
    await this.context(urlKey);
    const stored = await this.require(urlKey, clientId);
    if (stored.status === 'deleted')
      throw new AppError(
        'CLIENT_DELETED',
        'This client was deleted, and deletion is final: only an archived client can be restored',
      );
    if (stored.status === 'active') {
      if (audit) await this.store.data.recordAudit(audit);
    } else if (!(await this.store.data.setClientStatus(urlKey, clientId, 'active', this.now(), [], audit))) {
      throw notFound();
    }
    return { clientId, status: 'active' };
  }

  /** A client made in the dashboard (or another origin): no clientId, so never readable or matched by the API. */
  /** `audit`: the operator's line (its detail gains the source), written with the client. */
  async createFromDashboard(
    urlKey: string,
    body: unknown,
    audit: AuditEntry | null = null,
  ): Promise<Record<string, unknown>> {
    const context = await this.context(urlKey);
    const value = this.validate(body, context, 'operator');
    const { source, ...data } = value as ClientValue & { source: string };
    const now = this.now();
    const events = await this.eventRows(
      urlKey,
      'client.created',
      null,
      () => presentClient(insertedClient(null, source, data, now), context),
      now,
    );
    const result = audit
      ? await this.store.data.insertDashboardClient(urlKey, source, data, now, events, withDetail(audit, { source }))
      : await this.store.data.insertClient(urlKey, null, source, data, now, events);
    if (result.outcome !== 'inserted') throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    if (events.length > 0) this.events.sent();
    return presentClient(result.client, context);
  }

  async addDocument(
    urlKey: string,
    clientId: string,
    member: string,
    amount: number,
    audit: AuditEntry | null = null,
  ): Promise<Record<string, unknown>> {
    const context = await this.context(urlKey);
    await this.require(urlKey, clientId);
    // DOCUMENT_RULES let only a finite number through; it is rounded from the exact decimal its JSON text
    // denotes, never through binary floating point (1.00005 is 1.0001, not 1.0000).
    const amountE4 = roundToScale(decimalOf(amount)!.value, BALANCE_DECIMALS);
    if (!(await this.store.data.addToBalance(urlKey, clientId, member, amountE4, audit))) throw notFound();
    const stored = (await this.store.data.findClient(urlKey, clientId))!;
    return presentClient(stored, context).balance as Record<string, unknown>;
  }

  private async require(urlKey: string, clientId: string): Promise<StoredClient> {
    const stored = await this.store.data.findClient(urlKey, clientId);
    if (!stored) throw notFound();
    return stored;
  }
}
