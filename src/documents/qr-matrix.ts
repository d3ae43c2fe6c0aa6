import QRCode from 'qrcode';

/**
 * The modules of a QR code (the `qrcode` package), for the PDF (vector squares) and the share page (SVG)
 * alike. Error correction M keeps the ZATCA payload (3.3) small enough for a 25 mm code.
 */
export interface QrMatrix {
  size: number;
  dark(row: number, column: number): boolean;
}

/** The quiet zone the standard asks for around the symbol, in modules. */
export const QUIET_ZONE = 4;

export function qrMatrix(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, column) => modules.get(row, column) === 1 };
}

/** The code as an SVG image whose squares are one user unit each, quiet zone included. */
export function qrSvg(text: string, label: string): string {
  const matrix = qrMatrix(text);
  const extent = matrix.size + 2 * QUIET_ZONE;
  const squares: string[] = [];
  for (let row = 0; row < matrix.size; row += 1) {
    for (let column = 0; column < matrix.size; column += 1) {
      if (matrix.dark(row, column)) squares.push(`M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${extent} ${extent}" role="img" aria-label="${label}" shape-rendering="crispEdges"><rect width="${extent}" height="${extent}" fill="#fff"/><path d="${squares.join('')}" fill="#000"/></svg>`;
}
