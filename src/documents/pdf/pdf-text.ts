import bidiModule from 'bidi-js';
import { ascentOf, type FontScript, type FontWeight, fontName, selectFont } from './pdf-fonts.js';

/**
 * Text in mixed scripts on a PDF line: pdfkit shapes a run through fontkit (Arabic joining, right-to-left
 * glyph order within a run) but neither picks a font per script nor orders runs of different direction.
 * Here a line is split into runs by the Unicode Bidirectional Algorithm (bidi-js), runs are put in
 * visual order (rule L2), and each run is measured and drawn in the face for its script.
 */

export interface TextStyle {
  size: number;
  weight: FontWeight;
  color?: string;
}

interface Run {
  text: string;
  script: FontScript;
  rtl: boolean;
}

// bidi-js is a UMD module: Node's ESM import gives module.exports (the factory) as the default, while its
// types declare an ES default export, so TypeScript under NodeNext sees the namespace.
const bidiFactory = bidiModule as unknown as typeof import('bidi-js').default;
const bidi = bidiFactory();
/** Characters that need the bidi algorithm or the Arabic face; everything below is drawn as one Latin run. */
const NEEDS_BIDI = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/;
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
/** Invisible direction marks (CLDR puts them in Arabic dates): they steer bidi, then are not drawn. */
const DIRECTION_MARKS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/g;

function levelRuns(text: string): { text: string; level: number }[] {
  const { levels } = bidi.getEmbeddingLevels(text, 'ltr');
  const runs: { text: string; level: number }[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i += 1) {
    if (i === text.length || levels[i] !== levels[start]) {
      runs.push({ text: text.slice(start, i), level: levels[start] ?? 0 });
      start = i;
    }
  }
  return runs;
}

/** Rule L2 at run granularity: from the highest level down to 1, reverse each sequence at that level or above. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const ordered = [...runs];
  const highest = Math.max(0, ...ordered.map((run) => run.level));
  for (let level = highest; level >= 1; level -= 1) {
    let i = 0;
    while (i < ordered.length) {
      if ((ordered[i]?.level ?? 0) < level) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < ordered.length && (ordered[end]?.level ?? 0) >= level) end += 1;
      ordered.splice(i, end - i, ...ordered.slice(i, end).reverse());
      i = end;
    }
  }
  return ordered;
}

/**
 * fontkit reverses a run exactly when it finds Arabic script in it; a run whose level says otherwise
 * (Arabic-Indic digits at an even level, neutrals at an odd one) is reversed here first, mirrored
 * where the bidi algorithm mirrors (brackets), so that the drawn order is the visual order.
 */
function drawnText(text: string, rtl: boolean, arabic: boolean): string {
  if (rtl === arabic) return text;
  const characters = [...text].reverse();
  return (rtl ? characters.map((character) => bidi.getMirroredCharacter(character) ?? character) : characters).join('');
}

/** A line of text as runs in visual (left-to-right drawing) order. */
export function visualRuns(line: string): Run[] {
  if (!NEEDS_BIDI.test(line)) return [{ text: line, script: 'latin', rtl: false }];
  return visualOrder(levelRuns(line))
    .map((run) => {
      const text = run.text.replace(DIRECTION_MARKS, '');
      const arabic = ARABIC.test(text);
      const rtl = run.level % 2 === 1;
      return { text: drawnText(text, rtl, arabic), script: arabic ? ('arabic' as const) : ('latin' as const), rtl };
    })
    .filter((run) => run.text.length > 0);
}

function useFont(doc: PDFKit.PDFDocument, script: FontScript, style: TextStyle): void {
  selectFont(doc, fontName(script, style.weight));
  doc.fontSize(style.size);
}

/**
 * Features given make pdfkit shape a run whole, so fontkit joins and orders an Arabic run right to left;
 * without them pdfkit lays out word by word (cached), which is right and faster for left-to-right runs.
 */
const SHAPING: PDFKit.Mixins.OpenTypeFeatures[] = ['kern'];
const optionsFor = (run: Run) => (run.script === 'arabic' ? { features: SHAPING } : {});

export function widthOf(doc: PDFKit.PDFDocument, line: string, style: TextStyle): number {
  let width = 0;
  for (const run of visualRuns(line)) {
    useFont(doc, run.script, style);
    width += doc.widthOfString(run.text, optionsFor(run));
  }
  return width;
}

export type Align = 'left' | 'right' | 'center';

/**
 * Every run of a line sits on one baseline, the Latin face's: pdfkit would otherwise place each run by
 * its own font's ascent, and Noto Sans Arabic's is taller, so Arabic would sink below the Latin text.
 */
function baselineOf(top: number, style: TextStyle): number {
  return top + ascentOf('latin', style.weight) * style.size;
}

/** Draws one line (no wrapping) with its left edge, or right edge, or centre in the given box. */
export function drawLine(
  doc: PDFKit.PDFDocument,
  line: string,
  box: { x: number; y: number; width: number },
  style: TextStyle,
  align: Align = 'left',
): void {
  const width = align === 'left' ? 0 : widthOf(doc, line, style);
  let x = align === 'left' ? box.x : align === 'right' ? box.x + box.width - width : box.x + (box.width - width) / 2;
  const baseline = baselineOf(box.y, style);
  doc.fillColor(style.color ?? '#1f2937');
  for (const run of visualRuns(line)) {
    useFont(doc, run.script, style);
    doc.text(run.text, x, baseline, { lineBreak: false, baseline: 'alphabetic', ...optionsFor(run) });
    x += doc.widthOfString(run.text, optionsFor(run));
  }
}

/** Splits a word wider than the box at character boundaries (a 500-character name without spaces). */
function breakWord(doc: PDFKit.PDFDocument, word: string, width: number, style: TextStyle): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const character of word) {
    if (piece !== '' && widthOf(doc, piece + character, style) > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += character;
  }
  return piece === '' ? pieces : [...pieces, piece];
}

/** Greedy word wrap of text (its own newlines kept) into lines no wider than width. */
export function wrapText(doc: PDFKit.PDFDocument, text: string, width: number, style: TextStyle): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/).filter((part) => part !== '')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (widthOf(doc, candidate, style) <= width) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      const pieces = widthOf(doc, word, style) <= width ? [word] : breakWord(doc, word, width, style);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? '';
    }
    lines.push(line);
  }
  return lines;
}
