/** The one table of stable error codes (docs/decisions.md "Foundation") and their statuses. */
export const ERROR_STATUS = {
  INVALID_FIELD: 400,
  INVALID_FIELD_VALUE: 400,
  INVALID_QUERY_FIELD: 400,
  INVALID_QUERY_VALUE: 400,
  CUSTOM_FIELDS_NOT_ENABLED: 400,
  INVALID_CUSTOM_FIELD: 400,
  INVALID_CUSTOM_FIELD_VALUE: 400,
  // Leads (docs/decisions.md "Leads (create, edit, get, activity)"). CLIENT_NOT_FOUND is 400 there, as a field error of the body.
  EXTERNAL_ID_REQUIRED: 400,
  INVALID_CUSTOMER: 400,
  INVALID_CONTACT: 400,
  CONTACT_NOT_FOUND: 400,
  INVALID_PIPELINE: 400,
  INVALID_STAGE: 400,
  INVALID_STAGE_REASON: 400,
  // Issue 39: the destination stage requires a reason (operator configuration) and none was sent.
  STAGE_REASON_REQUIRED: 400,
  INVALID_LEAD_SOURCE: 400,
  INVALID_TAG: 400,
  INVALID_ASSIGNEE: 400,
  CUSTOMER_CONTACT_NOT_EDITABLE: 400,
  // Invoices (invoices-interface section 6). PAYMENT_EXCEEDS_DUE is the one 400 after the resource checks.
  INVALID_ITEMS: 400,
  INVALID_TAX_RATE: 400,
  TOTAL_BELOW_ZERO: 400,
  AMOUNT_TOO_LARGE: 400,
  PAYMENT_EXCEEDS_DUE: 400,
  INVALID_PAGINATION_LIMIT: 400,
  INVALID_PAGINATION_SKIP: 400,
  // The Idempotency-Key header (invoices-interface 4.2, 6).
  INVALID_IDEMPOTENCY_KEY: 400,
  PERMISSION_DENIED: 403,
  CLIENT_NOT_FOUND: 404,
  LEAD_NOT_FOUND: 404,
  INVOICE_NOT_FOUND: 404,
  PAYMENT_NOT_FOUND: 404,
  BUSINESS_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_EVENT_NOT_FOUND: 404,
  // Issue 39: an operator's saved lead filter.
  SAVED_FILTER_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  URL_KEY_TAKEN: 409,
  CLIENT_DELETED: 409,
  INVOICE_CANCELED: 409,
  INVOICE_HAS_PAYMENTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  SERVICE_ERROR: 500,
  EINVOICING_UNAVAILABLE: 501,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes a validation pass may report as a field error of a body, and so answer 400 whatever their own
 * status (AppError.fromFieldErrors): a lead's customer.clientId that names no client.
 */
export const BODY_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CLIENT_NOT_FOUND']);

/** One failure of a validation pass, named by the path the caller sent (`shippingDetails[1].gstin`). */
export interface FieldError {
  field: string;
  message: string;
  code: ErrorCode;
}
