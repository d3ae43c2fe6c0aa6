// @module-tag isolated
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceAnswer } from '../../src/documents/invoice-document.types.js';
import { LABELS } from '../../src/documents/invoice.labels.js';
import { createPdfPool, type PdfPool } from '../../src/documents/pdf-pool.js';
import {
  BUYER_KA,
  canceledInvoice,
  example91,
  example92,
  example93,
  fiveHundredItems,
  SAUDI_SELLER_NAME,
  SELLER_IN,
  saudiInvoice,
} from '../helpers/invoice-documents.js';
import { decodeQr, decodeTlv, type ReadPdf, readPdf } from '../helpers/poppler.js';

// 4.7: each worked example rendered through the worker pool, its pages written as PNG to
// .test-artifacts/invoices/ and its text read back with pdftotext, as a reader or an auditor would.

const ZONES: Record<string, string> = { INDIA: 'Asia/Kolkata', UAE: 'Asia/Dubai', SAUDI: 'Asia/Riyadh' };
let pool: PdfPool;

async function rendered(name: string, invoice: InvoiceAnswer): Promise<ReadPdf> {
  const pdf = await pool.render({ invoice, timeZone: ZONES[invoice.taxType] ?? 'UTC' });
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return readPdf(name, pdf);
}

beforeAll(() => {
  pool = createPdfPool({ threads: 1 });
});
afterAll(() => pool.close());

describe('4.7 the invoice PDF shows every particular', () => {
  it('9.1 intra-state: CGST and SGST, state names and codes, words, flags', async () => {
    const { text, pages, pngs } = await rendered('9.1-intra-state', example91());
    expect(pages).toHaveLength(1);
    expect(pngs).toHaveLength(1);
    for (const particular of [
      'TAX INVOICE',
      'Invoice No.: INV-0001',
      'Invoice Date: 18 Jun 2021',
      'Due Date: 18 Jul 2021',
      'Place of Supply: Karnataka (29)',
      'Reverse charge: No',
      'Crème Software Pvt. Ltd.',
      '12, 2nd Cross, Indiranagar',
      `GSTIN: ${SELLER_IN.gstin}`,
      'PAN: AABCC1234F',
      'Zoë Traders',
      '45 MG Road',
      `GSTIN: ${BUYER_KA.gstin}`,
      'State: Karnataka, Code: 29',
      'Shipped To'.toUpperCase(),
      'Zoë Traders Warehouse',
      'Plot 7, KIADB Industrial Area',
      '1 Website maintenance 998314 2 100.00 200.00 9 18.00 9 18.00 236.00',
      '2 Cloud hosting (monthly) 998314 6 200.00 1,200.00 6 72.00 6 72.00 1,344.00',
      'Total (INR) ₹1,580.00',
      'Rupees One Thousand Five Hundred Eighty Only',
      'Payment within 30 days by bank transfer.',
      'For Crème Software Pvt. Ltd.',
      'Authorised Signatory',
      'Udyam Registration Number: UDYAM-KA-01-0000001',
      'Phone: +919812345678',
      'Amounts in INR',
    ]) {
      expect(text, particular).toContain(particular);
    }
    expect(text).toContain('# Item HSN/SAC Qty Rate Taxable Value CGST % CGST SGST % SGST Total');
    expect(text).not.toMatch(/IGST|UTGST|CANCELED/);
    // Flags off: the buyer's e-mail, the seller's phone and its LUT are not printed.
    expect(text).not.toContain('accounts@zoe.example');
    expect(text).not.toContain('+918041234567');
    expect(text).not.toContain('AD290000000001Z');
  });

  it('9.2 inter-state: IGST only, place of supply Maharashtra, no phone or e-mail', async () => {
    const { text } = await rendered('9.2-inter-state', example92());
    expect(text).toContain('Place of Supply: Maharashtra (27)');
    expect(text).toContain('State: Maharashtra, Code: 27');
    expect(text).toContain('1 Website maintenance 998314 2 100.00 200.00 18 36.00 236.00');
    expect(text).toContain('2 Cloud hosting (monthly) 998314 6 200.00 1,200.00 12 144.00 1,344.00');
    expect(text).toMatch(/IGST 180\.00/);
    expect(text).toContain('Total (INR) ₹1,580.00');
    expect(text).not.toMatch(/CGST|SGST/);
    expect(text).not.toMatch(/Phone|Email|\+912226543210|billing@elan\.example/);
  });

  it('UTGST replaces SGST for a place of supply in a union territory without legislature', async () => {
    const invoice = example91();
    const chandigarh = { ...invoice.billedBy, gstState: '04', gstin: undefined };
    const { text } = await rendered('utgst', {
      ...invoice,
      billedBy: chandigarh,
      billedTo: { ...BUYER_KA, gstState: '04' },
    });
    expect(text).toContain('Place of Supply: Chandigarh (04)');
    expect(text).toMatch(/UTGST 90\.00/);
    expect(text).not.toMatch(/\bSGST\b/);
  });

  it('an export: place of supply Outside India', async () => {
    const invoice = example92();
    const buyer = { name: 'Acme GmbH', country: 'DE', city: 'Berlin', vatNumber: 'DE123456789' };
    const { text } = await rendered('export', { ...invoice, billedTo: buyer });
    expect(text).toContain('Place of Supply: Outside India');
    expect(text).toContain('VAT No.: DE123456789');
    expect(text).toContain('Germany');
  });

  it('9.3 UAE: VAT, both charges with their signed amounts, words with the fraction, e-mail by its flag', async () => {
    const { text } = await rendered('9.3-uae-charges', example93());
    for (const particular of [
      'TAX INVOICE',
      'Gulf Façade Contracting LLC',
      'TRN: 100123456700003',
      'TRN: 100987654300003',
      'Invoice Date: 17 Jun 2021',
      '1 Glass panel installation 3 1,250.00 3,750.00 5 187.50 3,937.50',
      'Taxable Value 4,150.00',
      'VAT 187.50',
      'Early payment (2%) -86.75',
      'Courier 25.00',
      'Total (AED) AED 4,275.75',
      'AED Four Thousand Two Hundred Seventy-Five and 75/100 Only',
      'Email: ap@desertrose.example',
    ]) {
      expect(text, particular).toContain(particular);
    }
    expect(text).not.toMatch(/HSN|Place of Supply|Reverse charge|GST|\+97124440000/);
  });

  it('Saudi: the Arabic seller name as text, Arabic-Indic amounts, the buyer e-invoice id, and the ZATCA QR decodes', async () => {
    const invoice = saudiInvoice();
    const { text, logical, pngs } = await rendered('saudi-zatca', invoice);
    expect(logical).toContain(SAUDI_SELLER_NAME);
    for (const particular of [
      'TAX INVOICE',
      'VAT No.: 300000000000003',
      'Commercial Registration Number: 4030000001',
      '١٬١٥٠٫٠٠',
      'SAR One Thousand One Hundred Fifty Only',
    ]) {
      expect(text, particular).toContain(particular);
    }
    const [page] = pngs;
    expect(decodeQr(page as string)).toBe(invoice.zatcaQr);
    expect(decodeTlv(invoice.zatcaQr as string)).toEqual([
      { tag: 1, value: SAUDI_SELLER_NAME },
      { tag: 2, value: '300000000000003' },
      { tag: 3, value: '2021-06-17T18:30:00Z' },
      { tag: 4, value: '1150.00' },
      { tag: 5, value: '150.00' },
    ]);
  });

  it('a canceled invoice is stamped CANCELED on every page and keeps its totals', async () => {
    const { pages } = await rendered('canceled', canceledInvoice());
    for (const page of pages) expect(page).toContain(LABELS.canceled);
    expect(pages.join('\n')).toContain('Total (INR) ₹1,580.00');
  });
});

