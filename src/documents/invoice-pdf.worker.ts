import { renderInvoicePdf } from './invoice.pdf.js';
import type { InvoiceDocumentInput } from './invoice-document.types.js';

/**
 * A pool worker (pdf-pool.ts): renders one invoice PDF off the server's event loop. The bytes go back
 * in their own ArrayBuffer, transferred rather than copied.
 */
export default async function renderInWorker(input: InvoiceDocumentInput): Promise<Uint8Array> {
  const pdf = await renderInvoicePdf(input);
  return new Uint8Array(pdf);
}
