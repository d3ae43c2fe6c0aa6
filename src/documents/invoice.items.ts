import { UTGST_STATE_CODES } from '../tax/in.js';
import type { InvoiceAnswer, InvoiceFinalTotal, InvoiceItem } from './invoice-document.types.js';
import { LABELS, TAX_NAME } from './invoice.labels.js';
import { formatQuantity, formatRate, type MoneyFormat } from './locale-format.js';

/** How a column is sized and aligned: the PDF gives each kind a width, the item name takes the rest. */
export type ColumnKind = 'index' | 'text' | 'code' | 'quantity' | 'percent' | 'money';

export interface TableColumn {
  header: string;
  kind: ColumnKind;
}

export interface ContentTable {
  columns: TableColumn[];
  rows: string[][];
  /** A last row in bold (the tax summary's totals), or null. */
  footer: string[] | null;
}

/** One tax charged on the items (4.7: only the charged ones are shown). */
interface ChargedTax {
  name: string;
  rate(item: InvoiceItem): number;
  amount(item: InvoiceItem): number;
  total(finalTotal: InvoiceFinalTotal): number;
}

const itemRate = (item: InvoiceItem) => item.gstRate ?? item.taxRate ?? 0;
// Halving a rate is exact in binary floating point; rates are not money.
const halfRate = (item: InvoiceItem) => itemRate(item) / 2;

/** IGST alone, or CGST with SGST (UTGST in a union territory's place of supply, 3.2.4); elsewhere the regime's tax. */
export function chargedTaxes(invoice: InvoiceAnswer): ChargedTax[] {
  if (invoice.billType === 'BOS') return [];
  if (invoice.taxType !== 'INDIA') {
    return [
      { name: TAX_NAME[invoice.taxType], rate: itemRate, amount: (item) => item.tax ?? 0, total: (t) => t.tax ?? 0 },
    ];
  }
  if (invoice.igst === true) {
    return [{ name: 'IGST', rate: itemRate, amount: (item) => item.igst ?? 0, total: (t) => t.igst ?? 0 }];
  }
  const stateTax = UTGST_STATE_CODES.has(invoice.billedTo.gstState ?? '') ? 'UTGST' : 'SGST';
  return [
    { name: 'CGST', rate: halfRate, amount: (item) => item.cgst ?? 0, total: (t) => t.cgst ?? 0 },
    { name: stateTax, rate: halfRate, amount: (item) => item.sgst ?? 0, total: (t) => t.sgst ?? 0 },
  ];
}

const showsHsn = (invoice: InvoiceAnswer) => invoice.taxType === 'INDIA' || invoice.items.some((item) => item.hsn);

export function itemTable(invoice: InvoiceAnswer, money: MoneyFormat): ContentTable {
  const taxes = chargedTaxes(invoice);
  const hsn = showsHsn(invoice);
  const columns: TableColumn[] = [
    { header: LABELS.itemNumber, kind: 'index' },
    { header: LABELS.item, kind: 'text' },
    ...(hsn ? [{ header: LABELS.hsn, kind: 'code' as const }] : []),
    { header: LABELS.quantity, kind: 'quantity' },
    { header: LABELS.rate, kind: 'money' },
    { header: LABELS.taxableValue, kind: 'money' },
    ...taxes.flatMap((tax) => [
      { header: `${tax.name} %`, kind: 'percent' as const },
      { header: tax.name, kind: 'money' as const },
    ]),
    { header: LABELS.total, kind: 'money' },
  ];
  const rows = invoice.items.map((item, index) => [
    String(index + 1),
    item.name,
    ...(hsn ? [item.hsn ?? ''] : []),
    formatQuantity(item.quantity, invoice.locale),
    money.amount(item.rate),
    money.amount(item.amount),
    ...taxes.flatMap((tax) => [formatRate(tax.rate(item), invoice.locale), money.amount(tax.amount(item))]),
    money.amount(item.total),
  ]);
  return { columns, rows, footer: null };
}

interface RateGroup {
  rate: number;
  taxable: bigint;
  taxes: bigint[];
}

function groupByRate(invoice: InvoiceAnswer, taxes: ChargedTax[], money: MoneyFormat): RateGroup[] {
  const groups = new Map<number, RateGroup>();
  for (const item of invoice.items) {
    const rate = itemRate(item);
    const group = groups.get(rate) ?? { rate, taxable: 0n, taxes: taxes.map(() => 0n) };
    group.taxable += money.minorUnits(item.amount);
    group.taxes = group.taxes.map((sum, i) => sum + money.minorUnits((taxes[i] as ChargedTax).amount(item)));
    groups.set(rate, group);
  }
  return [...groups.values()].sort((a, b) => a.rate - b.rate);
}

/** Taxable value and each charged tax per rate, with a totals row; null on a bill of supply. */
export function taxSummary(invoice: InvoiceAnswer, money: MoneyFormat): ContentTable | null {
  const taxes = chargedTaxes(invoice);
  if (taxes.length === 0) return null;
  const columns: TableColumn[] = [
    { header: `${TAX_NAME[invoice.taxType]} %`, kind: 'percent' },
    { header: LABELS.taxableValue, kind: 'money' },
    ...taxes.map((tax) => ({ header: tax.name, kind: 'money' as const })),
    { header: LABELS.totalTax, kind: 'money' },
  ];
  const rows = groupByRate(invoice, taxes, money).map((group) => [
    formatRate(group.rate, invoice.locale),
    money.units(group.taxable),
    ...group.taxes.map((sum) => money.units(sum)),
    money.units(group.taxes.reduce((a, b) => a + b, 0n)),
  ]);
  const totals = taxes.map((tax) => money.minorUnits(tax.total(invoice.finalTotal)));
  const footer = [
    LABELS.total,
    money.amount(invoice.finalTotal.amount),
    ...totals.map((sum) => money.units(sum)),
    money.units(totals.reduce((a, b) => a + b, 0n)),
  ];
  return { columns, rows, footer };
}
