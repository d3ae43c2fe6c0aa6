import { describe, expect, it } from 'vitest';
import { invoiceMessage } from '../../src/documents/invoice-mail.message.js';
import { example91 } from '../helpers/invoice-documents.js';

const pdf = Buffer.from('%PDF-1.7 test');
const context = { mailFrom: 'billing@crmkit.test', publicHost: 'crm.example.com', timeZone: 'Asia/Kolkata' };
const invoice = (overrides: Record<string, unknown> = {}) => ({
  ...example91(),
  _id: '0123456789abcdef01234567',
  share: { link: 'https://crm.example.com/share/invoices/tok' },
  ...overrides,
});
const recipients = { to: { name: 'Asha Rao', email: 'asha@buyer.test' }, cc: ['owner@buyer.test'] };

describe('the invoice mail message (docs/invoice-documents.md "E-mail")', () => {
  it('subject, From under the seller name, amount in the locale, share link, the PDF attached', () => {
    const message = invoiceMessage(invoice(), recipients, pdf, context);
    expect(message.subject).toBe('Invoice INV-0001 from Crème Software Pvt. Ltd.');
    expect(message.from).toBe('"Crème Software Pvt. Ltd." <billing@crmkit.test>');
    expect(message.to).toEqual({ name: 'Asha Rao', address: 'asha@buyer.test' });
    expect(message.cc).toEqual(['owner@buyer.test']);
    expect(message.text).toContain('Dear Asha Rao,');
    expect(message.text).toContain('₹1,580.00');
    expect(message.text).toContain('View it online: https://crm.example.com/share/invoices/tok');
    expect(message.html).toContain('href="https://crm.example.com/share/invoices/tok"');
    expect(message.messageId).toBe('<invoice-0123456789abcdef01234567@crm.example.com>');
    expect(message.attachments).toEqual([{ filename: 'INV-0001.pdf', content: pdf, contentType: 'application/pdf' }]);
    expect(message.replyTo).toBeUndefined();
  });

  it('a MAIL_FROM with its own name is kept; replies go to the seller e-mail; a number with a slash is a file name', () => {
    const seller = { ...example91().billedBy, email: 'accounts@creme.example' };
    const message = invoiceMessage(
      invoice({ billedBy: seller, invoiceNumber: '2024/ABC-07' }),
      { to: { email: 'asha@buyer.test' }, cc: [] },
      pdf,
      { ...context, mailFrom: 'Crmkit Billing <billing@crmkit.test>' },
    );
    expect(message.from).toBe('Crmkit Billing <billing@crmkit.test>');
    expect(message.replyTo).toBe('accounts@creme.example');
    expect(message.text.startsWith('Hello,')).toBe(true);
    expect(message.attachments[0]!.filename).toBe('2024-ABC-07.pdf');
  });

  it('text from the invoice is escaped in the HTML, and a quote in the seller name cannot break the From', () => {
    const seller = { ...example91().billedBy, name: 'Evil "Co" <script>alert(1)</script>' };
    const message = invoiceMessage(invoice({ billedBy: seller }), recipients, pdf, context);
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;');
    expect(message.from).toBe('"Evil  Co  <script>alert(1)</script>" <billing@crmkit.test>');
  });
});
