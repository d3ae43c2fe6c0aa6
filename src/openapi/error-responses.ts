import { BODY_ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../errors/codes.js';
import { bareEnvelope, errorEnvelope, errorNames } from '../errors/envelope.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../http/idempotency-key.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { ref, type ErrorExample, type OperationDoc } from './operation.js';

/**
 * The error answers of every operation, from the one code→status table (errors/codes.ts) and the one
 * envelope renderer (errors/envelope.ts): each status lists the codes it can carry, with an example each.
 */

const ALL_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** When each code is answered (docs/decisions.md "Foundation"), with a typical message. */
const CODES: Record<ErrorCode, { when: string; example: ErrorExample }> = {
  INVALID_FIELD: {
    when: 'a body key outside the accepted set, a server-owned field, a wrongly typed value, or a body that is not a JSON object',
    example: {
      message: 'nickname is not an accepted field',
      errors: [{ field: 'nickname', message: 'nickname is not an accepted field', code: 'INVALID_FIELD' }],
    },
  },
  INVALID_FIELD_VALUE: {
    when: 'an accepted field with a malformed or unsupported value, or a required one missing',
    example: {
      message: 'name is required',
      errors: [{ field: 'name', message: 'name is required', code: 'INVALID_FIELD_VALUE' }],
    },
  },
  INVALID_QUERY_FIELD: {
    when: 'a query parameter the operation does not accept',
    example: { message: '$limit is not an accepted query parameter' },
  },
  INVALID_QUERY_VALUE: {
    when: 'a query parameter with a value it does not accept',
    example: { message: 'includeArchived must be true or false' },
  },
  CUSTOM_FIELDS_NOT_ENABLED: {
    when: 'customFields sent to a business without custom fields',
    example: {
      message: 'Custom fields are not enabled for this business',
      errors: [
        {
          field: 'customFields',
          message: 'Custom fields are not enabled for this business',
          code: 'CUSTOM_FIELDS_NOT_ENABLED',
        },
      ],
    },
  },
  INVALID_CUSTOM_FIELD: {
    when: 'custom field names that are undefined or archived, all reported together',
    example: {
      message: 'customFields has no live custom field named "Region", "Tier"',
      errors: [
        {
          field: 'customFields',
          message: 'customFields has no live custom field named "Region", "Tier"',
          code: 'INVALID_CUSTOM_FIELD',
        },
      ],
    },
  },
  INVALID_CUSTOM_FIELD_VALUE: {
    when: 'a defined custom field with a value it does not accept',
    example: {
      message: 'customFields.Visits must be a number',
      errors: [
        {
          field: 'customFields.Visits',
          message: 'customFields.Visits must be a number',
          code: 'INVALID_CUSTOM_FIELD_VALUE',
        },
      ],
    },
  },
  EXTERNAL_ID_REQUIRED: {
    when: 'externalId missing, empty after trimming, or over 128 characters (lead create)',
    example: {
      message: 'externalId is required',
      errors: [{ field: 'externalId', message: 'externalId is required', code: 'EXTERNAL_ID_REQUIRED' }],
    },
  },
  INVALID_CUSTOMER: {
    when: 'customer missing, not an object, or without clientId and name (lead create)',
    example: {
      message: 'customer must have a clientId or a name',
      errors: [{ field: 'customer', message: 'customer must have a clientId or a name', code: 'INVALID_CUSTOMER' }],
    },
  },
  INVALID_CONTACT: {
    when: 'contact missing, not an object, or without contactId and name (lead create)',
    example: {
      message: 'contact must have a contactId or a name',
      errors: [{ field: 'contact', message: 'contact must have a contactId or a name', code: 'INVALID_CONTACT' }],
    },
  },
  CONTACT_NOT_FOUND: {
    when: 'contact.contactId does not resolve (and, on create, no name to fall back on)',
    example: {
      message: 'contact.contactId does not name a contact of this business',
      errors: [
        {
          field: 'contact.contactId',
          message: 'contact.contactId does not name a contact of this business',
          code: 'CONTACT_NOT_FOUND',
        },
      ],
    },
  },
  INVALID_PIPELINE: {
    when: "a pipeline missing (create), unknown or archived; or only stage sent while the lead's pipeline is archived",
    example: {
      message: 'pipeline names no live pipeline',
      errors: [{ field: 'pipeline', message: 'pipeline names no live pipeline', code: 'INVALID_PIPELINE' }],
    },
  },
  INVALID_STAGE: {
    when: 'a stage missing (create), unknown, archived or not in the resolved pipeline; list: stage without pipeline',
    example: {
      message: 'stage names no live stage of pipeline "Sales"',
      errors: [{ field: 'stage', message: 'stage names no live stage of pipeline "Sales"', code: 'INVALID_STAGE' }],
    },
  },
  INVALID_STAGE_REASON: {
    when: 'a reason label unknown, archived, or not allowed on the destination stage',
    example: {
      message: 'stageReasons[0] is not a reason of stage "Lost"',
      errors: [
        {
          field: 'stageReasons[0]',
          message: 'stageReasons[0] is not a reason of stage "Lost"',
          code: 'INVALID_STAGE_REASON',
        },
      ],
    },
  },
  STAGE_REASON_REQUIRED: {
    when: 'the destination stage requires at least one reason (operator configuration) and none was sent',
    example: {
      message: 'stageReasons: stage "Lost" requires at least one reason',
      errors: [
        {
          field: 'stageReasons',
          message: 'stageReasons: stage "Lost" requires at least one reason',
          code: 'STAGE_REASON_REQUIRED',
        },
      ],
    },
  },
  INVALID_LEAD_SOURCE: {
    when: 'an unknown or archived lead source',
    example: {
      message: 'leadSource names no live lead source',
      errors: [{ field: 'leadSource', message: 'leadSource names no live lead source', code: 'INVALID_LEAD_SOURCE' }],
    },
  },
  INVALID_TAG: {
    when: 'tags unknown or archived, all named',
    example: {
      message: 'tags has no live tag named "vip", "hot"',
      errors: [{ field: 'tags', message: 'tags has no live tag named "vip", "hot"', code: 'INVALID_TAG' }],
    },
  },
  INVALID_ASSIGNEE: {
    when: 'assignedTo is not a live member of the business',
    example: {
      message: 'assignedTo is not a live member of this business',
      errors: [
        { field: 'assignedTo', message: 'assignedTo is not a live member of this business', code: 'INVALID_ASSIGNEE' },
      ],
    },
  },
  CUSTOMER_CONTACT_NOT_EDITABLE: {
    when: 'customer or contact sent for a lead that is not NEW or OPEN after the request',
    example: {
      message: 'customer can be changed only while the lead is NEW or OPEN',
      errors: [
        {
          field: 'customer',
          message: 'customer can be changed only while the lead is NEW or OPEN',
          code: 'CUSTOMER_CONTACT_NOT_EDITABLE',
        },
      ],
    },
  },
  INVALID_ITEMS: {
    when: 'items missing, not an array, empty or over 500 entries (invoice create)',
    example: {
      message: 'items must hold 1 to 500 items',
      errors: [{ field: 'items', message: 'items must hold 1 to 500 items', code: 'INVALID_ITEMS' }],
    },
  },
  INVALID_TAX_RATE: {
    when: "an item's rate outside its regime's set, gstRate and taxRate with different values, or a non-zero rate on a bill of supply",
    example: {
      message: 'items[0].gstRate is not a rate of the INDIA regime',
      errors: [
        {
          field: 'items[0].gstRate',
          message: 'items[0].gstRate is not a rate of the INDIA regime',
          code: 'INVALID_TAX_RATE',
        },
      ],
    },
  },
  TOTAL_BELOW_ZERO: {
    when: 'a discount that takes the running total below 0 (named: the entry)',
    example: {
      message: 'additionalCharges[0] takes the total below 0',
      errors: [
        {
          field: 'additionalCharges[0]',
          message: 'additionalCharges[0] takes the total below 0',
          code: 'TOTAL_BELOW_ZERO',
        },
      ],
    },
  },
  AMOUNT_TOO_LARGE: {
    when: 'a computed money value of 10^12 or more (named: the first item or entry concerned)',
    example: {
      message: 'items[0] makes an amount of 10^12 or more',
      errors: [{ field: 'items[0]', message: 'items[0] makes an amount of 10^12 or more', code: 'AMOUNT_TOO_LARGE' }],
    },
  },
  PAYMENT_EXCEEDS_DUE: {
    when: 'a payment that would settle more than is due (data.error.amountDue); checked after the invoice is found',
    example: { message: 'The payment settles more than the 100 due' },
  },
  INVOICE_NOT_FOUND: {
    when: "an unknown or malformed invoice id, or another business's invoice (one body for all)",
    example: { message: 'Invoice not found' },
  },
  PAYMENT_NOT_FOUND: {
    when: 'no live payment with this id on this invoice (operator removal)',
    example: { message: 'No live payment with this id on this invoice' },
  },
  INVOICE_CANCELED: { when: 'a payment on a canceled invoice', example: { message: 'The invoice is canceled' } },
  INVOICE_HAS_PAYMENTS: {
    when: 'a cancel of an invoice with live payments, without cancelPayment=true',
    example: { message: 'The invoice has payments: cancel with cancelPayment=true to remove them too' },
  },
  EINVOICING_UNAVAILABLE: {
    when: "the vendor's e-invoicing routes (IRN, e-way bill): crmkit has no link to the government portals",
    example: { message: 'E-invoicing is not available in crmkit' },
  },
  INVALID_PAGINATION_LIMIT: {
    when: '$limit not a whole number from 1 to 50',
    example: { message: '$limit must be a whole number from 1 to 50' },
  },
  INVALID_PAGINATION_SKIP: {
    when: '$skip not a whole number from 0 to 1000',
    example: { message: '$skip must be a whole number from 0 to 1000' },
  },
  PERMISSION_DENIED: {
    when: 'the calling app is not attached to the business in the path (or there is no such business)',
    example: { message: 'This app is not allowed to access this business' },
  },
  CLIENT_NOT_FOUND: {
    when: "an unknown, archived, deleted or other business's client",
    example: { message: 'Client not found' },
  },
  LEAD_NOT_FOUND: { when: "an unknown, removed or other business's lead", example: { message: 'Lead not found' } },
  BUSINESS_NOT_FOUND: { when: 'no business with this urlKey', example: { message: 'No business with this urlKey' } },
  APP_NOT_FOUND: { when: 'no app with this appId', example: { message: 'No app with this appId' } },
  WEBHOOK_NOT_FOUND: {
    when: 'no webhook endpoint with this id in this business',
    example: { message: 'No webhook endpoint with this id' },
  },
  SAVED_FILTER_NOT_FOUND: {
    when: 'no saved filter of this operator with this id in this business',
    example: { message: 'No saved filter of yours with this id' },
  },
  WEBHOOK_EVENT_NOT_FOUND: {
    when: 'no event with this id was ever queued for this endpoint',
    example: { message: 'No event with this id for this endpoint' },
  },
  NOT_FOUND: { when: 'no such route or file', example: { message: 'No such route' } },
  METHOD_NOT_ALLOWED: {
    when: 'an operation the interface does not offer',
    example: { message: 'This operation is not supported on pipelines' },
  },
  IDEMPOTENCY_CONFLICT: {
    when:
      'the clientId is taken by a client with different details, or by an archived or deleted client; ' +
      'or the Idempotency-Key was used for another request (another route, path or body)',
    example: { message: 'A client with this clientId already exists with different details' },
  },
  IDEMPOTENCY_IN_PROGRESS: {
    when: 'the first request with this Idempotency-Key is still running; see Retry-After',
    example: { message: 'A request with this Idempotency-Key is still in progress; retry shortly' },
  },
  INVALID_IDEMPOTENCY_KEY: {
    when:
      `the Idempotency-Key header is empty, longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, ` +
      'not printable ASCII, or sent more than once',
    example: { message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters` },
  },
  URL_KEY_TAKEN: {
    when: 'the urlKey sent is used by another business',
    example: { message: 'This urlKey is already taken' },
  },
  CLIENT_DELETED: {
    when: 'a restore of a deleted client: deletion is final, only archived clients can be restored',
    example: { message: 'This client was deleted, and deletion is final: only an archived client can be restored' },
  },
  PAYLOAD_TOO_LARGE: {
    when: 'a body over the configured limit (BODY_LIMIT_BYTES, 1 MiB by default)',
    example: { message: 'Request body is too large' },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: 'a body without Content-Type application/json',
    example: { message: 'Content-Type must be application/json' },
  },
  REQUEST_TIMEOUT: {
    when: 'the request (headers, then body) did not arrive within REQUEST_TIMEOUT_MS; the connection is closed',
    example: { message: 'The request was not received in time' },
  },
  HEADERS_TOO_LARGE: {
    when: 'request headers over 16 KiB in all; answered before any route',
    example: { message: 'Request headers are too large' },
  },
  TOO_MANY_REQUESTS: {
    when: 'too many failed sign-ins for this account and address; see Retry-After',
    example: { message: 'Too many failed attempts; try again later' },
  },
  SERVICE_ERROR: {
    when: 'an unexpected server error (generic message; details are in the log under the request id)',
    example: { message: 'An unexpected error occurred' },
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  501: 'Not Implemented',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Server error',
};

/** The envelope schemas every error answer refers to. */
export function errorSchemas(): Record<string, JsonSchema> {
  const text = { type: 'string' };
  return {
    ErrorCode: { enum: ALL_CODES, description: 'The stable error code (data.error.code); read this, not the message.' },
    FieldError: {
      type: 'object',
      additionalProperties: false,
      required: ['field', 'message', 'code'],
      properties: {
        field: { type: 'string', description: 'The field as sent, by path: shippingDetails[0].gstin.' },
        message: text,
        code: ref('ErrorCode'),
      },
    },
    ErrorEnvelope: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'message', 'code', 'className', 'data', 'errors'],
      description:
        'The error envelope: read the stable code from data.error.code; on a 400 with several failures, data.error.errors lists each.',
      properties: {
        name: text,
        message: text,
        code: { type: 'integer', description: 'The HTTP status.' },
        className: text,
        data: {
          type: 'object',
          additionalProperties: false,
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              additionalProperties: false,
              required: ['message', 'code', 'status'],
              properties: {
                message: text,
                code: ref('ErrorCode'),
                status: { type: 'integer' },
                errors: { type: 'array', items: ref('FieldError') },
                existingLeadId: {
                  type: 'string',
                  description:
                    "A lead create's 409: the lead stored under this externalId (absent when it was removed).",
                },
                existingInvoiceId: {
                  type: 'string',
                  description: "An invoice create's 409: the invoice stored under this invoiceNumber.",
                },
                amountDue: { type: 'number', description: 'PAYMENT_EXCEEDS_DUE: what the invoice still has due.' },
              },
            },
          },
        },
        errors: { type: 'object', maxProperties: 0 },
      },
    },
    BareError: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'message', 'code', 'className', 'data', 'errors'],
      description: 'The answers without an error code: 401 NotAuthenticated, and 405 on client routes (status alone).',
      properties: {
        name: text,
        message: text,
        code: { type: 'integer' },
        className: text,
        data: { type: 'object', additionalProperties: false, required: ['message'], properties: { message: text } },
        errors: { type: 'object', maxProperties: 0 },
      },
    },
  };
}

/** Codes every operation of this kind can answer, besides those it names. */
function impliedCodes(op: OperationDoc): ErrorCode[] {
  // Node answers oversized headers before any route, and a body that stalls past REQUEST_TIMEOUT_MS.
  const codes: ErrorCode[] = ['SERVICE_ERROR', 'HEADERS_TOO_LARGE'];
  if (op.guard === 'app') codes.push('PERMISSION_DENIED');
  if (op.body) codes.push('INVALID_FIELD', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'REQUEST_TIMEOUT');
  if (op.idempotencyKey) codes.push('INVALID_IDEMPOTENCY_KEY', 'IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_IN_PROGRESS');
  return codes;
}

/** Every code an operation can answer with (405 refusals: that one only). */
export function operationCodes(op: OperationDoc): ErrorCode[] {
  if (op.refusal === 'coded') return ['METHOD_NOT_ALLOWED'];
  if (op.refusal === 'bare') return [];
  const codes = new Set([...(op.errors ?? []), ...impliedCodes(op)]);
  return ALL_CODES.filter((code) => codes.has(code));
}

/** The `responses` entries of an operation's errors, one per status, each code with an example. */
export function errorResponses(op: OperationDoc): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  if (op.refusal === 'bare')
    responses['405'] = bareResponse(
      405,
      'Method not allowed',
      'Not offered by this interface: the status alone, no error code, before any authentication.',
    );
  if ((op.guard !== 'open' || op.optionalBearer) && !op.refusal) {
    responses['401'] = bareResponse(
      401,
      'Not authenticated',
      'NotAuthenticated: the token is missing, malformed, invalid, expired or of the wrong kind. No error code.',
    );
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationCodes(op)) {
    // A code the operation names in bodyErrors comes from its validation pass: a 400 whatever its own status.
    const status = op.bodyErrors?.includes(code) && BODY_ERROR_CODES.has(code) ? 400 : ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b))
    responses[String(status)] = codedResponse(status, codes, op);
  return responses;
}

function codedResponse(status: number, codes: ErrorCode[], op: OperationDoc): JsonSchema {
  const examples: Record<string, JsonSchema> = {};
  for (const code of codes) {
    const { message, errors } = op.errorExamples?.[code] ?? CODES[code].example;
    examples[code] = { summary: CODES[code].when, value: errorEnvelope(status, code, message, errors) };
  }
  const narrowed: JsonSchema = {
    properties: {
      name: { const: errorNames(status)[0] },
      code: { const: status },
      data: { properties: { error: { properties: { code: { enum: codes }, status: { const: status } } } } },
    },
  };
  const response: JsonSchema = {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((code) => `${code} (${CODES[code].when})`).join('; ')}.`,
    content: { 'application/json': { schema: { allOf: [ref('ErrorEnvelope'), narrowed] }, examples } },
  };
  if (status === 429 || codes.includes('IDEMPOTENCY_IN_PROGRESS')) {
    response.headers = {
      'Retry-After': {
        description: 'Seconds to wait before trying again (429; 409 IDEMPOTENCY_IN_PROGRESS).',
        schema: { type: 'integer' },
      },
    };
  }
  return response;
}

function bareResponse(status: 401 | 405, message: string, description: string): JsonSchema {
  const [name] = errorNames(status);
  return {
    description,
    content: {
      'application/json': {
        schema: { allOf: [ref('BareError'), { properties: { name: { const: name }, code: { const: status } } }] },
        examples: { [name]: { summary: description, value: bareEnvelope(status, message) } },
      },
    },
  };
}
