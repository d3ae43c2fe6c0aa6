import { buildUnderivedClient } from '../clients/client.build.js';
import { deriveClient } from '../clients/client.derive.js';
import { fillTaxIds } from '../tax/countries.js';
import type { ReadValues } from '../validation/field-reader.js';
import { PARTY_CLIENT_FIELDS } from './invoice.schema.js';

/**
 * Party blocks (invoices-interface 2.2, 3.6): a snapshot carries the members that have a value, in the
 * field table's order; the buyer is filled from its linked client, and matched to an invoice-made client
 * by its match key.
 */

export type Party = Record<string, unknown>;

/** The members of a party, in answer order (the field table's, with clientId never echoed). */
export const PARTY_MEMBERS = ['name', ...PARTY_CLIENT_FIELDS] as const;

/** Read values (Maps, lists of Maps) as plain JSON values. */
export function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

const hasValue = (value: unknown) =>
  value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/** `layers` from weakest to strongest (defaults, then what was sent); gstState and panNumber filled from a gstin. */
export function partyOf(...layers: (Party | null | undefined)[]): Party {
  const merged: Party = {};
  for (const layer of layers) if (layer) for (const [k, v] of Object.entries(layer)) if (hasValue(v)) merged[k] = v;
  if (typeof merged.gstin === 'string') {
    const ids = fillTaxIds({
      gstin: merged.gstin,
      gstState: (merged.gstState as string | undefined) ?? null,
      panNumber: (merged.panNumber as string | undefined) ?? null,
      trnNumber: null,
      tinNumber: null,
      sstNumber: null,
      vatNumber: null,
    });
    if (ids.gstState !== null) merged.gstState = ids.gstState;
    if (ids.panNumber !== null) merged.panNumber = ids.panNumber;
  }
  const out: Party = {};
  for (const key of PARTY_MEMBERS) if (hasValue(merged[key])) out[key] = merged[key];
  out.phoneShowInInvoice = merged.phoneShowInInvoice ?? false;
  out.emailShowInInvoice = merged.emailShowInInvoice ?? false;
  return out;
}

/** The sent members of a block as a plain party (clientId left out). */
export function sentParty(values: ReadValues | null): Party | null {
  if (!values) return null;
  const out = plain(values) as Party;
  delete out.clientId;
  return out;
}

/** What a linked client contributes to billedTo (3.6.1): its name, address, country, ids, contact and flags. */
export function clientParty(client: Record<string, unknown>): Party {
  const out: Party = {};
  for (const key of PARTY_MEMBERS) if (hasValue(client[key])) out[key] = client[key];
  return out;
}

/** The tax id a buyer is matched by (3.6.2): IN gstin, AE trnNumber, MY tinNumber, elsewhere vatNumber. */
const MATCH_ID: Record<string, string> = { IN: 'gstin', AE: 'trnNumber', MY: 'tinNumber' };

/** 3.6.2: name (NFC, trimmed, whitespace runs collapsed, lower-cased), country, and the country's tax id upper-cased. */
export function matchKeyOf(buyer: Party): string {
  const name = String(buyer.name ?? '')
    .normalize('NFC')
    .trim()
    .replace(/\s+/gu, ' ')
    .toLowerCase();
  const country = String(buyer.country ?? '');
  const id = buyer[MATCH_ID[country] ?? 'vatNumber'];
  return JSON.stringify([name, country, typeof id === 'string' ? id.toUpperCase() : null]);
}

/** A client made by an invoice (3.6.3): a client of service-interface 2.4 in every respect, derivations included. */
export function newClientValue(clientId: string, billedTo: ReadValues, businessCountry: string): unknown {
  const values = new Map<string, unknown>([['clientId', clientId]]);
  for (const key of PARTY_MEMBERS) if (billedTo.has(key)) values.set(key, billedTo.get(key));
  return deriveClient(buildUnderivedClient(values, 'api'), businessCountry);
}
