import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

/**
 * A PDF as a reader sees it, through Debian's poppler-utils (installed by scripts/setup.mjs): its pages
 * as PNG files in .test-artifacts/invoices/ (to look at), and its text as pdftotext extracts it.
 */
export const ARTIFACTS = join(process.cwd(), '.test-artifacts', 'invoices');

export interface ReadPdf {
  /**
   * One entry per page in drawing order (pdftotext -raw: the renderer draws in reading order, so a
   * label and its value, or a table row, come out together), all whitespace one space, bidi marks removed.
   */
  pages: string[];
  text: string;
  /** pdftotext's default reading, which puts right-to-left text back in logical order (Arabic names). */
  logical: string;
  pngs: string[];
}

// jsqr is CommonJS typed as an ES default export: under NodeNext the import is its namespace.
const jsQR = jsQRModule as unknown as typeof import('jsqr').default;
const BIDI_MARKS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** One line of words: a wrapped cell's lines come out one after another, so a table row reads as one run. */
function normalise(page: string): string {
  return page.replace(BIDI_MARKS, '').replace(/\s+/g, ' ').trim();
}

export function readPdf(name: string, pdf: Buffer, dpi = 100): ReadPdf {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const old of readdirSync(ARTIFACTS).filter((file) => file.startsWith(`${name}-`) || file === `${name}.pdf`)) {
    rmSync(join(ARTIFACTS, old));
  }
  const file = join(ARTIFACTS, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-png', file, join(ARTIFACTS, name)]);
  const text = (mode: string[]) =>
    execFileSync('pdftotext', [...mode, '-enc', 'UTF-8', file, '-'], { maxBuffer: 1 << 26 }).toString('utf8');
  const pages = text(['-raw'])
    .split('\f')
    .filter((page) => page.trim() !== '')
    .map(normalise);
  const pngs = readdirSync(ARTIFACTS)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))
    .sort()
    .map((f) => join(ARTIFACTS, f));
  return { pages, text: pages.join('\n'), logical: normalise(text([])), pngs };
}

/** The text of the first QR code found on a rendered page, or null. */
export function decodeQr(pngFile: string): string | null {
  const png = PNG.sync.read(readFileSync(pngFile));
  const found = jsQR(
    new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength),
    png.width,
    png.height,
  );
  return found ? found.data : null;
}

/** ZATCA TLV records (3.3): tag, length, UTF-8 value. */
export function decodeTlv(base64: string): { tag: number; value: string }[] {
  const bytes = Buffer.from(base64, 'base64');
  const records: { tag: number; value: string }[] = [];
  for (let i = 0; i < bytes.length; ) {
    const tag = bytes[i] ?? 0;
    const length = bytes[i + 1] ?? 0;
    records.push({ tag, value: bytes.subarray(i + 2, i + 2 + length).toString('utf8') });
    i += 2 + length;
  }
  return records;
}
