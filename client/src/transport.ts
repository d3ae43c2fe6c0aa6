import { CrmkitError, CrmkitNetworkError } from './errors.js';

export interface RetryOptions {
  /** Attempts after the first one, on connection errors and 5xx answers only. Default 3. */
  retries?: number;
  /** Base of the exponential backoff in ms; each wait is random up to base × 2^attempt, at most 5 s. Default 200. */
  retryDelayMs?: number;
  /** Time limit of one attempt in ms. Default 30 000. */
  timeoutMs?: number;
  /** The fetch to use (a custom agent, a test double). Default the global fetch. */
  fetch?: typeof fetch;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  token?: string;
  body?: unknown;
  /** Sent on every attempt as they are (an Idempotency-Key is the same on each retry). */
  headers?: Record<string, string>;
}

const MAX_DELAY_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a call, retrying with jittered exponential backoff when there is no answer or a 5xx one; a 4xx
 * is final at once. Every call in this interface is safe to repeat: reads, token creation, and client
 * create (idempotent by clientId: a retry after a lost answer gets the stored client, `idempotent: true`),
 * and invoice and payment creates (one Idempotency-Key, the same on every attempt).
 */
export class Transport {
  private readonly retries: number;
  private readonly delayMs: number;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(
    private readonly baseUrl: string,
    options: RetryOptions,
  ) {
    this.retries = options.retries ?? 3;
    this.delayMs = options.retryDelayMs ?? 200;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetchFn = options.fetch ?? globalThis.fetch;
  }

  /** The answer's JSON body on 2xx; throws CrmkitError on an error answer, CrmkitNetworkError when none came. */
  async send(call: Call): Promise<unknown> {
    // One id for every attempt, so the server's log ties the retries together.
    const requestId = crypto.randomUUID();
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.retries;
      let response: Response;
      try {
        response = await this.fetchFn(`${this.baseUrl}${call.path}`, this.init(call, requestId));
      } catch (error) {
        if (last) throw new CrmkitNetworkError(attempt + 1, requestId, error);
        await sleep(this.backoff(attempt));
        continue;
      }
      const body = await readBody(response);
      if (response.ok) return body;
      if (response.status < 500 || last) throw new CrmkitError(response.status, body, requestId);
      await sleep(Math.max(this.backoff(attempt), retryAfterMs(response)));
    }
  }

  private init(call: Call, requestId: string): RequestInit {
    const headers: Record<string, string> = { ...call.headers, accept: 'application/json', 'x-request-id': requestId };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    return {
      method: call.method,
      headers,
      signal: AbortSignal.timeout(this.timeoutMs),
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
    };
  }

  /** Full jitter: spreads the retries of many callers after one outage. */
  private backoff(attempt: number): number {
    return Math.random() * Math.min(MAX_DELAY_MS, this.delayMs * 2 ** attempt);
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** A 503's Retry-After in ms (seconds form only), bounded like the backoff. */
function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_DELAY_MS) : 0;
}
