import type { InvoiceAnswer, InvoiceItem, InvoiceParty } from '../../src/documents/invoice-document.types.js';
import { minorUnitsToDecimal, toMinorUnits } from '../../src/documents/locale-format.js';
import { gstinCheckCharacter } from '../../src/validation/tax-ids.js';

/**
 * Invoice answers (invoices-interface 2.1) written from the worked examples of section 9, with their
 * numbers as the spec gives them, for the document renderers before the invoices API exists. The 500-item
 * invoice and the Saudi QR are computed here with an independent, deliberately plain reference.
 */

const gstin = (first14: string) => first14 + gstinCheckCharacter(first14);
/** Sums of money numbers through minor units, as the API adds them: never float addition. */
const add = (...values: number[]) =>
  Number(
    minorUnitsToDecimal(
      values.reduce((sum, v) => sum + toMinorUnits(v, 2), 0n),
      2,
    ),
  );
const vendorShape = { discount: { discountType: 'PERCENTAGE' }, images: [] };

export const SELLER_IN: InvoiceParty = {
  name: 'Crème Software Pvt. Ltd.',
  country: 'IN',
  street: '12, 2nd Cross, Indiranagar',
  city: 'Bengaluru',
  pincode: '560038',
  gstState: '29',
  gstin: gstin('29AABCC1234F1Z'),
  panNumber: 'AABCC1234F',
  phone: '+918041234567',
  phoneShowInInvoice: false,
  additionalIds: [{ label: 'LUT', value: 'AD290000000001Z', showInInvoice: false }],
};

export const BUYER_KA: InvoiceParty = {
  name: 'Zoë Traders',
  country: 'IN',
  street: '45 MG Road',
  city: 'Mysuru',
  pincode: '570001',
  gstState: '29',
  gstin: gstin('29AAPFZ0939F1Z'),
  phone: '+919812345678',
  phoneShowInInvoice: true,
  email: 'accounts@zoe.example',
  emailShowInInvoice: false,
  additionalIds: [{ label: 'UDY', value: 'UDYAM-KA-01-0000001', showInInvoice: true }],
};

function indianItem(
  name: string,
  rate: number,
  quantity: number,
  gstRate: number,
  m: Record<'amount' | 'igst' | 'cgst' | 'sgst', number>,
  igst: boolean,
): InvoiceItem {
  const total = igst ? add(m.amount, m.igst) : add(m.amount, m.cgst, m.sgst);
  return {
    name,
    rate,
    quantity,
    gstRate,
    subTotal: m.amount,
    ...m,
    total,
    hsn: '998314',
    ...vendorShape,
  } as InvoiceItem;
}

function base(
  number: string,
): Omit<InvoiceAnswer, 'billedBy' | 'billedTo' | 'items' | 'finalTotal' | 'taxType' | 'currency' | 'locale'> {
  return {
    invoiceNumber: number,
    invoiceDate: '2021-06-17T18:30:00.000Z',
    dueDate: '2021-07-17T18:30:00.000Z',
    billType: 'INVOICE',
    status: 'UNPAID',
    additionalCharges: [],
    terms: [
      {
        label: 'Payment',
        terms: ['Payment within 30 days by bank transfer.', 'Interest at 18% a year on late payment.'],
      },
    ],
  };
}

/** 9.1: seller and buyer in Karnataka (29), INR, CGST + SGST; total 1580. */
export function example91(): InvoiceAnswer {
  return {
    ...base('INV-0001'),
    currency: 'INR',
    locale: 'en-IN',
    taxType: 'INDIA',
    igst: false,
    billedBy: SELLER_IN,
    billedTo: BUYER_KA,
    shippedTo: {
      name: 'Zoë Traders Warehouse',
      country: 'IN',
      street: 'Plot 7, KIADB Industrial Area',
      city: 'Hassan',
      pincode: '573201',
      gstState: '29',
    },
    items: [
      indianItem('Website maintenance', 100, 2, 18, { amount: 200, igst: 36, cgst: 18, sgst: 18 }, false),
      indianItem('Cloud hosting (monthly)', 200, 6, 12, { amount: 1200, igst: 144, cgst: 72, sgst: 72 }, false),
    ],
    finalTotal: { subTotal: 1400, amount: 1400, igst: 180, cgst: 90, sgst: 90, discount: 0, charges: 0, total: 1580 },
    amountPaid: 0,
    amountDue: 1580,
  };
}

/** 9.2: the same to a buyer in Maharashtra (27): IGST only. */
export function example92(): InvoiceAnswer {
  const invoice = example91();
  const billedTo: InvoiceParty = {
    name: 'Élan Retail LLP',
    country: 'IN',
    street: '221 Linking Road, Bandra West',
    city: 'Mumbai',
    pincode: '400050',
    gstState: '27',
    gstin: '27AAPFU0939F1ZV',
    phone: '+912226543210',
    phoneShowInInvoice: false,
    email: 'billing@elan.example',
    emailShowInInvoice: false,
  };
  const items = invoice.items.map((item) => ({ ...item, total: add(item.amount, item.igst ?? 0) }));
  const { shippedTo: _, ...rest } = invoice;
  return { ...rest, invoiceNumber: 'INV-0002', igst: true, billedTo, items };
}

