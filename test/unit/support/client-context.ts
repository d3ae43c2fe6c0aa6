import type { ValidationContext } from '../../../src/clients/client.types.js';
import type { CustomFieldDefinition } from '../../../src/storage/records.js';
import { validateClient } from '../../../src/clients/client.validate.js';
import type { ClientValue } from '../../../src/clients/client.types.js';

export const CUSTOM_FIELDS: CustomFieldDefinition[] = [
  { id: 'cf-region', name: 'Region', type: 'SELECT', options: ['North', 'South'], isArchived: false },
  { id: 'cf-notes', name: 'Notes', type: 'TEXT', options: null, isArchived: false },
  { id: 'cf-limit', name: 'Credit Limit', type: 'NUMBER', options: null, isArchived: false },
  { id: 'cf-since', name: 'Customer Since', type: 'DATE', options: null, isArchived: false },
  { id: 'cf-vip', name: 'VIP', type: 'BOOLEAN', options: null, isArchived: false },
  { id: 'cf-old', name: 'Legacy Code', type: 'TEXT', options: null, isArchived: true },
];

export function context(overrides: Partial<ValidationContext> = {}): ValidationContext {
  return {
    businessCountry: 'IN',
    customFieldsEnabled: true,
    customFields: CUSTOM_FIELDS,
    enforceGstinChecksum: false,
    ...overrides,
  };
}

/** Validates and fails the test with the errors when the body was expected to be valid. */
export function valid(
  body: Record<string, unknown>,
  ctx: ValidationContext = context(),
  mode: 'api' | 'operator' = 'api',
): ClientValue {
  const result = validateClient(body, ctx, mode);
  if (!result.ok) throw new Error(`expected a valid body, got ${JSON.stringify(result.errors)}`);
  return result.value;
}

/** The [field, code] pairs of a failing body, in order. */
export function failures(
  body: unknown,
  ctx: ValidationContext = context(),
  mode: 'api' | 'operator' = 'api',
): [string, string][] {
  const result = validateClient(body, ctx, mode);
  if (result.ok) throw new Error('expected validation errors, got a valid client');
  return result.errors.map((error) => [error.field, error.code]);
}

export const base = { clientId: 'c-1', name: 'Acme' };
