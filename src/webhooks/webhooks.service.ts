import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { AppError } from '../errors/app-error.js';
import type { BusinessesService } from '../operator/businesses.service.js';
import type { EndpointPatch, EndpointRecord } from '../storage/webhooks.store.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { readEndpointBody } from './endpoint.rules.js';
import { rowsFor, type WebhookEvents } from './events.js';
import { newSecret } from './signing.js';
import { presentAttempt, presentEndpoint } from './webhooks.present.js';

/** After a rotation the previous secret keeps signing (beside the new one) this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

const notFound = () => new AppError('WEBHOOK_NOT_FOUND', 'No webhook endpoint with this id');

type EndpointBody = { url?: string; eventTypes?: string[]; description?: string; enabled?: boolean };

/** Webhook endpoints of a business, as the operator API and the dashboard manage them. */
export class WebhooksService {
  constructor(
    private readonly store: Store,
    private readonly businesses: BusinessesService,
    private readonly events: WebhookEvents,
    private readonly config: Pick<Config, 'webhooksAllowPrivate'>,
    private readonly now: () => number,
  ) {}

  /** `audit` (here and in the other changes): the operator's line, written by the store with the change. */
  async create(urlKey: string, body: unknown, audit: AuditEntry | null = null) {
    const input = readEndpointBody<EndpointBody>(body, this.config.webhooksAllowPrivate, true);
    await this.businesses.require(urlKey);
    const now = this.now();
    const record: EndpointRecord = {
      id: `ep_${randomBytes(12).toString('base64url')}`,
      url: input.url!,
      description: input.description || null,
      eventTypes: input.eventTypes!,
      enabled: input.enabled ?? true,
      disabledReason: null,
      secret: newSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    const line = audit && withDetail(audit, { endpointId: record.id, url: record.url });
    if (!(await this.store.webhooks.create(urlKey, record, line)))
      throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    await this.events.changed(urlKey);
    return { ...presentEndpoint(record, now), secret: record.secret };
  }

  async list(urlKey: string) {
    await this.businesses.require(urlKey);
    const now = this.now();
    return (await this.store.webhooks.list(urlKey)).map((e) => presentEndpoint(e, now));
  }

  async get(urlKey: string, endpointId: string) {
    return presentEndpoint(await this.require(urlKey, endpointId), this.now());
  }

  async update(urlKey: string, endpointId: string, body: unknown, audit: AuditEntry | null = null) {
    const input = readEndpointBody<EndpointBody>(body, this.config.webhooksAllowPrivate, false);
    await this.require(urlKey, endpointId);
    const patch: EndpointPatch = {
      ...input,
      ...(input.description !== undefined && { description: input.description || null }),
    };
    await this.store.webhooks.update(urlKey, endpointId, patch, this.now(), audit);
    await this.events.changed(urlKey);
    // Re-enabled: its pending deliveries are due again.
    if (input.enabled) this.events.sent();
    return this.get(urlKey, endpointId);
  }

  async remove(urlKey: string, endpointId: string, audit: AuditEntry | null = null) {
    await this.require(urlKey, endpointId);
    await this.store.webhooks.remove(urlKey, endpointId, audit);
    await this.events.changed(urlKey);
    return { id: endpointId, deleted: true };
  }

  async rotate(urlKey: string, endpointId: string, audit: AuditEntry | null = null) {
    await this.require(urlKey, endpointId);
    const now = this.now();
    const secret = newSecret();
    await this.store.webhooks.rotate(urlKey, endpointId, secret, now + ROTATION_OVERLAP_MS, now, audit);
    return { id: endpointId, secret, previousSecretExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString() };
  }

  /** Queues a `webhook.test` event for this endpoint, whatever it subscribes to; it goes through the outbox like any other. */
  async sendTest(urlKey: string, endpointId: string, audit: AuditEntry | null = null) {
    await this.require(urlKey, endpointId);
    const now = this.now();
    const [row] = rowsFor(
      [0],
      { type: 'webhook.test', resourceId: '', data: { message: 'A test event from crmkit', endpointId } },
      now,
    );
    await this.store.webhooks.enqueue(
      urlKey,
      endpointId,
      row!,
      audit && withDetail(audit, { eventId: row!.messageId }),
    );
    this.events.sent();
    return { eventId: row!.messageId, eventType: 'webhook.test' };
  }

  /**
   * Sends one event again now under the same id and body (receivers that already have it can drop it by
   * id), as its next attempt: the delivery log numbers it after the event's last one.
   */
  async resend(urlKey: string, endpointId: string, eventId: string, audit: AuditEntry | null = null) {
    await this.require(urlKey, endpointId);
    const event = await this.store.webhooks.resendNow(urlKey, endpointId, eventId, this.now(), audit);
    if (!event) throw new AppError('WEBHOOK_EVENT_NOT_FOUND', 'No event with this id for this endpoint');
    this.events.sent();
    return { eventId, eventType: event.eventType };
  }

  async deliveries(urlKey: string, endpointId: string, page: number, pageSize: number) {
    await this.require(urlKey, endpointId);
    const rows = await this.store.webhooks.listAttempts(urlKey, endpointId, pageSize + 1, (page - 1) * pageSize);
    return { page, pageSize, hasMore: rows.length > pageSize, attempts: rows.slice(0, pageSize).map(presentAttempt) };
  }

  private async require(urlKey: string, endpointId: string): Promise<EndpointRecord> {
    await this.businesses.require(urlKey);
    const endpoint = await this.store.webhooks.find(urlKey, endpointId);
    if (!endpoint) throw notFound();
    return endpoint;
  }
}
