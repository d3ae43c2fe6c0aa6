import type { ColumnKind, ContentTable } from '../invoice.items.js';
import { type Align, drawLine, type TextStyle, wrapText } from './pdf-text.js';

/**
 * Page geometry and the two layout primitives an invoice needs: a cursor that starts a new page when a
 * block would not fit (never cutting it), and a table whose rows move whole to the next page, where the
 * header row is drawn again.
 */

export const PAGE = { width: 595.28, height: 841.89, margin: 36, footer: 22 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
export const COLORS = {
  ink: '#1f2937',
  muted: '#6b7280',
  accent: '#1e3a8a',
  rule: '#d1d5db',
  band: '#eef2f7',
  stamp: '#b91c1c',
};

export class Cursor {
  y: number = PAGE.margin;
  constructor(
    readonly doc: PDFKit.PDFDocument,
    /** Draws what every continuation page starts with; returns its height. */
    private readonly continuation: (doc: PDFKit.PDFDocument, y: number) => number,
  ) {}

  get bottom(): number {
    return PAGE.height - PAGE.margin - PAGE.footer;
  }

  /** Starts a new page unless `height` more points fit on this one; true when it did. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.doc.addPage();
    this.y = PAGE.margin;
    this.y += this.continuation(this.doc, this.y);
    return true;
  }
}

const KIND_WIDTH: Record<Exclude<ColumnKind, 'text'>, number> = {
  index: 24,
  code: 44,
  quantity: 36,
  percent: 30,
  money: 54,
};
const KIND_ALIGN: Record<ColumnKind, Align> = {
  index: 'left',
  text: 'left',
  code: 'left',
  quantity: 'right',
  percent: 'right',
  money: 'right',
};
const CELL = { padX: 4, padY: 4, size: 7.5, leading: 1.35 };

/** Fixed widths for every kind but text; text columns share what is left of the table's width. */
export function columnWidths(table: ContentTable, width: number): number[] {
  const fixed = table.columns.reduce((sum, column) => sum + (column.kind === 'text' ? 0 : KIND_WIDTH[column.kind]), 0);
  const textColumns = table.columns.filter((column) => column.kind === 'text').length;
  const share = textColumns === 0 ? 0 : (width - fixed) / textColumns;
  const widths = table.columns.map((column) => (column.kind === 'text' ? share : KIND_WIDTH[column.kind]));
  // Without a text column the table stretches every column alike to its width.
  return textColumns === 0 ? widths.map((w) => (w * width) / fixed) : widths;
}

interface RowLayout {
  lines: string[][];
  height: number;
}

function layoutRow(doc: PDFKit.PDFDocument, cells: string[], widths: number[], style: TextStyle): RowLayout {
  const lines = cells.map((cell, i) => wrapText(doc, cell, (widths[i] ?? 0) - 2 * CELL.padX, style));
  const count = Math.max(1, ...lines.map((cellLines) => cellLines.length));
  return { lines, height: count * style.size * CELL.leading + 2 * CELL.padY };
}

function drawRow(
  doc: PDFKit.PDFDocument,
  table: ContentTable,
  row: RowLayout,
  at: { x: number; y: number },
  widths: number[],
  style: TextStyle,
): void {
  let x = at.x;
  row.lines.forEach((cellLines, i) => {
    const width = widths[i] ?? 0;
    const align = KIND_ALIGN[table.columns[i]?.kind ?? 'text'];
    cellLines.forEach((line, n) => {
      const box = {
        x: x + CELL.padX,
        y: at.y + CELL.padY + n * style.size * CELL.leading,
        width: width - 2 * CELL.padX,
      };
      drawLine(doc, line, box, style, align);
    });
    x += width;
  });
}

function drawHeader(cursor: Cursor, table: ContentTable, x: number, widths: number[]): void {
  const style: TextStyle = { size: CELL.size, weight: 'bold', color: COLORS.accent };
  const header = layoutRow(
    cursor.doc,
    table.columns.map((column) => column.header),
    widths,
    style,
  );
  const total = widths.reduce((a, b) => a + b, 0);
  cursor.doc.rect(x, cursor.y, total, header.height).fill(COLORS.band);
  drawRow(cursor.doc, table, header, { x, y: cursor.y }, widths, style);
  cursor.y += header.height;
}

/** A table at the cursor: the header, then rows that never split; a row that does not fit opens a page. */
export function drawTable(cursor: Cursor, table: ContentTable, box: { x: number; width: number }): void {
  const widths = columnWidths(table, box.width);
  const body: TextStyle = { size: CELL.size, weight: 'regular' };
  const first = layoutRow(cursor.doc, table.rows[0] ?? [], widths, body);
  cursor.ensure(3 * CELL.size * CELL.leading + first.height);
  drawHeader(cursor, table, box.x, widths);
  const rows = table.footer ? [...table.rows, table.footer] : table.rows;
  rows.forEach((cells, index) => {
    const isFooter = table.footer !== null && index === rows.length - 1;
    const style: TextStyle = isFooter ? { ...body, weight: 'bold' } : body;
    const row = layoutRow(cursor.doc, cells, widths, style);
    if (cursor.ensure(row.height)) drawHeader(cursor, table, box.x, widths);
    drawRow(cursor.doc, table, row, { x: box.x, y: cursor.y }, widths, style);
    cursor.y += row.height;
    cursor.doc
      .moveTo(box.x, cursor.y)
      .lineTo(box.x + box.width, cursor.y)
      .lineWidth(0.5)
      .stroke(COLORS.rule);
  });
}

/** The height drawTable will take when nothing breaks (to keep side-by-side blocks on one page). */
export function tableHeight(doc: PDFKit.PDFDocument, table: ContentTable, width: number): number {
  const widths = columnWidths(table, width);
  const header = layoutRow(
    doc,
    table.columns.map((column) => column.header),
    widths,
    { size: CELL.size, weight: 'bold' },
  );
  const rows = table.footer ? [...table.rows, table.footer] : table.rows;
  return rows.reduce(
    (sum, cells) => sum + layoutRow(doc, cells, widths, { size: CELL.size, weight: 'bold' }).height,
    header.height,
  );
}
