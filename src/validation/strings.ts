/**
 * String facts the validators share. Lengths count Unicode code points (docs/decisions.md "API reference and client"), so an emoji or
 * a Devanagari conjunct counts as the caller sees it rather than as UTF-16 units.
 */

export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** A string either store (PostgreSQL text, SQLite JSON) keeps byte for byte: no NUL, no lone surrogate. */
export function isStorableString(value: string): boolean {
  return !hasNul(value) && !hasLoneSurrogate(value);
}
