import { QUIET_ZONE, qrMatrix } from '../qr-matrix.js';

/** A QR code drawn as vector squares (sharp at any zoom, no image codec), quiet zone included. */
export function drawQr(doc: PDFKit.PDFDocument, text: string, box: { x: number; y: number; size: number }): void {
  const matrix = qrMatrix(text);
  const cell = box.size / (matrix.size + 2 * QUIET_ZONE);
  doc.rect(box.x, box.y, box.size, box.size).fill('#ffffff');
  for (let row = 0; row < matrix.size; row += 1) {
    for (let column = 0; column < matrix.size; column += 1) {
      if (matrix.dark(row, column))
        doc.rect(box.x + (column + QUIET_ZONE) * cell, box.y + (row + QUIET_ZONE) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
}
