import type { InvoiceContent } from '../invoice.content.js';
import { LABELS } from '../invoice.labels.js';
import type { PartyBlock } from '../invoice.parties.js';
import { COLORS, CONTENT_WIDTH, type Cursor, PAGE } from './pdf-layout.js';
import { drawQr } from './pdf-qr.js';
import { drawLine, type TextStyle, wrapText } from './pdf-text.js';

/** The invoice's blocks above and below the item table, each placed at the cursor and kept whole. */

const LINE = 1.35;
const QR_SIZE = 92;
const FACTS_WIDTH = 230;

interface Paragraph {
  lines: string[];
  style: TextStyle;
}

const heightOf = (paragraphs: Paragraph[]) =>
  paragraphs.reduce((sum, p) => sum + p.lines.length * p.style.size * LINE, 0);

function drawParagraphs(
  doc: PDFKit.PDFDocument,
  paragraphs: Paragraph[],
  box: { x: number; y: number; width: number },
  align: 'left' | 'right' = 'left',
): void {
  let y = box.y;
  for (const paragraph of paragraphs) {
    for (const line of paragraph.lines) {
      drawLine(doc, line, { x: box.x, y, width: box.width }, paragraph.style, align);
      y += paragraph.style.size * LINE;
    }
  }
}

function drawFacts(cursor: Cursor, content: InvoiceContent, right: number): number {
  const x = right - FACTS_WIDTH;
  const labelWidth = 90;
  let y = cursor.y + 4;
  for (const [label, value] of content.facts) {
    const lines = wrapText(cursor.doc, value, FACTS_WIDTH - labelWidth, { size: 8.5, weight: 'bold' });
    drawLine(
      cursor.doc,
      `${label}:`,
      { x, y, width: labelWidth },
      { size: 8.5, weight: 'regular', color: COLORS.muted },
    );
    drawParagraphs(
      cursor.doc,
      [{ lines, style: { size: 8.5, weight: 'bold' } }],
      { x: x + labelWidth, y, width: FACTS_WIDTH - labelWidth },
      'right',
    );
    y += lines.length * 8.5 * LINE + 2;
  }
  return y - cursor.y;
}

/** Title (and subtitle) on the left; number, dates, place of supply on the right; the ZATCA QR beside them. */
export function drawTitleBlock(cursor: Cursor, content: InvoiceContent): void {
  const { doc } = cursor;
  const right = PAGE.margin + CONTENT_WIDTH - (content.zatcaQr ? QR_SIZE + 8 : 0);
  const titleWidth = right - FACTS_WIDTH - PAGE.margin - 10;
  const title: Paragraph[] = [
    {
      lines: wrapText(doc, content.title, titleWidth, { size: 20, weight: 'bold' }),
      style: { size: 20, weight: 'bold', color: COLORS.accent },
    },
  ];
  if (content.subTitle)
    title.push({
      lines: wrapText(doc, content.subTitle, titleWidth, { size: 10, weight: 'regular' }),
      style: { size: 10, weight: 'regular', color: COLORS.muted },
    });
  drawParagraphs(doc, title, { x: PAGE.margin, y: cursor.y, width: titleWidth });
  const factsHeight = drawFacts(cursor, content, right);
  if (content.zatcaQr)
    drawQr(doc, content.zatcaQr, { x: PAGE.margin + CONTENT_WIDTH - QR_SIZE, y: cursor.y, size: QR_SIZE });
  cursor.y += Math.max(heightOf(title), factsHeight, content.zatcaQr ? QR_SIZE : 0) + 14;
}

function partyParagraphs(doc: PDFKit.PDFDocument, party: PartyBlock, width: number): Paragraph[] {
  const wrap = (text: string, style: TextStyle) => wrapText(doc, text, width, style);
  const body: TextStyle = { size: 8.5, weight: 'regular' };
  return [
    { lines: [party.heading.toUpperCase()], style: { size: 7.5, weight: 'bold', color: COLORS.muted } },
    { lines: wrap(party.name, { size: 10.5, weight: 'bold' }), style: { size: 10.5, weight: 'bold' } },
    { lines: party.lines.flatMap((line) => wrap(line, body)), style: body },
  ];
}

/** Seller, buyer (and shipping address) side by side in shaded boxes of one height. */
export function drawParties(cursor: Cursor, parties: PartyBlock[]): void {
  const gap = 10;
  const pad = 8;
  const width = (CONTENT_WIDTH - gap * (parties.length - 1)) / parties.length;
  const blocks = parties.map((party) => partyParagraphs(cursor.doc, party, width - 2 * pad));
  const height = Math.max(...blocks.map(heightOf)) + 2 * pad;
  cursor.ensure(height);
  blocks.forEach((paragraphs, i) => {
    const x = PAGE.margin + i * (width + gap);
    cursor.doc.roundedRect(x, cursor.y, width, height, 4).fill(COLORS.band);
    drawParagraphs(cursor.doc, paragraphs, { x: x + pad, y: cursor.y + pad, width: width - 2 * pad });
  });
  cursor.y += height + 12;
}

