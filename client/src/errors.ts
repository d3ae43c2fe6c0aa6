import type { ErrorCode, FieldError } from './api-types.js';

/**
 * The service answered with an error. `code` is the stable `data.error.code` (null for 401, whose
 * envelope carries none, and for the 405s of client routes); `errors` lists every failure of a 400.
 */
export class CrmkitError extends Error {
  override readonly name = 'CrmkitError';
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly errors: FieldError[];
  /** The X-Request-Id of the call: quote it when asking the operator about a failure. */
  readonly requestId: string;
  /** The answer as received (the section 7 envelope, or text when it was not JSON). */
  readonly body: unknown;

  constructor(status: number, body: unknown, requestId: string) {
    const error = errorOf(body);
    super(error.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error.code ?? null;
    this.errors = error.errors ?? [];
    this.requestId = requestId;
    this.body = body;
  }
}

/** No answer at all (connection refused or reset, timeout) after every attempt. */
export class CrmkitNetworkError extends Error {
  override readonly name = 'CrmkitNetworkError';

  constructor(
    readonly attempts: number,
    readonly requestId: string,
    cause: unknown,
  ) {
    super(
      `No answer from the crmkit server after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

interface EnvelopeError {
  message?: string;
  code?: ErrorCode;
  errors?: FieldError[];
}

function errorOf(body: unknown): EnvelopeError {
  if (typeof body !== 'object' || body === null) return {};
  const envelope = body as { message?: unknown; data?: { error?: EnvelopeError; message?: unknown } };
  const error = envelope.data?.error;
  if (error && typeof error === 'object') return error;
  return typeof envelope.message === 'string' ? { message: envelope.message } : {};
}
