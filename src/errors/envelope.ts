import type { FieldError } from './codes.js';

/** Feathers-style error names (decisions.md "Errors beyond section 7"). */
const NAMES: Record<number, [string, string]> = {
  400: ['BadRequest', 'bad-request'],
  401: ['NotAuthenticated', 'not-authenticated'],
  403: ['Forbidden', 'forbidden'],
  404: ['NotFound', 'not-found'],
  405: ['MethodNotAllowed', 'method-not-allowed'],
  408: ['Timeout', 'timeout'],
  409: ['Conflict', 'conflict'],
  413: ['PayloadTooLarge', 'payload-too-large'],
  415: ['UnsupportedMediaType', 'unsupported-media-type'],
  429: ['TooManyRequests', 'too-many-requests'],
  431: ['RequestHeaderFieldsTooLarge', 'request-header-fields-too-large'],
  500: ['GeneralError', 'general-error'],
  501: ['NotImplemented', 'not-implemented'],
};

export interface ErrorEnvelope {
  name: string;
  message: string;
  code: number;
  className: string;
  data: Record<string, unknown>;
  errors: Record<string, never>;
}

/** The Feathers-style name and class name of a status. */
export function errorNames(status: number): [string, string] {
  return NAMES[status] ?? (status >= 500 ? NAMES[500]! : NAMES[400]!);
}

export function errorEnvelope(
  status: number,
  code: string,
  message: string,
  fieldErrors?: FieldError[],
  extraData?: Record<string, unknown>,
): ErrorEnvelope {
  const [name, className] = errorNames(status);
  // Extra members belong to the error (a lead create's 409 carries existingLeadId there).
  const error: Record<string, unknown> = { message, code, status, ...extraData };
  if (fieldErrors && fieldErrors.length > 0) error.errors = fieldErrors;
  return { name, message, code: status, className, data: { success: false, error }, errors: {} };
}

/** The shapes without `error.code`: 401 NotAuthenticated, and 405 on client routes. */
export function bareEnvelope(status: number, message: string): ErrorEnvelope {
  const [name, className] = errorNames(status);
  return { name, message, code: status, className, data: { message }, errors: {} };
}
