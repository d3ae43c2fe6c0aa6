import { ERROR_STATUS, type ErrorCode, type FieldError } from './codes.js';

/** An expected failure with a stable code; rendered by the one error handler into the section 7 envelope. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldError[],
    readonly extraData?: Record<string, unknown>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code];
  }

  /**
   * A 400 built from a validation pass: the first failure leads, every failure is listed. Always 400:
   * a code that is 404 on its own (CLIENT_NOT_FOUND) is a body error when a lead names the client.
   */
  static fromFieldErrors(errors: FieldError[]): AppError {
    const first = errors[0];
    if (!first) throw new Error('fromFieldErrors needs at least one error');
    return new AppError(first.code, first.message, errors, undefined, 400);
  }
}

/** 401: its own shape (name NotAuthenticated, data with only a message, no error code). */
export class NotAuthenticatedError extends Error {
  readonly status = 401;
  constructor(message = 'Not authenticated') {
    super(message);
  }
}

/** 405 on client routes: the status alone, no error code (docs/decisions.md "Pipelines"). */
export class BareMethodNotAllowedError extends Error {
  readonly status = 405;
  constructor() {
    super('Method not allowed');
  }
}
