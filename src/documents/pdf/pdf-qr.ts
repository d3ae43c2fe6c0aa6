import QRCode from 'qrcode';

/**
 * A QR code drawn as vector squares (sharp at any zoom, no image codec), with the 4-module quiet zone
 * the standard asks for. Error correction M: the ZATCA payload stays small enough for a 25 mm code.
 */
export function drawQr(doc: PDFKit.PDFDocument, text: string, box: { x: number; y: number; size: number }): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size + 8;
  const cell = box.size / count;
  doc.rect(box.x, box.y, box.size, box.size).fill('#ffffff');
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) doc.rect(box.x + (column + 4) * cell, box.y + (row + 4) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
}
