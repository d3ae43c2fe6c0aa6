import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Money and the numbers it is made from, exactly (invoices-interface 3.1; docs/decisions.md "Invoice
 * money"). A number is a Decimal, `units / 10^scale` with BigInt units, never a binary float; money is
 * a BigInt count of the currency's minor units. JSON numbers come in through decimalOf and money goes
 * out through moneyToJson / moneyToText, so no amount is ever computed in floating point.
 */

/**
 * An exact decimal: units / 10^scale, scale ≥ 0. decimal() and decimalOf give the canonical form (no
 * trailing zero in units while scale > 0), so equal values have equal fields; every function here takes
 * any form, and intermediate products skip canonicalising (it costs a division per zero).
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** A JSON number read exactly, with what the validators limit (3.1.1, section 7). */
export interface ParsedDecimal {
  value: Decimal;
  /** Digits from the first to the last non-zero one (0 has 1): `1200.5` 5, `1e21` 1, `0.0012` 2. */
  significantDigits: number;
  /** Digits after the point of the exact value: `12.10` (read as 12.1) 1, `1e-7` 7, `1e21` 0. */
  decimalPlaces: number;
}

/** A currency as money needs it: ISO 4217 code and the number of decimals of its minor unit. */
export interface Currency {
  readonly code: string;
  readonly minorUnit: number;
}

/** Numbers with at most this many significant digits survive binary64 and its shortest form (3.1.1). */
export const MAX_SIGNIFICANT_DIGITS = 15;

/** Zero, e.g. the tax rate an item omits. */
export const DECIMAL_ZERO: Decimal = { units: 0n, scale: 0 };
const TEN = 10n;

// Powers used on every item (scales up to 6 + 6 + 3 + 2 and so on), made once.
const POWERS: readonly bigint[] = Array.from({ length: 48 }, (_, exponent) => TEN ** BigInt(exponent));

export function pow10(exponent: number): bigint {
  return POWERS[exponent] ?? TEN ** BigInt(exponent);
}

/** The canonical form: trailing zeros of the fraction dropped, so equal values have equal fields. */
export function decimal(units: bigint, scale: number): Decimal {
  if (scale < 0) return { units: units * pow10(-scale), scale: 0 };
  let [u, s] = [units, scale];
  while (s > 0 && u % TEN === 0n) [u, s] = [u / TEN, s - 1];
  return { units: u, scale: s };
}

// The shortest round-trip text of a finite double: `-12.5`, `1e-7`, `1.5e+21`.
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * The exact decimal a JSON number's text denotes (3.1.1). JSON.parse already turned the text into the
 * nearest double; `String(n)` gives back the shortest text that reads as that double, which is the
 * text sent whenever it had at most 15 significant digits (the validators refuse more). Null for
 * anything but a finite number. `-0` is 0.
 */
export function decimalOf(value: unknown): ParsedDecimal | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (Number.isSafeInteger(value)) return integerOf(value);
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  const parsed = decimal(BigInt(`${sign}${digits}`), fraction.length - Number(exponent));
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  return { value: parsed, significantDigits: Math.max(significant.length, 1), decimalPlaces: parsed.scale };
}

/**
 * decimalOf of a safe integer (most quantities, rates and tax rates), the same result without the
 * regular expression and the BigInt read from text: scale 0 is already canonical, and its significant
 * digits are those left when the trailing zeros are divided away (exact below 2^53).
 */
function integerOf(value: number): ParsedDecimal {
  let rest = Math.abs(value);
  while (rest !== 0 && rest % 10 === 0) rest /= 10;
  return { value: { units: BigInt(value), scale: 0 }, significantDigits: String(rest).length, decimalPlaces: 0 };
}

