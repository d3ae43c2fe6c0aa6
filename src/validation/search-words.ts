/**
 * Free-text words, folded the same way on both sides of a search (leads-interface 4.4: whole words or
 * prefixes, case- and accent-insensitive). The PostgreSQL index folds stored text with a translate()
 * table built from `foldWord` (migration 002-leads-search); SQLite's FTS5 folds with unicode61
 * remove_diacritics 2; a query's words are folded here.
 */

/** Lower case, combining accents (U+0300-U+036F) removed: é → e, Ö → o; other scripts' marks kept. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase();
}

/** A query's words: runs of letters, digits and marks, folded; everything else separates them. */
export function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map(foldWord);
}

/** Precomposed Latin, Greek and Cyrillic letters whose folded form is one other letter, and that letter. */
export function accentTable(): { from: string; to: string } {
  let from = '';
  let to = '';
  const ranges: [number, number][] = [[0xc0, 0x24f], [0x370, 0x3ff], [0x400, 0x4ff], [0x1e00, 0x1eff]];
  for (const [low, high] of ranges) {
    for (let code = low; code <= high; code++) {
      const char = String.fromCodePoint(code).toLowerCase();
      const base = foldWord(char);
      if ([...char].length === 1 && [...base].length === 1 && base !== char && !from.includes(char)) {
        from += char;
        to += base;
      }
    }
  }
  return { from, to };
}
