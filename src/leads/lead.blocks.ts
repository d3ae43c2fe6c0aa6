import type { ErrorCode } from '../errors/codes.js';
import { isCountryCode, isCurrencyCode } from '../validation/countries.js';
import { isJsonObject, type FieldReader } from '../validation/field-reader.js';
import type { EntrySpec } from '../validation/field-spec.js';
import { BUDGET_SPEC, CONTACT_SPEC, CUSTOMER_SPEC } from './lead.schema.js';

/**
 * The customer, contact and budget blocks of a lead body (docs/leads.md "Create": customer and contact): read member by
 * member, normalised (trimmed names, upper-cased countries and currencies, lower-cased e-mails,
 * normalised phones). Members sent as null are listed in `cleared` (a PATCH clears them).
 */
export interface BlockValues {
  values: Map<string, string>;
  cleared: string[];
}

type BlockKind = 'customer' | 'contact';
const SPECS: Record<BlockKind, EntrySpec> = { customer: CUSTOMER_SPEC, contact: CONTACT_SPEC };
const REF: Record<BlockKind, string> = { customer: 'clientId', contact: 'contactId' };
const MISSING: Record<BlockKind, ErrorCode> = { customer: 'INVALID_CUSTOMER', contact: 'INVALID_CONTACT' };
/** Members that `null` cannot clear: the reference, the name, the country (always present in answers). */
const KEPT = new Set(['clientId', 'contactId', 'name', 'country']);

/** Create: the block must be an object with its reference or a name (else INVALID_CUSTOMER / INVALID_CONTACT). */
export function readCreateBlock(kind: BlockKind, raw: unknown, reader: FieldReader): BlockValues | undefined {
  if (!isJsonObject(raw)) {
    reader.fail(kind, MISSING[kind], `${kind} must be an object with ${REF[kind]} or name`);
    return undefined;
  }
  const block = readBlock(kind, raw, reader, 'create');
  if (block && !block.values.has(REF[kind]) && !block.values.has('name')) {
    reader.fail(kind, MISSING[kind], `${kind} must have ${REF[kind]} or name`);
    return undefined;
  }
  return block;
}

/** Edit: any members; null clears a snapshot member (not the reference, name or country). */
export function readEditBlock(kind: BlockKind, raw: unknown, reader: FieldReader): BlockValues | undefined {
  if (!isJsonObject(raw)) {
    reader.nameError(kind, `${kind} must be an object`);
    return undefined;
  }
  return readBlock(kind, raw, reader, 'edit');
}

function readBlock(
  kind: BlockKind,
  raw: Record<string, unknown>,
  reader: FieldReader,
  mode: 'create' | 'edit',
): BlockValues | undefined {
  const before = reader.errors.length;
  const cleared: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (value !== null || !SPECS[kind].fields.has(key)) continue;
    if (mode === 'edit' && KEPT.has(key)) reader.valueError(`${kind}.${key}`, `${kind}.${key} cannot be cleared`);
    else cleared.push(key);
  }
  const read = reader.readEntry(SPECS[kind], raw, kind);
  if (!read) return undefined;
  const values = new Map<string, string>();
  for (const [key, value] of read) {
    const normalised = normaliseMember(`${kind}.${key}`, key, value as string, reader);
    if (normalised !== undefined) values.set(key, normalised);
  }
  return reader.errors.length === before ? { values, cleared: mode === 'edit' ? cleared : [] } : undefined;
}

function normaliseMember(path: string, key: string, value: string, reader: FieldReader): string | undefined {
  if ((key === 'name' || key === 'clientId' || key === 'contactId') && value.length === 0) {
    return void reader.valueError(path, `${path} must not be empty after trimming`);
  }
  if (key === 'country') {
    const upper = value.toUpperCase();
    return isCountryCode(upper)
      ? upper
      : void reader.valueError(path, `${path} must be an ISO 3166-1 alpha-2 country code`);
  }
  if (key === 'email') return value.toLowerCase();
  return value;
}

export interface BudgetValues {
  amount?: number;
  currency?: string;
}

export function readBudget(raw: unknown, reader: FieldReader): BudgetValues | undefined {
  const before = reader.errors.length;
  const read = reader.readEntry(BUDGET_SPEC, raw, 'budget');
  if (!read) return undefined;
  const budget: BudgetValues = {};
  if (read.has('amount')) budget.amount = read.get('amount') as number;
  const currency = read.get('currency') as string | undefined;
  if (currency !== undefined) {
    const upper = currency.toUpperCase();
    if (isCurrencyCode(upper)) budget.currency = upper;
    else reader.valueError('budget.currency', 'budget.currency must be an ISO 4217 currency code');
  }
  return reader.errors.length === before ? budget : undefined;
}
