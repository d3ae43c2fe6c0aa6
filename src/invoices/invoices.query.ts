import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { FieldReader, isJsonObject } from '../validation/field-reader.js';
import { entry } from '../validation/field-spec.js';
import { CANCEL_STATUSES } from './invoice.schema.js';
import { inBodyOrder } from './invoice.validate.js';

/** One boolean query parameter (`cancelPayment`, `includeRemoved`), `true` or `false`, and nothing else. */
export function flagQuery(request: FastifyRequest, name: string): boolean {
  const query = request.query as Record<string, unknown>;
  const other = Object.keys(query).find((key) => key !== name);
  if (other !== undefined) throw new AppError('INVALID_QUERY_FIELD', `${other} is not an accepted query parameter`);
  const value = query[name];
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false') throw new AppError('INVALID_QUERY_VALUE', `${name} must be true or false`);
  return value === 'true';
}

const PATCH_SPEC = entry('InvoicePatch', 'Exactly {"status": "CANCELED"}.', [
  [
    'status',
    {
      type: 'string',
      required: true,
      enum: CANCEL_STATUSES,
      message: 'must be CANCELED',
      description: 'CANCELED (CANCELLED accepted).',
    },
  ],
]);

/** 4.5: PATCH takes exactly {"status": "CANCELED"}: other keys INVALID_FIELD, other values INVALID_FIELD_VALUE. */
export function readCancelPatch(body: unknown): void {
  const reader = new FieldReader();
  if (!isJsonObject(body)) throw new AppError('INVALID_FIELD', 'The request body must be a JSON object');
  reader.readEntry(PATCH_SPEC, body, '');
  if (reader.errors.length > 0) throw AppError.fromFieldErrors(inBodyOrder(reader.errors, Object.keys(body)));
}
