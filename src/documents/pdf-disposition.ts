import type { AnswerDoc } from '../openapi/operation.js';

/** `inline`, with the invoice number as the file name: ASCII-safe, and in full per RFC 6266 / 5987. */
export function pdfDisposition(invoiceNumber: string): string {
  const ascii = invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `inline; filename="${ascii}.pdf"; filename*=UTF-8''${encodeURIComponent(`${invoiceNumber}.pdf`)}`;
}

/** How a PDF is answered, in the OpenAPI document of every route that serves one. */
export const PDF_ANSWER: AnswerDoc = {
  status: 200,
  description: 'The PDF, shown inline.',
  mediaType: 'application/pdf',
  schema: { type: 'string', format: 'binary' },
  headers: {
    'Content-Disposition': {
      description: '`inline` with the invoice number as the file name.',
      schema: { type: 'string' },
    },
  },
};
