import { describe, expect, it } from 'vitest';
import { escapeHtml, renderInvoiceHtml } from '../../src/documents/invoice.html.js';
import type { InvoiceAnswer } from '../../src/documents/invoice-document.types.js';
import { LABELS } from '../../src/documents/invoice.labels.js';
import {
  canceledInvoice,
  example91,
  example93,
  SAUDI_SELLER_NAME,
  saudiInvoice,
} from '../helpers/invoice-documents.js';

// 2.7, 4.7: the share page shows the PDF's content, links the PDF, and escapes everything it prints.

const page = (invoice: InvoiceAnswer, pdfHref = '/share/invoices/tok/pdf') =>
  renderInvoiceHtml({ invoice, timeZone: invoice.taxType === 'INDIA' ? 'Asia/Kolkata' : 'Asia/Dubai' }, { pdfHref });

/** The page as a reader sees its words: tags dropped, the five entities decoded, whitespace collapsed. */
const visibleText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(
      /&lt;|&gt;|&quot;|&#39;|&amp;/g,
      (entity) => ({ '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' })[entity] ?? entity,
    )
    .replace(/\s+/g, ' ');

const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'nav',
  'a',
  'main',
  'header',
  'div',
  'h1',
  'h2',
  'h3',
  'p',
  'dl',
  'dt',
  'dd',
  'section',
  'article',
  'span',
  'bdi',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'strong',
  'br',
  'ul',
  'li',
  'svg',
  'rect',
  'path',
]);

describe('the invoice share page (pure renderer)', () => {
  it('9.1: the particulars of 4.7, formatted as the PDF formats them, and the PDF link', () => {
    const html = page(example91());
    const text = visibleText(html);
    for (const particular of [
      'TAX INVOICE',
      'Invoice No.: INV-0001',
      'Invoice Date: 18 Jun 2021',
      'Place of Supply: Karnataka (29)',
      'Reverse charge: No',
      'Crème Software Pvt. Ltd.',
      'Zoë Traders',
      'State: Karnataka, Code: 29',
      'Zoë Traders Warehouse',
      'Website maintenance',
      '998314',
      '1,200.00',
      'CGST',
      'SGST',
      'Total (INR) ₹1,580.00',
      'Rupees One Thousand Five Hundred Eighty Only',
      'Authorised Signatory',
      'Payment within 30 days by bank transfer.',
      'Phone: +919812345678',
    ]) {
      expect(text, particular).toContain(particular);
    }
    expect(text).not.toContain('accounts@zoe.example');
    expect(text).not.toContain(LABELS.canceled);
    expect(html).toContain('<a href="/share/invoices/tok/pdf">Download PDF</a>');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });

  it('9.3: charges and the e-mail shown by its flag; a canceled invoice carries the stamp', () => {
    const text = visibleText(page(example93()));
    expect(text).toContain('Early payment (2%) -86.75');
    expect(text).toContain('Total (AED) AED 4,275.75');
    expect(text).toContain('Email: ap@desertrose.example');
    expect(visibleText(page(canceledInvoice()))).toContain(LABELS.canceled);
  });

  it('Saudi: the Arabic seller name isolated for bidi, and the ZATCA QR as an inline SVG', () => {
    const html = page(saudiInvoice());
    expect(html).toContain(`<bdi>${SAUDI_SELLER_NAME}</bdi>`);
    expect(html).toMatch(/<svg [^>]*aria-label="ZATCA QR code"[^>]*>.*<path d="M\d/);
  });

  it('hostile names, terms and links are escaped: no tag or attribute comes from the invoice', () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(1)>\'&</style>';
    const invoice = example91();
    const attacked: InvoiceAnswer = {
      ...invoice,
      invoiceNumber: hostile,
      billedBy: { ...invoice.billedBy, name: hostile, street: hostile },
      billedTo: { ...invoice.billedTo, name: hostile, city: hostile },
      items: invoice.items.map((item) => ({ ...item, name: hostile })),
      terms: [{ label: hostile, terms: [hostile] }],
    };
    const html = page(attacked, '/share/invoices/x"onmouseover="alert(1)/pdf');
    const tags = new Set(
      [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => (match[1] ?? '').toLowerCase()),
    );
    expect([...tags].filter((tag) => !ALLOWED_TAGS.has(tag))).toEqual([]);
    // The attack text stays as text: its brackets and quotes are entities, so it opens no tag or attribute.
    expect(html).not.toMatch(/<script|<img|onmouseover="/i);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(visibleText(html)).toContain(hostile);
  });

  it('escapeHtml escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
