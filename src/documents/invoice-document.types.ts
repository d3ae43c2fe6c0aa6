/**
 * What the renderers read: the invoice answer of invoices-interface 2.1 (the JSON an app receives), as
 * far as a document shows it, plus the business's time zone. Members are optional where the answer omits
 * them. When the invoices module's answer type exists, this is the subset it must satisfy.
 */

export interface AdditionalIdEntry {
  label: string;
  value: string;
  showInInvoice?: boolean;
  useForEInvoice?: boolean;
}

export interface InvoiceParty {
  name: string;
  country?: string;
  street?: string;
  city?: string;
  state?: string;
  pincode?: string;
  gstState?: string;
  gstin?: string;
  panNumber?: string;
  trnNumber?: string;
  tinNumber?: string;
  sstNumber?: string;
  vatNumber?: string;
  taxPayerType?: string;
  additionalIds?: AdditionalIdEntry[];
  phone?: string;
  email?: string;
  phoneShowInInvoice?: boolean;
  emailShowInInvoice?: boolean;
}

export interface InvoiceItem {
  name: string;
  hsn?: string;
  rate: number;
  quantity: number;
  amount: number;
  /** INDIA items. */
  gstRate?: number;
  igst?: number;
  cgst?: number;
  sgst?: number;
  /** Other regimes' items. */
  taxRate?: number;
  tax?: number;
  total: number;
}

export interface InvoiceCharge {
  label: string;
  amount: number;
  type: 'PERCENTAGE' | 'FIXED_AMOUNT';
  multiplier: 1 | -1;
  appliedAmount: number;
}

export interface InvoiceTerms {
  label: string;
  terms: string[];
}

export interface InvoiceFinalTotal {
  subTotal: number;
  amount: number;
  igst?: number;
  cgst?: number;
  sgst?: number;
  tax?: number;
  discount: number;
  charges: number;
  total: number;
}

export type TaxType = 'INDIA' | 'UAE' | 'SAUDI' | 'MALAYSIA' | 'OTHER';

export interface InvoiceAnswer {
  invoiceNumber: string;
  currency: string;
  invoiceDate: string;
  dueDate?: string;
  billType: 'INVOICE' | 'BOS';
  status: 'UNPAID' | 'PARTIALLY_PAID' | 'PAID' | 'CANCELED';
  taxType: TaxType;
  igst?: boolean;
  billedBy: InvoiceParty;
  billedTo: InvoiceParty;
  shippedTo?: InvoiceParty;
  invoiceTitle?: string;
  invoiceSubTitle?: string;
  items: InvoiceItem[];
  finalTotal: InvoiceFinalTotal;
  additionalCharges: InvoiceCharge[];
  terms: InvoiceTerms[];
  locale: string;
  amountPaid?: number;
  amountDue?: number;
  zatcaQr?: string;
  share?: { link?: string; pdf?: string };
}

export interface InvoiceDocumentInput {
  invoice: InvoiceAnswer;
  /** The business's IANA time zone: calendar dates are printed there (3.8). */
  timeZone: string;
}
