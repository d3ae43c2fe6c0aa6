/**
 * An invoice total in words (invoices-interface 4.7): English, capitalised, 21–99 hyphenated, no inner
 * "and". Indian grouping (Thousand, Lakh, Crore, the crore count itself in words) when the locale's
 * region is IN, else Thousand, Million, Billion. No library produces exactly this text (the ones on
 * npm add "and" after hundreds or lack lakh/crore), so it is a small module tested by tables.
 * The amount comes in exact minor units (bigint): no floating point touches it.
 */

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

interface Group {
  size: bigint;
  name: string;
}

/** Largest first; a count above a group's own range is itself spelled with the same groups. */
const INDIAN_GROUPS: readonly Group[] = [
  { size: 10_000_000n, name: 'Crore' },
  { size: 100_000n, name: 'Lakh' },
  { size: 1_000n, name: 'Thousand' },
];
const WESTERN_GROUPS: readonly Group[] = [
  { size: 1_000_000_000n, name: 'Billion' },
  { size: 1_000_000n, name: 'Million' },
  { size: 1_000n, name: 'Thousand' },
];

/** 0–999 without "and": "One Hundred One", "Ninety-Nine". Empty for 0. */
function belowThousand(value: number): string[] {
  const words: string[] = [];
  const hundreds = Math.trunc(value / 100);
  const rest = value % 100;
  if (hundreds > 0) words.push(ONES[hundreds] as string, 'Hundred');
  if (rest >= 20) {
    const unit = rest % 10;
    words.push(unit === 0 ? (TENS[rest / 10] as string) : `${TENS[Math.trunc(rest / 10)]}-${ONES[unit]}`);
  } else if (rest > 0) {
    words.push(ONES[rest] as string);
  }
  return words;
}

function groupWords(value: bigint, groups: readonly Group[]): string[] {
  const [group, ...smaller] = groups;
  if (group === undefined) return belowThousand(Number(value));
  const count = value / group.size;
  const rest = value % group.size;
  const head = count > 0n ? [...groupWords(count, groups), group.name] : [];
  return [...head, ...groupWords(rest, smaller)];
}

/** A whole number in words with the given grouping; "Zero" for 0. */
export function wholeNumberInWords(value: bigint, indianGrouping: boolean): string {
  if (value < 0n) throw new RangeError('amounts in words are never negative');
  if (value === 0n) return ONES[0] as string;
  return groupWords(value, indianGrouping ? INDIAN_GROUPS : WESTERN_GROUPS).join(' ');
}

/** Whether the locale's region is India (en-IN, hi-IN): that selects lakh and crore. */
export function usesIndianGrouping(locale: string): boolean {
  try {
    return new Intl.Locale(locale).region === 'IN';
  } catch {
    return false;
  }
}

export interface AmountInWordsInput {
  /** The amount in whole minor units of the currency (paise for INR). */
  minorUnits: bigint;
  /** ISO 4217 code. */
  currency: string;
  /** The currency's minor-unit digits (ISO 4217: INR 2, JPY 0, KWD 3). */
  minorDigits: number;
  locale: string;
}

/**
 * INR: `Rupees <major>[ and <minor> Paise] Only`; others: `<code> <major>[ and <minor>/<10^d>] Only`.
 * The minor part appears only when it is not zero.
 */
export function amountInWords(input: AmountInWordsInput): string {
  const indian = usesIndianGrouping(input.locale);
  const scale = 10n ** BigInt(input.minorDigits);
  const major = input.minorUnits / scale;
  const minor = input.minorUnits % scale;
  const majorWords = wholeNumberInWords(major, indian);
  if (input.currency === 'INR') {
    const paise = minor > 0n ? ` and ${wholeNumberInWords(minor, indian)} Paise` : '';
    return `Rupees ${majorWords}${paise} Only`;
  }
  const fraction = minor > 0n ? ` and ${minor}/${scale}` : '';
  return `${input.currency} ${majorWords}${fraction} Only`;
}
