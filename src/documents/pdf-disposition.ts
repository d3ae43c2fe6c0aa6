/** `inline`, with the invoice number as the file name: ASCII-safe, and in full per RFC 6266 / 5987. */
export function pdfDisposition(invoiceNumber: string): string {
  const ascii = invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `inline; filename="${ascii}.pdf"; filename*=UTF-8''${encodeURIComponent(`${invoiceNumber}.pdf`)}`;
}
