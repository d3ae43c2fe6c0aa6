/**
 * Limits as the descriptions and messages write them, so that prose stating a limit is built from the
 * constant that enforces it and cannot drift from it.
 */

/** 2,500: digits grouped as the descriptions write them. */
export const grouped = (value: number): string => value.toLocaleString('en-US');

/** 10^13: a limit that is a power of ten; any other value is a mistake of the caller's. */
export function powerOfTen(value: number): string {
  const exponent = Math.round(Math.log10(value));
  if (10 ** exponent !== value) throw new Error(`${value} is not a power of ten`);
  return `10^${exponent}`;
}
