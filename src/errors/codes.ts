/** The one table of stable error codes (service-interface section 7 and decisions.md) and their statuses. */
export const ERROR_STATUS = {
  INVALID_FIELD: 400,
  INVALID_FIELD_VALUE: 400,
  INVALID_QUERY_FIELD: 400,
  INVALID_QUERY_VALUE: 400,
  CUSTOM_FIELDS_NOT_ENABLED: 400,
  INVALID_CUSTOM_FIELD: 400,
  INVALID_CUSTOM_FIELD_VALUE: 400,
  PERMISSION_DENIED: 403,
  CLIENT_NOT_FOUND: 404,
  BUSINESS_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_EVENT_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  URL_KEY_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  SERVICE_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One failure of a validation pass, named by the path the caller sent (`shippingDetails[1].gstin`). */
export interface FieldError {
  field: string;
  message: string;
  code: ErrorCode;
}
