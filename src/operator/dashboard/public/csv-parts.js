// @ts-check
// Splits a CSV file into parts the import endpoint takes: the header line, then at most `size`
// records each. Only record boundaries are found here (a line break outside quotes, RFC 4180);
// the server parses the records themselves with its CSV parser.

/** @typedef {{ text: string, firstRow: number, rows: number }} CsvPart */

/**
 * Each part's text is the header line plus its records; firstRow counts records from 1.
 * @param {string} text
 * @param {number} size
 * @returns {CsvPart[]}
 */
export function csvParts(text, size) {
  const body = text.replace(/^\uFEFF/, '');
  const ends = recordEnds(body);
  if (ends.length === 0) return [];
  const header = body.slice(0, ends[0]);
  const parts = [];
  let start = ends[0];
  let firstRow = 1;
  for (let i = 1; i < ends.length; i += size) {
    const last = ends[Math.min(i + size, ends.length) - 1];
    const records = body.slice(start, last);
    const rows = Math.min(size, ends.length - i);
    if (records.trim() !== '') parts.push({ text: `${header}${records}`, firstRow, rows });
    start = last;
    firstRow += rows;
  }
  return parts;
}

/**
 * The offsets just past each record's line break (or the end of the text for the last one).
 * @param {string} text
 */
function recordEnds(text) {
  /** @type {number[]} */
  const ends = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34)
      quoted = !quoted; // '"': an escaped "" toggles twice
    else if (c === 10 && !quoted) ends.push(i + 1); // '\n' (a '\r' before it stays with its record)
  }
  const lastEnd = ends.at(-1) ?? 0;
  if (lastEnd < text.length && text.slice(lastEnd).trim() !== '') ends.push(text.length);
  return ends;
}
