import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../deps.js';
import { AppError } from '../errors/app-error.js';
import type { OperationDoc, RouteHandler } from '../openapi/operation.js';
import { IdempotencyClaimLost, type IdempotencyClaim } from '../storage/idempotency-keys.store.js';
import type { Store } from '../storage/store.js';
import {
  fingerprintOf,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETRY_AFTER_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  readIdempotencyKey,
  routeOf,
} from './idempotency-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * On an operation with `idempotencyKey: true`: the claim this request holds on its Idempotency-Key
     * (null without the header). Its service hands it to the store write that creates the document,
     * as `idempotentAnswer(claim, status, body)`, so the answer is kept in that write's transaction.
     */
    idempotencyClaim?: IdempotencyClaim | null;
    /** The claim whose answer the route keeps or releases once it is sent (not set on a replay or a conflict). */
    heldIdempotencyClaim?: IdempotencyClaim;
  }
}

/** Expired keys are pruned at most this often per process, on the next use of a key. */
const PRUNE_EVERY_MS = 60_000;

const inProgress = () =>
  new AppError(
    'IDEMPOTENCY_IN_PROGRESS',
    'A request with this Idempotency-Key is still in progress; retry shortly',
    undefined,
    { retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SECONDS },
  );
const conflict = () =>
  new AppError(
    'IDEMPOTENCY_CONFLICT',
    'This Idempotency-Key was used for another request (another route, path or body)',
  );

type KeyedRequest = FastifyRequest<{ Params: Record<string, string> }>;
type AnyHandler = RouteHandler<any>;

/** Who sent the key: an app, or an operator (their keys never meet). */
function callerOf(request: FastifyRequest): string {
  if (request.callerApp) return `app:${request.callerApp.appId}`;
  if (request.operator) return `operator:${request.operator.operatorId}`;
  throw new Error('Idempotency-Key on a route without a caller');
}

/**
 * The Idempotency-Key mechanism (invoices-interface 4.2) for the operations that enable it: the claim
 * before the handler (replay, conflict, in progress), and once the answer is sent, its success kept or
 * its key released. Every decision is a statement on the shared store, none in process memory.
 */
export class IdempotencyKeys {
  private nextPruneAt = 0;
  private readonly retentionMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly store: Store,
    config: Pick<Config, 'idempotencyKeyRetentionHours' | 'idempotencyKeyLeaseMs'>,
    private readonly clock: Clock,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.retentionMs = config.idempotencyKeyRetentionHours * 3_600_000;
    this.leaseMs = config.idempotencyKeyLeaseMs;
  }

  /** The route's handler and onSend hook with the mechanism around them; refuses at start a route it cannot scope. */
  wrap(op: OperationDoc, handler: AnyHandler): { handler: AnyHandler; onSend: onSendHookHandler } {
    if (op.guard === 'open' || !op.path.includes(':urlKey')) {
      throw new Error(`idempotencyKey needs a guarded business route: ${op.method} ${op.path}`);
    }
    const route = routeOf(op.method, op.path);
    return {
      handler: (request, reply) => this.handle(route, handler, request as KeyedRequest, reply),
      onSend: (request, reply, payload) => this.settle(request, reply, payload),
    };
  }

  private async handle(route: string, handler: AnyHandler, request: KeyedRequest, reply: FastifyReply) {
    const key = readIdempotencyKey(request.raw.rawHeaders);
    if (key === undefined) {
      request.idempotencyClaim = null;
      return handler(request, reply);
    }
    if (typeof key !== 'string') throw refusal(key.refused);
    const claim: IdempotencyClaim = {
      urlKey: request.params.urlKey!,
      caller: callerOf(request),
      key,
      token: newToken(),
    };
    const now = this.clock.now();
    this.prune(now);
    const fingerprint = fingerprintOf({ route, params: request.params }, request.body);
    const found = await this.store.idempotencyKeys.claim(claim, fingerprint, {
      now,
      leaseMs: this.leaseMs,
      retentionMs: this.retentionMs,
    });
    switch (found.outcome) {
      case 'replay':
        reply.code(found.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true').type('application/json; charset=utf-8');
        return reply.send(found.body);
      case 'in-progress':
        throw inProgress();
      case 'conflict':
        return this.runConflicting(handler, request, reply, claim);
      case 'no-business':
        request.idempotencyClaim = null;
        return handler(request, reply);
      case 'claimed':
        request.idempotencyClaim = claim;
        request.heldIdempotencyClaim = claim;
        return this.run(handler, request, reply, inProgress);
    }
  }

  /**
   * Same key, another request (4.2 rule 4): the handler runs so that its validation answers first (400),
   * with a claim no row is held by, so any write that keeps an answer rolls back; a success is a 409.
   */
  private async runConflicting(
    handler: AnyHandler,
    request: KeyedRequest,
    reply: FastifyReply,
    claim: IdempotencyClaim,
  ) {
    request.idempotencyClaim = { ...claim, token: newToken() };
    const result = await this.run(handler, request, reply, conflict);
    if (reply.statusCode < 300) throw conflict();
    return result;
  }

  private async run(handler: AnyHandler, request: KeyedRequest, reply: FastifyReply, whenLost: () => AppError) {
    try {
      return await handler(request, reply);
    } catch (error) {
      throw error instanceof IdempotencyClaimLost ? whenLost() : error;
    }
  }

  /** Once the answer is ready: a success is kept (unless its write kept it already), anything else frees the key. */
  private async settle(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = request.heldIdempotencyClaim;
    if (!claim) return payload;
    request.heldIdempotencyClaim = undefined;
    const success = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    try {
      if (success) await this.store.idempotencyKeys.keep(claim, reply.statusCode, payload as string);
      else await this.store.idempotencyKeys.release(claim);
    } catch (error) {
      // The answer goes out all the same; the claim lapses with its lease (60 s) and the key is free again.
      this.log?.error({ err: error }, 'Idempotency-Key: could not keep or release the claim');
    }
    return payload;
  }

  private prune(now: number): void {
    if (now < this.nextPruneAt) return;
    this.nextPruneAt = now + PRUNE_EVERY_MS;
    this.store.idempotencyKeys
      .prune(now - this.retentionMs)
      .catch((error: unknown) => this.log?.error({ err: error }, 'Idempotency-Key: pruning expired keys failed'));
  }
}

function refusal(reason: 'repeated' | 'malformed'): AppError {
  return new AppError(
    'INVALID_IDEMPOTENCY_KEY',
    reason === 'repeated'
      ? 'Idempotency-Key must be sent once'
      : `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
  );
}

const newToken = () => randomBytes(16).toString('base64url');