/** Taxable value, taxes, charges, the total (shaded) and what is paid and due, labels left, amounts right. */
export function totalsHeight(content: InvoiceContent): number {
  return content.totals.length * 16 + 4;
}

export function drawTotals(
  cursor: Cursor,
  content: InvoiceContent,
  box: { x: number; y: number; width: number },
): void {
  let y = box.y;
  for (const row of content.totals) {
    const style: TextStyle = row.strong ? { size: 10.5, weight: 'bold' } : { size: 8.5, weight: 'regular' };
    if (row.strong) cursor.doc.rect(box.x, y - 1, box.width, 18).fill(COLORS.band);
    const inner = { x: box.x + 6, y: y + 3, width: box.width - 12 };
    drawLine(
      cursor.doc,
      row.label,
      { ...inner, width: inner.width * 0.55 },
      { ...style, color: row.strong ? COLORS.ink : COLORS.muted },
    );
    drawLine(cursor.doc, row.value, inner, style, 'right');
    y += 16;
  }
}

function wordsParagraphs(doc: PDFKit.PDFDocument, content: InvoiceContent): Paragraph[] {
  return [
    { lines: [`${LABELS.inWords}:`], style: { size: 7.5, weight: 'bold', color: COLORS.muted } },
    {
      lines: wrapText(doc, content.words, CONTENT_WIDTH, { size: 9, weight: 'bold' }),
      style: { size: 9, weight: 'bold' },
    },
  ];
}

const SIGNATORY_WIDTH = 210;
const signatoryLines = (doc: PDFKit.PDFDocument, content: InvoiceContent) =>
  wrapText(doc, content.signatory.forLine, SIGNATORY_WIDTH, { size: 9, weight: 'bold' });

/** Words and signatory: kept on the page of the totals, so a signature never stands alone on a page. */
export function closingHeight(doc: PDFKit.PDFDocument, content: InvoiceContent): number {
  return heightOf(wordsParagraphs(doc, content)) + 12 + signatoryLines(doc, content).length * 9 * LINE + 60;
}

/** The total in words, then "For <seller>", room to sign, a rule and `Authorised Signatory` at the right. */
export function drawClosing(cursor: Cursor, content: InvoiceContent): void {
  const { doc } = cursor;
  const words = wordsParagraphs(doc, content);
  cursor.ensure(closingHeight(doc, content));
  drawParagraphs(doc, words, { x: PAGE.margin, y: cursor.y, width: CONTENT_WIDTH });
  cursor.y += heightOf(words) + 22;
  const x = PAGE.margin + CONTENT_WIDTH - SIGNATORY_WIDTH;
  const forLines = signatoryLines(doc, content);
  drawParagraphs(
    doc,
    [{ lines: forLines, style: { size: 9, weight: 'bold' } }],
    { x, y: cursor.y, width: SIGNATORY_WIDTH },
    'right',
  );
  const ruleY = cursor.y + forLines.length * 9 * LINE + 36;
  doc
    .moveTo(x + 40, ruleY)
    .lineTo(x + SIGNATORY_WIDTH, ruleY)
    .lineWidth(0.5)
    .stroke(COLORS.rule);
  drawLine(
    doc,
    content.signatory.label,
    { x, y: ruleY + 3, width: SIGNATORY_WIDTH },
    { size: 8.5, weight: 'regular' },
    'right',
  );
  cursor.y = ruleY + 3 + 8.5 * LINE + 14;
}

/** The terms, line by line, so a long list continues on the next page without cutting a line. */
export function drawTerms(cursor: Cursor, content: InvoiceContent): void {
  const { doc } = cursor;
  const body: TextStyle = { size: 8, weight: 'regular' };
  if (content.terms.length > 0) {
    cursor.ensure(2 * 8.5 * LINE);
    drawLine(
      doc,
      LABELS.terms,
      { x: PAGE.margin, y: cursor.y, width: CONTENT_WIDTH },
      { size: 7.5, weight: 'bold', color: COLORS.muted },
    );
    cursor.y += 7.5 * LINE + 4;
  }
  for (const group of content.terms) {
    cursor.ensure(2 * 8.5 * LINE + 4);
    drawLine(doc, group.label, { x: PAGE.margin, y: cursor.y, width: CONTENT_WIDTH }, { size: 8.5, weight: 'bold' });
    cursor.y += 8.5 * LINE + 2;
    for (const line of group.lines.flatMap((term) => wrapText(doc, `• ${term}`, CONTENT_WIDTH, body))) {
      cursor.ensure(8 * LINE);
      drawLine(doc, line, { x: PAGE.margin, y: cursor.y, width: CONTENT_WIDTH }, body);
      cursor.y += 8 * LINE;
    }
    cursor.y += 6;
  }
}
