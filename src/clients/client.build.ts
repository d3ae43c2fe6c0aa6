import type { ReadValues } from '../validation/field-reader.js';
import { defaultOf, type EntrySpec, type FieldSpec } from '../validation/field-spec.js';
import type { UnderivedClient } from './client.derive.js';
import { ADDITIONAL_ID_SPEC, CLIENT_SPEC } from './client.schema.js';
import type { AdditionalIdValue, OperatorSource, ValidationMode } from './client.types.js';

/**
 * Turns the members read from a valid body into the stored shape by walking the field table
 * (client.schema.ts): every field of CLIENT_SPEC present, in its order, unset ones as their default
 * (defaultOf: the spec's default, empty lists, null). Runs only when validation found no error.
 */
export function buildUnderivedClient(values: ReadValues, mode: ValidationMode): UnderivedClient {
  // Operator clients have no clientId: the table's own entry, unsent, stores null.
  const client = buildEntry(CLIENT_SPEC, values) as unknown as UnderivedClient;
  if (mode === 'operator') client.source = values.get('source') as OperatorSource;
  return client;
}

function buildEntry(spec: EntrySpec, values: ReadValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of spec.fields) out[key] = buildMember(field, values.get(key));
  return out;
}

function buildMember(field: FieldSpec, value: unknown): unknown {
  if (field.type !== 'array') return value ?? defaultOf(field);
  const list = ((value as ReadValues[] | undefined) ?? []).map((entry) => buildEntry(field.items, entry));
  return field.items === ADDITIONAL_ID_SPEC ? firstEInvoiceFlagOnly(list as unknown as AdditionalIdValue[]) : list;
}

/** Only the first entry flagged useForEInvoice keeps the flag (2.5); e-invoicing reads one identifier. */
function firstEInvoiceFlagOnly(list: AdditionalIdValue[]): AdditionalIdValue[] {
  let flagTaken = false;
  return list.map((entry) => {
    const useForEInvoice = entry.useForEInvoice && !flagTaken;
    if (entry.useForEInvoice) flagTaken = true;
    return { ...entry, useForEInvoice };
  });
}