describe('4.7 a 500-item invoice breaks cleanly across pages', () => {
  it('every row whole on one page, the header repeated, each item once; totals, words and signatory together', async () => {
    const invoice = fiveHundredItems();
    // Rendered in the pool, the 500 items leave this (the server's) event loop free: issue 37 allows 20 ms.
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    const pdf = await pool.render({ invoice, timeZone: 'Asia/Kolkata' });
    loopDelay.disable();
    expect(loopDelay.percentile(99) / 1e6).toBeLessThan(20);
    const { pages } = readPdf('500-items', pdf);
    expect(pages.length).toBeGreaterThan(10);
    const seen: number[] = [];
    pages.forEach((page, index) => {
      expect(page).toContain(`${LABELS.page} ${index + 1} ${LABELS.of} ${pages.length}`);
      if (/\d+ Item \d+/.test(page))
        expect(page, `page ${index + 1} header`).toMatch(/# Item HSN\/SAC Qty Rate Taxable Value IGST % IGST Total/);
      for (const match of page.matchAll(
        /(?:^| )(\d+) Item (\d+)\b.*?998314 (\d) [\d,.]+ [\d,.]+ 18 [\d,.]+ ([\d,.]+)/g,
      )) {
        const [, row, named, , total] = match;
        expect(named).toBe(row);
        const item = invoice.items[Number(row) - 1];
        expect(total, `row ${row}`).toBe(
          new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(item?.total ?? -1),
        );
        seen.push(Number(row));
      }
    });
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    // The totals, the words and the signatory share a page: a signature never stands alone.
    const closing = pages.find((page) => page.includes(LABELS.signatory)) ?? '';
    expect(closing).toContain('Total (INR) ₹10,58,678.81');
    expect(closing).toContain(
      'Rupees Ten Lakh Fifty-Eight Thousand Six Hundred Seventy-Eight and Eighty-One Paise Only',
    );
    expect(pages.at(-1)).toContain('Interest at 18% a year on late payment.');
  });
});