export function isZero(value: Decimal): boolean {
  return value.units === 0n;
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * pow10(scale - a.scale);
  const right = b.units * pow10(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return decimal(a.units * b.units, a.scale + b.scale);
}

/** Plain decimal text, never an exponent: `0.0000001`, `1000000000000000000000`, `-86.75`. */
export function decimalToText(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount of minor units as a Decimal of the major unit: 1150n INR is 11.5. */
export function minorToDecimal(minor: bigint, currency: Currency): Decimal {
  return decimal(minor, currency.minorUnit);
}

/**
 * Minor units as a count of 10^-scale units, exactly, for a store that keeps amounts at a fixed scale
 * (client balances are ten-thousandths: scale 4). A scale finer than the currency's is refused.
 */
export function minorToScale(minor: bigint, currency: Currency, scale: number): bigint {
  if (scale < currency.minorUnit) {
    throw new RangeError(`${currency.code} has ${currency.minorUnit} decimals, more than ${scale}`);
  }
  return minor * pow10(scale - currency.minorUnit);
}

/**
 * R (3.1.2): the value rounded half away from zero to the currency's minor unit, in minor units.
 * R(0.027 INR) = 3n (0.03), R(1.005) = 101n, R(-0.005) = -1n.
 */
export function roundToMinor(value: Decimal, currency: Currency): bigint {
  return roundToScale(value, currency.minorUnit);
}

/** The value rounded half away from zero to `scale` decimals, as a count of 10^-scale (R at any scale). */
export function roundToScale(value: Decimal, scale: number): bigint {
  const drop = value.scale - scale;
  if (drop <= 0) return value.units * pow10(-drop);
  const divisor = pow10(drop);
  const magnitude = value.units < 0n ? -value.units : value.units;
  const rounded = (magnitude * 2n + divisor) / (divisor * 2n);
  return value.units < 0n ? -rounded : rounded;
}

/** The value in minor units when it is within the minor unit (FIXED_AMOUNT, a payment), else null. */
export function exactMinor(value: Decimal, currency: Currency): bigint | null {
  return value.scale > currency.minorUnit ? null : value.units * pow10(currency.minorUnit - value.scale);
}

/** Money as text with exactly the minor unit's decimals and no grouping: `1150.00`, `-86.75`, JPY `236`. */
export function moneyToText(minor: bigint, currency: Currency): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(currency.minorUnit + 1, '0');
  const cut = digits.length - currency.minorUnit;
  const fraction = currency.minorUnit > 0 ? `.${digits.slice(cut)}` : '';
  return `${negative ? '-' : ''}${digits.slice(0, cut)}${fraction}`;
}

/**
 * Money as a JSON number whose text is the exact value (2.1: `236`, `12.1`, `0.05`). The decimal text
 * read by Number() gives the double nearest to it, and a decimal of at most 15 significant digits is
 * the shortest text of its nearest double, so JSON.stringify writes these digits back. Computed money
 * is below 10^12 with at most 3 decimals (3.1.4), hence at most 15 digits; more is a programming error.
 */
export function moneyToJson(minor: bigint, currency: Currency): number {
  const magnitude = minor < 0n ? -minor : minor;
  if (magnitude >= MONEY_JSON_LIMIT) {
    throw new RangeError(`money of ${MAX_SIGNIFICANT_DIGITS + 1} or more digits has no exact JSON number`);
  }
  return nearestDouble(minor, currency.minorUnit);
}

/** A Decimal as the JSON number of the same text (an item's rate, quantity or tax rate echoed by value). */
export function decimalToJson(value: Decimal): number {
  const magnitude = value.units < 0n ? -value.units : value.units;
  return magnitude <= MAX_EXACT_UNITS && value.scale < NUMBER_POWERS.length
    ? nearestDouble(value.units, value.scale)
    : Number(decimalToText(value));
}

const MONEY_JSON_LIMIT = pow10(MAX_SIGNIFICANT_DIGITS);
const MAX_EXACT_UNITS = BigInt(Number.MAX_SAFE_INTEGER);
// 10^0 to 10^22: every one a double exactly.
const NUMBER_POWERS: readonly number[] = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/**
 * The double nearest to units / 10^scale, for |units| ≤ 2^53 - 1 and scale ≤ 22: both operands are
 * doubles exactly, and IEEE division rounds the exact quotient to the nearest double, as Number() does
 * with the decimal text of the same value, so the result is the one Number(text) gives, without the
 * text (docs/performance.md "POST invoice: where the rest went"). 0n gives 0, never -0.
 */
function nearestDouble(units: bigint, scale: number): number {
  return Number(units) / NUMBER_POWERS[scale]!;
}

/**
 * ISO 4217 minor units. currency-codes' `digits` turns the standard's "N.A." (gold, SDR, the test and
 * no-currency codes) into 0, which would accept XAU as a whole-unit currency, so the standard's own list
 * shipped with the package is read: a code with "N.A." has no minor unit.
 */
function readMinorUnits(): ReadonlyMap<string, number | null> {
  const require = createRequire(import.meta.url);
  const xml = readFileSync(require.resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');
  const units = new Map<string, number | null>();
  for (const entry of xml.split('<CcyNtry>').slice(1)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry)?.[1];
    const minor = /<CcyMnrUnts>(\d+)<\/CcyMnrUnts>/.exec(entry)?.[1];
    if (code !== undefined) units.set(code, minor === undefined ? null : Number(minor));
  }
  return units;
}

const MINOR_UNITS = readMinorUnits();

/** Minor units an invoice may be issued in (3.1.2): whole units, cents, or thousandths. */
export const INVOICE_MINOR_UNITS: readonly number[] = [0, 2, 3];

/** The currency of an ISO 4217 code with an accepted minor unit; null otherwise (XAU, XDR, CLF, unknown). */
export function currencyOf(code: string): Currency | null {
  const minorUnit = MINOR_UNITS.get(code);
  if (minorUnit === undefined || minorUnit === null || !INVOICE_MINOR_UNITS.includes(minorUnit)) return null;
  return { code, minorUnit };
}
