import type { FieldError } from '../errors/codes.js';
import {
  codesForCountry,
  findAdditionalIdCode,
  matchesAdditionalIdFormat,
  scopeAllows,
  type PartyFlags,
} from '../validation/additional-ids.js';
import { isCountryCode } from '../validation/countries.js';
import { buildUnderivedClient } from './client.build.js';
import { readCustomFieldValues } from './client.custom-fields.js';
import { deriveClient } from './client.derive.js';
import { FieldReader, isJsonObject, type EntryRules, type ReaderHooks } from '../validation/field-reader.js';
import {
  ADDITIONAL_ID_SPEC,
  BANK_ACCOUNT_SPEC,
  CLIENT_SPEC,
  OPERATOR_CLIENT_SPEC,
  SERVER_OWNED_KEYS,
} from './client.schema.js';
import type { ListSpec } from '../validation/field-spec.js';
import type { ClientValue, ValidationContext, ValidationMode } from './client.types.js';

export type { ValidationContext, ValidationMode } from './client.types.js';

export type ValidationResult = { ok: true; value: ClientValue } | { ok: false; errors: FieldError[] };

/**
 * Validates a create body in one pass and returns the normalised, derived client ready to store, or
 * every failure in body order. `operator` mode is the dashboard-created client: no clientId, a source.
 */
export function validateClient(body: unknown, context: ValidationContext, mode: ValidationMode): ValidationResult {
  if (!isJsonObject(body)) {
    return {
      ok: false,
      errors: [{ field: 'body', code: 'INVALID_FIELD', message: 'The request body must be a JSON object' }],
    };
  }
  const facts = bodyFacts(body, context);
  const reader = new FieldReader(
    { businessCountry: context.businessCountry, enforceGstinChecksum: context.enforceGstinChecksum },
    listHooks(facts, context),
  );
  const spec = mode === 'api' ? CLIENT_SPEC : OPERATOR_CLIENT_SPEC;
  const values = reader.readEntry(spec, body, '', clientRules(body, mode, reader));
  if (!values || reader.errors.length > 0) return { ok: false, errors: reader.errors };
  return { ok: true, value: deriveClient(buildUnderivedClient(values, mode), context.businessCountry) };
}

/** What list rules need to know about the whole body, read before the pass so any key order works. */
interface BodyFacts {
  party: PartyFlags;
  /** The country additional ids are checked against; undefined when the sent country is itself invalid. */
  country: string | null | undefined;
}

function bodyFacts(body: Record<string, unknown>, context: ValidationContext): BodyFacts {
  const party = {
    isClient: typeof body.isClient === 'boolean' ? body.isClient : true,
    isVendor: typeof body.isVendor === 'boolean' ? body.isVendor : false,
  };
  const sent = body.country;
  if (sent === undefined || sent === null) {
    return { party, country: isCountryCode(context.businessCountry) ? context.businessCountry : null };
  }
  // An invalid country is already an error of its own; checking codes against it would only add noise.
  return { party, country: typeof sent === 'string' && isCountryCode(sent) ? sent : undefined };
}

function listHooks(facts: BodyFacts, context: ValidationContext): ReaderHooks {
  return {
    rulesForList(spec: ListSpec, reader: FieldReader): EntryRules | undefined {
      if (spec.items === ADDITIONAL_ID_SPEC) return additionalIdRules(facts, reader);
      if (spec.items === BANK_ACCOUNT_SPEC) return bankAccountRules(reader);
      return undefined;
    },
    readCustomFields(raw, path, reader) {
      const result = readCustomFieldValues(raw, path, context);
      reader.errors.push(...result.errors);
      return result.errors.length === 0 ? result.values : undefined;
    },
  };
}

