/**
 * Free-text words, folded the same way on both sides of a search (docs/decisions.md "Lead lists": whole words or
 * prefixes, case- and accent-insensitive). The word table of migration 007-lead-words holds a lead's
 * words: on PostgreSQL split by the text parser over `crm_search_fold` (a translate() table built from
 * `foldWord`), on SQLite by `leadWordsJson` below; a query's words are folded here.
 */

/** Lower case, combining accents (U+0300-U+036F) removed: é → e, Ö → o; other scripts' marks kept. */
export function foldWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
}

/** A query's words: runs of letters, digits and marks, folded; everything else separates them. */
export function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map(foldWord);
}

/** Precomposed Latin, Greek and Cyrillic letters whose folded form is one other letter, and that letter. */
export function accentTable(): { from: string; to: string } {
  let from = '';
  let to = '';
  const ranges: [number, number][] = [
    [0xc0, 0x24f],
    [0x370, 0x3ff],
    [0x400, 0x4ff],
    [0x1e00, 0x1eff],
  ];
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

/** Field weights of the word table (migration 007-lead-words): a word's relevance is the best field it is in. */
export const WORD_WEIGHTS = { subject: 3, details: 2, names: 1 } as const;

/**
 * Longest word kept, in UTF-8 bytes: PostgreSQL's text parser drops longer ones (its 2,047-byte lexeme
 * limit), and SQLite drops them too so that both stores find the same leads.
 */
const MAX_WORD_BYTES = 2047;

/**
 * A lead's distinct words per field as `[word, weight]` pairs, as JSON: the SQLite side of migration
 * 007-lead-words, registered on every connection of the store as `crm_lead_words(subject, details,
 * names)` and read by its triggers through json_each. The same splitting and folding as a query's words.
 */
export function leadWordsJson(subject: string | null, details: string | null, names: string | null): string {
  const pairs: [string, number][] = [];
  const fields: [string | null, number][] = [
    [subject, WORD_WEIGHTS.subject],
    [details, WORD_WEIGHTS.details],
    [names, WORD_WEIGHTS.names],
  ];
  for (const [text, weight] of fields) {
    for (const word of new Set(searchWords(text ?? '')))
      if (Buffer.byteLength(word) <= MAX_WORD_BYTES) pairs.push([word, weight]);
  }
  return JSON.stringify(pairs);
}
