import PDFDocument from 'pdfkit';
import type { InvoiceDocumentInput } from './invoice-document.types.js';
import { type InvoiceContent, invoiceContent } from './invoice.content.js';
import { LABELS } from './invoice.labels.js';
import {
  closingHeight,
  drawClosing,
  drawParties,
  drawTerms,
  drawTitleBlock,
  drawTotals,
  totalsHeight,
} from './pdf/pdf-blocks.js';
import { registerFonts } from './pdf/pdf-fonts.js';
import { COLORS, CONTENT_WIDTH, Cursor, drawTable, PAGE, tableHeight } from './pdf/pdf-layout.js';
import { drawLine } from './pdf/pdf-text.js';

/**
 * The invoice PDF (invoices-interface 4.7) with pdfkit (docs/decisions.md says why): A4, embedded Noto
 * fonts, extractable text. A pure function of the invoice answer and the business's time zone; it runs
 * in the worker pool (pdf-pool.ts), never on the server's event loop.
 */

function continuationHeader(content: InvoiceContent) {
  return (doc: PDFKit.PDFDocument, y: number): number => {
    const text = `${content.title} · ${content.invoiceNumber}`;
    drawLine(
      doc,
      text,
      { x: PAGE.margin, y, width: CONTENT_WIDTH },
      { size: 8.5, weight: 'bold', color: COLORS.muted },
    );
    return 20;
  };
}

/** Tax summary on the left, totals on the right, on one page together with the words and signatory. */
function drawSummaryAndTotals(cursor: Cursor, content: InvoiceContent): void {
  const summaryWidth = content.taxSummary ? CONTENT_WIDTH * 0.56 : 0;
  const totalsWidth = CONTENT_WIDTH * 0.4;
  const summaryHeight = content.taxSummary ? tableHeight(cursor.doc, content.taxSummary, summaryWidth) + 14 : 0;
  cursor.ensure(Math.max(summaryHeight, totalsHeight(content)) + 14 + closingHeight(cursor.doc, content));
  const top = cursor.y;
  drawTotals(cursor, content, { x: PAGE.margin + CONTENT_WIDTH - totalsWidth, y: top, width: totalsWidth });
  if (content.taxSummary) {
    drawLine(
      cursor.doc,
      LABELS.taxSummary,
      { x: PAGE.margin, y: top, width: summaryWidth },
      { size: 8.5, weight: 'bold' },
    );
    cursor.y = top + 14;
    drawTable(cursor, content.taxSummary, { x: PAGE.margin, width: summaryWidth });
  }
  cursor.y = Math.max(cursor.y, top + totalsHeight(content)) + 14;
}

/** After layout, on every page: the CANCELED stamp when canceled, and `<number> · Page n of m`. */
function finishPages(doc: PDFKit.PDFDocument, content: InvoiceContent): void {
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page += 1) {
    doc.switchToPage(page);
    if (content.canceled) {
      doc
        .save()
        .rotate(-30, { origin: [PAGE.width / 2, PAGE.height / 2] })
        .fillOpacity(0.22);
      const box = { x: 0, y: PAGE.height / 2 - 50, width: PAGE.width };
      drawLine(doc, LABELS.canceled, box, { size: 96, weight: 'bold', color: COLORS.stamp }, 'center');
      doc.restore();
    }
    const footer = `${content.invoiceNumber} · ${LABELS.page} ${page - start + 1} ${LABELS.of} ${count}`;
    const y = PAGE.height - PAGE.margin - 8;
    drawLine(
      doc,
      footer,
      { x: PAGE.margin, y, width: CONTENT_WIDTH },
      { size: 7.5, weight: 'regular', color: COLORS.muted },
      'center',
    );
  }
}

function drawInvoice(doc: PDFKit.PDFDocument, content: InvoiceContent): void {
  const cursor = new Cursor(doc, continuationHeader(content));
  drawTitleBlock(cursor, content);
  drawParties(cursor, content.parties);
  drawLine(
    doc,
    content.amountsIn,
    { x: PAGE.margin, y: cursor.y, width: CONTENT_WIDTH },
    { size: 7.5, weight: 'regular', color: COLORS.muted },
    'right',
  );
  cursor.y += 12;
  drawTable(cursor, content.items, { x: PAGE.margin, width: CONTENT_WIDTH });
  cursor.y += 14;
  drawSummaryAndTotals(cursor, content);
  drawClosing(cursor, content);
  drawTerms(cursor, content);
  finishPages(doc, content);
}

/** The PDF bytes of one invoice. */
export function renderInvoicePdf(input: InvoiceDocumentInput): Promise<Buffer> {
  const content = invoiceContent(input);
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: `${content.title} ${content.invoiceNumber}`, Author: input.invoice.billedBy.name },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawInvoice(doc, content);
  doc.end();
  return done;
}