function clientRules(body: Record<string, unknown>, mode: ValidationMode, reader: FieldReader): EntryRules {
  const keys = Object.keys(body);
  return {
    refuseKey(key) {
      if (mode === 'operator' && key === 'clientId')
        return 'clientId is not accepted for a client created by an operator';
      if (SERVER_OWNED_KEYS.has(key) && !(mode === 'operator' && key === 'source'))
        return `${key} is set by the server and cannot be sent`;
      return null;
    },
    afterMember(key, value, path) {
      if (key === 'state' && (body.country === undefined || body.country === null)) {
        reader.valueError(path, 'state requires country in the same request');
      }
      if ((key === 'isClient' || key === 'isVendor') && value === false) checkPartyNotEmpty(key, body, keys, reader);
    },
  };
}

/**
 * isClient and isVendor cannot both be false (counting defaults: isClient true, isVendor false).
 * Reported once, at the later of the two keys sent as false, so the error keeps body order.
 */
function checkPartyNotEmpty(
  key: 'isClient' | 'isVendor',
  body: Record<string, unknown>,
  keys: string[],
  reader: FieldReader,
): void {
  const other = key === 'isClient' ? 'isVendor' : 'isClient';
  const otherEffective = typeof body[other] === 'boolean' ? body[other] : other === 'isClient';
  if (otherEffective !== false) return;
  const otherSentLater = body[other] === false && keys.indexOf(other) > keys.indexOf(key);
  if (!otherSentLater) reader.valueError(key, 'isClient and isVendor cannot both be false');
}

const SORT_CODE_COUNTRIES = new Set(['GB', 'IE']);

function bankAccountRules(reader: FieldReader): EntryRules {
  return {
    afterMember(key, _value, path, entry) {
      if (
        key === 'sortCode' &&
        !(typeof entry.bankCountry === 'string' && SORT_CODE_COUNTRIES.has(entry.bankCountry))
      ) {
        reader.valueError(path, `${path} is accepted only when bankCountry is GB or IE`);
      }
    },
  };
}

/**
 * Additional ids (2.5), for the client's own list and each shipping address's: codes of the client's
 * effective country, allowed for its party type, each code once per list, the code's format.
 */
function additionalIdRules(facts: BodyFacts, reader: FieldReader): EntryRules {
  const seen = new Set<string>();
  return {
    afterMember(key, value, path, entry) {
      if (key === 'label') checkCode(value as string, path, facts, seen, reader);
      if (key === 'value') checkIdValue(value as string, entry.label, path, facts, reader);
    },
  };
}

function checkCode(code: string, path: string, facts: BodyFacts, seen: Set<string>, reader: FieldReader): void {
  const problem = codeProblem(code, facts);
  if (problem) reader.valueError(path, `${path} ${problem}`);
  else if (seen.has(code)) reader.valueError(path, `${path} ${code} appears more than once`);
  seen.add(code);
}

function codeProblem(code: string, facts: BodyFacts): string | null {
  if (facts.country === undefined) return null;
  if (facts.country === null) return `${code} cannot be used: the client has no country`;
  const definition = findAdditionalIdCode(facts.country, code);
  if (!definition) {
    const offered = codesForCountry(facts.country);
    return `${code} is not an additional id code for ${facts.country} (accepted: ${offered.length > 0 ? offered.join(', ') : 'none'})`;
  }
  if (!scopeAllows(definition.scope, facts.party)) {
    return definition.scope === 'client'
      ? `${code} is for customers: it needs isClient true`
      : `${code} is for sellers: it needs isVendor true`;
  }
  return null;
}

function checkIdValue(value: string, label: unknown, path: string, facts: BodyFacts, reader: FieldReader): void {
  const definition =
    typeof label === 'string' && facts.country ? findAdditionalIdCode(facts.country, label) : undefined;
  if (value.trim().length === 0) reader.valueError(path, `${path} must not be blank`);
  else if (definition && !matchesAdditionalIdFormat(definition, value)) {
    reader.valueError(path, `${path} must be ${definition.formatDescription} for ${definition.code}`);
  }
}