/** 9.3: UAE, AED, 5% VAT, a 2% early-payment discount and a courier charge; total 4275.75. */
export function example93(): InvoiceAnswer {
  return {
    ...base('UAE-2021-0007'),
    currency: 'AED',
    locale: 'en-AE',
    taxType: 'UAE',
    billedBy: {
      name: 'Gulf Façade Contracting LLC',
      country: 'AE',
      street: 'Office 1204, Bay Square 3, Business Bay',
      city: 'Dubai',
      trnNumber: '100123456700003',
    },
    billedTo: {
      name: 'Desert Rose Hotels',
      country: 'AE',
      street: 'Al Maryah Island',
      city: 'Abu Dhabi',
      trnNumber: '100987654300003',
      phone: '+97124440000',
      phoneShowInInvoice: false,
      email: 'ap@desertrose.example',
      emailShowInInvoice: true,
    },
    items: [
      {
        name: 'Glass panel installation',
        rate: 1250,
        quantity: 3,
        taxRate: 5,
        subTotal: 3750,
        amount: 3750,
        tax: 187.5,
        total: 3937.5,
        ...vendorShape,
      } as InvoiceItem,
      {
        name: 'Site survey (zero-rated)',
        rate: 400,
        quantity: 1,
        taxRate: 0,
        subTotal: 400,
        amount: 400,
        tax: 0,
        total: 400,
        ...vendorShape,
      } as InvoiceItem,
    ],
    additionalCharges: [
      { label: 'Early payment', type: 'PERCENTAGE', amount: 2, multiplier: -1, appliedAmount: -86.75 },
      { label: 'Courier', type: 'FIXED_AMOUNT', amount: 25, multiplier: 1, appliedAmount: 25 },
    ],
    finalTotal: { subTotal: 4150, amount: 4150, tax: 187.5, discount: 86.75, charges: 25, total: 4275.75 },
  };
}

/** ZATCA phase-1 TLV (3.3), written out plainly here as the test's own reference. */
export function zatcaReference(fields: string[]): string {
  const bytes = fields.flatMap((value, i) => {
    const utf8 = [...Buffer.from(value, 'utf8')];
    return [i + 1, utf8.length, ...utf8];
  });
  return Buffer.from(bytes).toString('base64');
}

export const SAUDI_SELLER_NAME = 'شركة النور للتجارة';

/** A Saudi tax invoice from a seller with an Arabic name, 15% VAT, ar-SA locale, with its ZATCA QR. */
export function saudiInvoice(): InvoiceAnswer {
  return {
    ...base('SA-0042'),
    currency: 'SAR',
    locale: 'ar-SA',
    taxType: 'SAUDI',
    billedBy: {
      name: SAUDI_SELLER_NAME,
      country: 'SA',
      street: 'طريق الملك فهد',
      city: 'Riyadh',
      vatNumber: '300000000000003',
    },
    billedTo: {
      name: 'Red Sea Logistics Co.',
      country: 'SA',
      city: 'Jeddah',
      vatNumber: '311111111111113',
      additionalIds: [{ label: 'CRN', value: '4030000001', showInInvoice: false, useForEInvoice: true }],
    },
    items: [
      {
        name: 'Freight handling',
        rate: 500,
        quantity: 2,
        taxRate: 15,
        subTotal: 1000,
        amount: 1000,
        tax: 150,
        total: 1150,
        ...vendorShape,
      } as InvoiceItem,
    ],
    finalTotal: { subTotal: 1000, amount: 1000, tax: 150, discount: 0, charges: 0, total: 1150 },
    zatcaQr: zatcaReference([SAUDI_SELLER_NAME, '300000000000003', '2021-06-17T18:30:00Z', '1150.00', '150.00']),
  };
}

/** Half away from zero of numerator / denominator (both ≥ 0), in integers. */
const roundDiv = (numerator: bigint, denominator: bigint) => (2n * numerator + denominator) / (2n * denominator);
const money = (minor: bigint) => Number(minorUnitsToDecimal(minor, 2));

/** `count` inter-state items at 18%, every 50th with a long name that wraps (page breaks, bench). */
export function manyItems(count: number): InvoiceAnswer {
  const invoice = example92();
  let amount = 0n;
  let igst = 0n;
  const items = Array.from({ length: count }, (_, i) => {
    const rateMinor = BigInt(((i * 3_719) % 90_000) + 150);
    const quantity = (i % 7) + 1;
    const amountMinor = rateMinor * BigInt(quantity);
    const igstMinor = roundDiv(amountMinor * 18n, 100n);
    amount += amountMinor;
    igst += igstMinor;
    const m = {
      amount: money(amountMinor),
      igst: money(igstMinor),
      cgst: money(roundDiv(amountMinor * 9n, 100n)),
      sgst: money(roundDiv(amountMinor * 9n, 100n)),
    };
    const name =
      i % 50 === 7
        ? `Item ${i + 1}: annual support contract covering installation, configuration, on-site training and two visits`
        : `Item ${i + 1} spare part`;
    return indianItem(name, money(rateMinor), quantity, 18, m, true);
  });
  const finalTotal = {
    subTotal: money(amount),
    amount: money(amount),
    igst: money(igst),
    cgst: 0,
    sgst: 0,
    discount: 0,
    charges: 0,
    total: money(amount + igst),
  };
  return {
    ...invoice,
    invoiceNumber: `INV-${String(count).padStart(4, '0')}`,
    items,
    finalTotal,
    amountDue: finalTotal.total,
  };
}

export const fiveHundredItems = () => manyItems(500);

export function canceledInvoice(): InvoiceAnswer {
  return { ...example91(), invoiceNumber: 'INV-0003', status: 'CANCELED', amountDue: 0 };
}
