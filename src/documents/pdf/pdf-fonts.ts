import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// fontkit (pdfkit's own font engine) ships no types; pdfkit takes its Font objects as font sources.
// @ts-expect-error no declaration file
import { create as createFont } from 'fontkit';

/**
 * The fonts every PDF embeds (subset), from npm packages under the SIL Open Font License 1.1:
 * Noto Sans (Latin with accents, Greek, Cyrillic, ₹ and the other currency signs) and Noto Sans Arabic
 * (Arabic letters, Arabic-Indic digits). A run of text takes the Arabic face when it holds Arabic script.
 */

export type FontWeight = 'regular' | 'bold';
export type FontScript = 'latin' | 'arabic';

const require = createRequire(import.meta.url);

const FILES: Record<FontScript, Record<FontWeight, string>> = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  arabic: {
    regular: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
  },
};

/**
 * Parsed once per process (each pool worker) and shared by its documents: parsing the OpenType layout
 * tables again for every PDF took most of a small invoice's render time. Each document still embeds
 * its own subset.
 */
let fonts: Map<string, unknown> | null = null;

export function fontName(script: FontScript, weight: FontWeight): string {
  return `${script}-${weight}`;
}

function loadFonts(): Map<string, unknown> {
  const loaded = new Map<string, unknown>();
  for (const [script, weights] of Object.entries(FILES) as [FontScript, Record<FontWeight, string>][]) {
    for (const [weight, file] of Object.entries(weights) as [FontWeight, string][]) {
      loaded.set(
        fontName(script, weight),
        (createFont as (buffer: Buffer) => unknown)(readFileSync(require.resolve(file))),
      );
    }
  }
  return loaded;
}

/**
 * A face's ascent as a share of its size, from fontkit's public `ascent` and `unitsPerEm` (pdfkit's
 * `ascender` is the same figure per 1,000 units, but only on its private `_font`).
 */
export function ascentOf(script: FontScript, weight: FontWeight): number {
  fonts ??= loadFonts();
  const font = fonts.get(fontName(script, weight)) as { ascent: number; unitsPerEm: number };
  return font.ascent / font.unitsPerEm;
}

export function registerFonts(doc: PDFKit.PDFDocument): void {
  fonts ??= loadFonts();
  boundLayoutCaches();
  // pdfkit's registerFont accepts a fontkit Font (it checks for `layout`), though its types say otherwise.
  for (const [name, font] of fonts) doc.registerFont(name, font as string);
}

/**
 * pdfkit caches the shaped layout of each word per document; the fonts being shared, the cache can be
 * too, so that labels, numbers and names shaped for one invoice are not shaped again for the next
 * (shaping was about half of a small invoice's render time). Cached runs are read, never changed, by
 * pdfkit. Bounded: emptied when it holds more than LAYOUT_CACHE_LIMIT words.
 */
const LAYOUT_CACHE_LIMIT = 50_000;
const layoutCaches = new Map<string, Record<string, unknown>>();

interface EmbeddedFontInternals {
  layoutCache?: Record<string, unknown>;
}

/** Selects a registered font in the document and lends it the process-wide word cache of its face. */
export function selectFont(doc: PDFKit.PDFDocument, name: string): void {
  doc.font(name);
  const font = (doc as unknown as { _font: EmbeddedFontInternals })._font;
  let cache = layoutCaches.get(name);
  if (cache === undefined) {
    cache = Object.create(null) as Record<string, unknown>;
    layoutCaches.set(name, cache);
  }
  if (font.layoutCache !== undefined && font.layoutCache !== cache) font.layoutCache = cache;
}

/** Called once per document: a cache past its bound starts again empty. */
function boundLayoutCaches(): void {
  for (const [name, cache] of layoutCaches) {
    if (Object.keys(cache).length > LAYOUT_CACHE_LIMIT) layoutCaches.delete(name);
  }
}
