import { Rounds } from '../ops/rounds.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { Batcher } from '../storage/batcher.js';
import type { ClaimedDelivery, FinishedDelivery } from '../storage/webhooks.store.js';
import type { Store } from '../storage/store.js';
import { postOnce } from './http-post.js';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule.js';
import { signedHeaders } from './signing.js';

/** Answers read from a destination are dropped past this: only the status counts. */
const MAX_ANSWER_BYTES = 4096;
/** Deliveries one process has in flight at most; a claim tops them up. */
const MAX_IN_FLIGHT = 64;
/** Delivered and given-up events (and the log) are kept this long: resend and the log reach back 30 days. */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

/**
 * Delivers the outbox: claims due events (the store keeps one per resource and endpoint in flight),
 * posts each signed, records the attempt, and schedules a retry with backoff, or gives up after the
 * last one and disables the endpoint. Any number of processes may run one: claims never overlap.
 */
export class DeliveryWorker {
  private readonly rounds: Rounds;
  private prunedAt = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts that end together are recorded together, one transaction at a time. */
  private readonly finishes: Batcher<FinishedDelivery, string | undefined>;

  constructor(
    private readonly store: Store,
    private readonly config: Pick<
      Config,
      | 'webhooksRetryBaseMs'
      | 'webhooksPollMs'
      | 'webhooksConnectTimeoutMs'
      | 'webhooksTimeoutMs'
      | 'webhooksAllowPrivate'
    >,
    private readonly now: () => number,
    private readonly onDisabled: (urlKey: string) => Promise<void>,
    private readonly logger?: FastifyBaseLogger,
  ) {
    this.rounds = new Rounds(() => this.round(), config.webhooksPollMs);
    this.finishes = new Batcher(
      async (items) => (await store.webhooks.finishAll(items)).map((value) => ({ value })),
      1,
    );
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
    await Promise.all(this.inFlight);
  }

  /** Look for due work now (or right after the current round). */
  wake(): void {
    this.rounds.wake();
  }

  private async round(): Promise<void> {
    try {
      if (this.now() - this.prunedAt > PRUNE_EVERY_MS) {
        this.prunedAt = this.now();
        await this.store.webhooks.prune(this.prunedAt - RETENTION_MS);
      }
      // The lease outlasts any attempt twice over, so a live claim never comes due again; a claim
      // lost with its process (kill -9) is sent again, under the same id, once it runs out.
      const lease = 2 * (this.config.webhooksConnectTimeoutMs + this.config.webhooksTimeoutMs) + 1000;
      // Deliveries are not waited for as a batch: a slow destination holds its own slot, not the
      // others. The claim tops the slots up; finished deliveries wake the worker to claim again
      // (the next event of their resources may be due now).
      while (this.rounds.active) {
        const room = MAX_IN_FLIGHT - this.inFlight.size;
        if (room === 0) return;
        const now = this.now();
        const claimed = await this.store.webhooks.claim(now, room, now + lease);
        for (const delivery of claimed) {
          const running: Promise<void> = this.deliver(delivery)
            .catch((error: unknown) =>
              this.logger?.warn(
                { err: error },
                'webhook delivery could not be recorded; it is sent again after its lease',
              ),
            )
            .finally(() => {
              this.inFlight.delete(running);
              // Topped up by halves: a claim per finished delivery would cost a commit each on SQLite.
              if (this.inFlight.size <= MAX_IN_FLIGHT / 2) this.wake();
            });
          this.inFlight.add(running);
        }
        if (claimed.length < room) return;
      }
    } catch (error) {
      this.logger?.warn({ err: error }, 'webhook delivery round failed; retrying at the next poll');
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const at = this.now();
    let url: URL;
    try {
      url = new URL(delivery.url);
    } catch {
      return this.record(delivery, at, { statusCode: null, durationMs: 0, error: 'invalid URL' });
    }
    const headers = signedHeaders(delivery.messageId, delivery.payload, delivery.secrets, new Date(at));
    const result = await postOnce(url, headers, delivery.payload, {
      connectTimeoutMs: this.config.webhooksConnectTimeoutMs,
      timeoutMs: this.config.webhooksTimeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
      allowPrivate: this.config.webhooksAllowPrivate,
    });
    await this.record(delivery, at, result);
  }

  private async record(
    delivery: ClaimedDelivery,
    at: number,
    result: { statusCode: number | null; durationMs: number; error: string | null },
  ): Promise<void> {
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const delay = ok ? null : retryDelayMs(delivery.attempt, this.config.webhooksRetryBaseMs);
    // An event resent after its schedule ran out (attempt past the last) is given up again, but its
    // endpoint stays enabled: one manual resend failing is no three days of failures.
    const outcome = ok
      ? ('delivered' as const)
      : { retryAt: delay === null ? null : this.now() + delay, disable: delivery.attempt <= MAX_ATTEMPTS };
    const disabled = await this.finishes.add({ delivery, attempt: { at, ...result }, outcome });
    if (disabled !== undefined) {
      this.logger?.warn(
        { urlKey: disabled },
        'webhook endpoint disabled: its deliveries failed for the whole retry schedule',
      );
      await this.onDisabled(disabled);
    }
  }
}
