import { amountInWords } from './amount-words.js';
import type { InvoiceAnswer, InvoiceDocumentInput } from './invoice-document.types.js';
import { chargedTaxes, type ContentTable, itemTable, taxSummary } from './invoice.items.js';
import { LABELS } from './invoice.labels.js';
import { type PartyBlock, partyBlocks, placeOfSupply } from './invoice.parties.js';
import { formatDate, formatRate, type MoneyFormat, moneyFormat } from './locale-format.js';

/**
 * What an invoice document shows (invoices-interface 4.7), already worded and formatted for its locale:
 * the PDF and the share page lay out this same content, so they cannot disagree.
 */
export interface InvoiceContent {
  title: string;
  subTitle: string | null;
  canceled: boolean;
  /** Number, dates, place of supply, reverse charge: label and value. */
  facts: [string, string][];
  parties: PartyBlock[];
  amountsIn: string;
  items: ContentTable;
  taxSummary: ContentTable | null;
  totals: { label: string; value: string; strong: boolean }[];
  words: string;
  terms: { label: string; lines: string[] }[];
  signatory: { forLine: string; label: string };
  zatcaQr: string | null;
  invoiceNumber: string;
}

/** INDIA and the VAT/SST regimes title a tax invoice so; OTHER prints the invoice's own title. */
function titleOf(invoice: InvoiceAnswer): string {
  if (invoice.billType === 'BOS') return LABELS.billOfSupply;
  if (invoice.taxType !== 'OTHER') return LABELS.taxInvoice;
  return (invoice.invoiceTitle ?? 'Invoice').toUpperCase();
}

function facts(invoice: InvoiceAnswer, timeZone: string): [string, string][] {
  const list: [string, string][] = [
    [LABELS.invoiceNumber, invoice.invoiceNumber],
    [LABELS.invoiceDate, formatDate(invoice.invoiceDate, invoice.locale, timeZone)],
  ];
  if (invoice.dueDate) list.push([LABELS.dueDate, formatDate(invoice.dueDate, invoice.locale, timeZone)]);
  if (invoice.taxType === 'INDIA') {
    list.push([LABELS.placeOfSupply, placeOfSupply(invoice)], [LABELS.reverseCharge, LABELS.reverseChargeValue]);
  }
  return list;
}

function chargeLabel(charge: InvoiceAnswer['additionalCharges'][number], locale: string): string {
  return charge.type === 'PERCENTAGE' ? `${charge.label} (${formatRate(charge.amount, locale)}%)` : charge.label;
}

function totals(invoice: InvoiceAnswer, money: MoneyFormat): InvoiceContent['totals'] {
  const row = (label: string, value: string, strong = false) => ({ label, value, strong });
  const { finalTotal } = invoice;
  const taxes = chargedTaxes(invoice);
  const list = [row(taxes.length > 0 ? LABELS.taxableValue : LABELS.subTotal, money.amount(finalTotal.amount))];
  for (const tax of taxes) list.push(row(tax.name, money.amount(tax.total(finalTotal))));
  for (const charge of invoice.additionalCharges) {
    list.push(row(chargeLabel(charge, invoice.locale), money.amount(charge.appliedAmount)));
  }
  list.push(row(`${LABELS.total} (${invoice.currency})`, money.money(finalTotal.total), true));
  if (invoice.amountPaid !== undefined && invoice.amountPaid > 0) {
    list.push(
      row(LABELS.amountPaid, money.amount(invoice.amountPaid)),
      row(LABELS.amountDue, money.amount(invoice.amountDue ?? 0)),
    );
  }
  return list;
}

export function invoiceContent({ invoice, timeZone }: InvoiceDocumentInput): InvoiceContent {
  const money = moneyFormat(invoice.currency, invoice.locale);
  const minorUnits = money.minorUnits(invoice.finalTotal.total);
  return {
    title: titleOf(invoice),
    subTitle: invoice.invoiceSubTitle ?? null,
    canceled: invoice.status === 'CANCELED',
    facts: facts(invoice, timeZone),
    parties: partyBlocks(invoice),
    amountsIn: `${LABELS.amountsIn} ${invoice.currency}`,
    items: itemTable(invoice, money),
    taxSummary: taxSummary(invoice, money),
    totals: totals(invoice, money),
    words: amountInWords({
      minorUnits,
      currency: invoice.currency,
      minorDigits: money.minorDigits,
      locale: invoice.locale,
    }),
    terms: invoice.terms.map((group) => ({ label: group.label, lines: group.terms })),
    signatory: { forLine: `${LABELS.signatoryFor} ${invoice.billedBy.name}`, label: LABELS.signatory },
    zatcaQr: invoice.taxType === 'SAUDI' && invoice.billType === 'INVOICE' ? (invoice.zatcaQr ?? null) : null,
    invoiceNumber: invoice.invoiceNumber,
  };
}
