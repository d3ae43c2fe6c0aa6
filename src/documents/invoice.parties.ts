import { findAdditionalIdCode } from '../validation/additional-ids.js';
import { GST_STATE_CODES } from '../tax/in.js';
import type { InvoiceAnswer, InvoiceParty } from './invoice-document.types.js';
import { LABELS, TAX_NUMBER_LABELS } from './invoice.labels.js';

/** A party as printed: a heading, the name, then lines of address, state, tax numbers and contacts. */
export interface PartyBlock {
  heading: string;
  name: string;
  lines: string[];
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** `Karnataka (29)`: an Indian state by its GST code (invoices-interface 2.2: the PDF state is gstState's). */
export function gstStateText(code: string): string {
  return `${GST_STATE_CODES.get(code) ?? code} (${code})`;
}

function addressLines(party: InvoiceParty): string[] {
  const indian = party.gstState !== undefined;
  // An Indian party's state is printed from gstState on its own line, never the free-text state.
  const place = [party.city, indian ? undefined : party.state, party.pincode].filter((part) => part !== undefined);
  const lines = [party.street, place.join(', ')];
  if (party.country !== undefined) lines.push(regionNames.of(party.country));
  if (party.gstState !== undefined) {
    lines.push(
      `${LABELS.state}: ${GST_STATE_CODES.get(party.gstState) ?? party.gstState}, ${LABELS.stateCode}: ${party.gstState}`,
    );
  }
  return lines.filter((line): line is string => line !== undefined && line !== '');
}

function taxNumberLines(party: InvoiceParty): string[] {
  return TAX_NUMBER_LABELS.flatMap(([member, label]) => (party[member] ? [`${label}: ${party[member]}`] : []));
}

/** Additional ids with showInInvoice; on a Saudi buyer also the one e-invoicing reads (3.3). */
function additionalIdLines(party: InvoiceParty, eInvoiceId: boolean): string[] {
  return (party.additionalIds ?? [])
    .filter((entry) => entry.showInInvoice === true || (eInvoiceId && entry.useForEInvoice === true))
    .map((entry) => {
      const known = findAdditionalIdCode(party.country ?? null, entry.label);
      return `${known?.identifier ?? entry.label}: ${entry.value}`;
    });
}

function contactLines(party: InvoiceParty): string[] {
  const lines: string[] = [];
  if (party.phone && party.phoneShowInInvoice === true) lines.push(`${LABELS.phone}: ${party.phone}`);
  if (party.email && party.emailShowInInvoice === true) lines.push(`${LABELS.email}: ${party.email}`);
  return lines;
}

function partyBlock(heading: string, party: InvoiceParty, eInvoiceId: boolean): PartyBlock {
  const lines = [...addressLines(party), ...taxNumberLines(party), ...additionalIdLines(party, eInvoiceId)];
  return { heading, name: party.name, lines: [...lines, ...contactLines(party)] };
}

/** Seller, buyer and, when the invoice has one, the shipping address. */
export function partyBlocks(invoice: InvoiceAnswer): PartyBlock[] {
  const blocks = [
    partyBlock(LABELS.billedBy, invoice.billedBy, false),
    partyBlock(LABELS.billedTo, invoice.billedTo, invoice.taxType === 'SAUDI'),
  ];
  if (invoice.shippedTo) blocks.push(partyBlock(LABELS.shippedTo, invoice.shippedTo, false));
  return blocks;
}

/** India's place of supply: the buyer's state, or `Outside India` for a buyer abroad (4.7). */
export function placeOfSupply(invoice: InvoiceAnswer): string {
  const buyer = invoice.billedTo;
  if (buyer.country !== undefined && buyer.country !== 'IN') return LABELS.outsideIndia;
  return buyer.gstState === undefined ? LABELS.outsideIndia : gstStateText(buyer.gstState);
}
