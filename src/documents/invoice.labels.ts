import type { TaxType } from './invoice-document.types.js';

/**
 * Every word an invoice document prints, once: the PDF and the share page read them from here, and the
 * tests look for these same strings in the extracted text.
 */
export const LABELS = {
  taxInvoice: 'TAX INVOICE',
  billOfSupply: 'BILL OF SUPPLY',
  invoiceNumber: 'Invoice No.',
  invoiceDate: 'Invoice Date',
  dueDate: 'Due Date',
  placeOfSupply: 'Place of Supply',
  outsideIndia: 'Outside India',
  reverseCharge: 'Reverse charge',
  reverseChargeValue: 'No',
  billedBy: 'Billed By',
  billedTo: 'Billed To',
  shippedTo: 'Shipped To',
  state: 'State',
  stateCode: 'Code',
  phone: 'Phone',
  email: 'Email',
  itemNumber: '#',
  item: 'Item',
  hsn: 'HSN/SAC',
  quantity: 'Qty',
  rate: 'Rate',
  taxableValue: 'Taxable Value',
  amount: 'Amount',
  total: 'Total',
  subTotal: 'Sub Total',
  amountsIn: 'Amounts in',
  taxSummary: 'Tax Summary',
  totalTax: 'Total Tax',
  amountPaid: 'Amount Paid',
  amountDue: 'Amount Due',
  inWords: 'Total in words',
  terms: 'Terms and Conditions',
  signatoryFor: 'For',
  signatory: 'Authorised Signatory',
  canceled: 'CANCELED',
  zatcaQr: 'ZATCA QR code',
  page: 'Page',
  of: 'of',
  downloadPdf: 'Download PDF',
} as const;

/** The tax-number members a party block prints, in this order, with their printed names. */
export const TAX_NUMBER_LABELS: readonly (readonly [member: TaxNumberMember, label: string])[] = [
  ['gstin', 'GSTIN'],
  ['panNumber', 'PAN'],
  ['trnNumber', 'TRN'],
  ['vatNumber', 'VAT No.'],
  ['tinNumber', 'TIN'],
  ['sstNumber', 'SST No.'],
];
export type TaxNumberMember = 'gstin' | 'panNumber' | 'trnNumber' | 'vatNumber' | 'tinNumber' | 'sstNumber';

/** The name of the tax in each regime (section 1): GST's components are named per item instead. */
export const TAX_NAME: Readonly<Record<TaxType, string>> = {
  INDIA: 'GST',
  UAE: 'VAT',
  SAUDI: 'VAT',
  MALAYSIA: 'SST',
  OTHER: 'Tax',
};
