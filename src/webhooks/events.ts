import type { Kysely } from 'kysely';
import { topicCache, type CachedLoader, type MaybePromise } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import type { Database } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import { writeOutbox, type OutboxRow, type Subscriptions } from '../storage/webhooks.store.js';
import type { EventType } from './event-types.js';
import { newMessageId } from './signing.js';

export interface EventInput {
  type: EventType;
  /**
   * Orders delivery: the events of one resource (its public id; the kind is taken from `type`) reach
   * each endpoint in the order they were written. '' for an event of no resource, ordered against nothing.
   */
  resourceId: string;
  /** The resource in the public interface's shape. */
  data: unknown;
}

/** The topic that drops a business's cached subscriptions in every process. */
export const webhooksTopic = (urlKey: string) => `webhooks:${urlKey}`;

/**
 * The emitting side of webhooks, for every feature that changes a resource:
 * `await events.emit(trx, urlKey, {type, resourceId, data})` inside the write transaction, after the
 * resource's own write. It writes one outbox row per enabled endpoint subscribed to `type`, and none
 * (no statement at all) when nobody is subscribed: which endpoints exist is read from a cached,
 * change-fed snapshot, so an unsubscribed write pays one in-memory lookup. Call `sent()` after the
 * commit, so this process delivers at once instead of at its next poll.
 */
export class WebhookEvents {
  private readonly subscriptions: CachedLoader<Subscriptions>;
  private wake: () => void = () => undefined;

  constructor(
    private readonly store: Store,
    config: Pick<Config, 'cacheTtlMs'>,
    private readonly now: () => number,
  ) {
    this.subscriptions = topicCache(store.changes, 'webhooks', (urlKey) => store.webhooks.subscriptions(urlKey), {
      max: 10_000,
      ttlMs: config.cacheTtlMs,
    });
  }

  get cache(): CachedLoader<Subscriptions> {
    return this.subscriptions;
  }

  /** Whether any enabled endpoint of the business wants `type`: at once when cached (the hot path). */
  wants(urlKey: string, type: EventType): MaybePromise<boolean> {
    const found = this.subscriptions.read(urlKey);
    if (found instanceof Promise) return found.then((s) => anyWants(s, type));
    return anyWants(found, type);
  }

  /** The outbox rows of one event (none when nobody is subscribed). `at` is the event's time. */
  async rows(urlKey: string, event: EventInput, at = this.now()): Promise<OutboxRow[]> {
    const subscriptions = await this.subscriptions.read(urlKey);
    const endpoints = subscriptions?.endpoints.filter((e) => e.eventTypes.has(event.type)) ?? [];
    if (endpoints.length === 0) return [];
    return rowsFor(
      endpoints.map((e) => e.pk),
      event,
      at,
    );
  }

  /**
   * The business's subscriptions as they are now, for a write that decides its events as it decides its
   * change (a lead edit, perhaps decided again when another edit wrote first): the plan answers from
   * what was read here, once.
   */
  async plan(urlKey: string): Promise<EventPlan> {
    const found = this.subscriptions.read(urlKey);
    const subscriptions = found instanceof Promise ? await found : found;
    const endpoints = subscriptions?.endpoints ?? [];
    return {
      wants: (type) => endpoints.some((e) => e.eventTypes.has(type)),
      rows: (event, at) => {
        const pks = endpoints.filter((e) => e.eventTypes.has(event.type)).map((e) => e.pk);
        return pks.length === 0 ? [] : rowsFor(pks, event, at);
      },
    };
  }

  /** Writes the event's outbox rows with `trx`, the transaction of the change that causes it. */
  async emit(trx: Kysely<Database>, urlKey: string, event: EventInput): Promise<void> {
    await writeOutbox(trx, await this.rows(urlKey, event));
  }

  /** After a commit that wrote events: the worker of this process looks now. */
  sent(): void {
    this.wake();
  }

  onSent(wake: () => void): void {
    this.wake = wake;
  }

  /** After an endpoint change: every process re-reads this business's subscriptions. */
  changed(urlKey: string): Promise<void> {
    return this.store.changes.publish(webhooksTopic(urlKey));
  }
}

/** Subscriptions read before a transaction: `wants` and `rows` run no query. */
export interface EventPlan {
  wants(type: EventType): boolean;
  rows(event: EventInput, at: number): OutboxRow[];
}

function anyWants(subscriptions: Subscriptions | undefined, type: string): boolean {
  return subscriptions?.endpoints.some((e) => e.eventTypes.has(type)) ?? false;
}

/** One event as outbox rows, one per endpoint, under one message id and one signed body. */
export function rowsFor(endpointPks: number[], event: EventInput, at: number): OutboxRow[] {
  const messageId = newMessageId();
  const payload = JSON.stringify({ type: event.type, timestamp: new Date(at).toISOString(), data: event.data });
  // Keys of different kinds of resource never meet; an event of no resource is ordered only against itself.
  const resourceKey = event.resourceId === '' ? messageId : `${event.type.split('.')[0]}:${event.resourceId}`;
  return endpointPks.map((endpointPk) => ({
    endpointPk,
    messageId,
    eventType: event.type,
    resourceKey,
    payload,
    createdAt: at,
  }));
}
