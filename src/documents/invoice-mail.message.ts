import type { MailRecipients } from '../storage/invoice-mail.store.js';
import type { InvoiceAnswer } from './invoice-document.types.js';
import { escapeHtml as h } from './invoice.html.js';
import { formatDate, moneyFormat } from './locale-format.js';

/** What nodemailer sends for one invoice: built here, purely, from the invoice as GET answers it. */
export interface InvoiceMessage {
  from: string;
  to: { name: string; address: string };
  cc: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per invoice: a mail sent again after a lost claim (a crash mid-send) reads as the same message. */
  messageId: string;
  attachments: { filename: string; content: Buffer; contentType: 'application/pdf' }[];
}

export interface MessageContext {
  /** MAIL_FROM: a bare address is shown under the seller's name. */
  mailFrom: string;
  /** The host of PUBLIC_URL, the right-hand side of the Message-ID. */
  publicHost: string;
  timeZone: string;
}

/** The invoice number as a file name: nodemailer encodes any text (RFC 2231), but a path separator is no name. */
const pdfFileName = (invoiceNumber: string) => `${invoiceNumber.replace(/[/\\]/g, '-')}.pdf`;

/** A bare address from MAIL_FROM gets the seller's name as its display name; `Name <address>` is kept. */
function fromOf(mailFrom: string, seller: string): string {
  if (mailFrom.includes('<')) return mailFrom;
  return `"${seller.replace(/["\\\r\n]/g, ' ')}" <${mailFrom}>`;
}

/**
 * The mail of invoices-interface 4.1's `email`: to and cc as sent, the seller and number in the subject,
 * a short text and HTML body with the amount, dates and the share link, and the PDF attached. Replies go
 * to the seller's e-mail when the invoice has one. Text from the invoice is escaped in the HTML.
 */
export function invoiceMessage(
  invoice: InvoiceAnswer & { _id: string },
  recipients: MailRecipients,
  pdf: Buffer,
  context: MessageContext,
): InvoiceMessage {
  const seller = invoice.billedBy.name;
  const link = invoice.share?.link ?? '';
  const total = moneyFormat(invoice.currency, invoice.locale).money(invoice.finalTotal.total);
  const date = formatDate(invoice.invoiceDate, invoice.locale, context.timeZone);
  const due = invoice.dueDate ? formatDate(invoice.dueDate, invoice.locale, context.timeZone) : null;
  const greeting = recipients.to.name ? `Dear ${recipients.to.name},` : 'Hello,';
  const summary = `${seller} has sent you invoice ${invoice.invoiceNumber} of ${date} for ${total}${due ? `, due on ${due}` : ''}.`;
  const text = [greeting, '', summary, '', `View it online: ${link}`, '', 'The invoice is attached as a PDF.', ''].join(
    '\n',
  );
  const html = [
    `<p>${h(greeting)}</p>`,
    `<p>${h(summary)}</p>`,
    `<p><a href="${h(link)}">View invoice ${h(invoice.invoiceNumber)} online</a></p>`,
    '<p>The invoice is attached as a PDF.</p>',
  ].join('\n');
  return {
    from: fromOf(context.mailFrom, seller),
    to: { name: recipients.to.name ?? '', address: recipients.to.email },
    cc: recipients.cc,
    ...(invoice.billedBy.email && { replyTo: invoice.billedBy.email }),
    subject: `Invoice ${invoice.invoiceNumber} from ${seller}`,
    text,
    html: `<!doctype html><html><body>\n${html}\n</body></html>`,
    messageId: `<invoice-${invoice._id}@${context.publicHost}>`,
    attachments: [{ filename: pdfFileName(invoice.invoiceNumber), content: pdf, contentType: 'application/pdf' }],
  };
}
