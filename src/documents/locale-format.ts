import { currencyOf } from '../invoices/invoice.money.js';

/**
 * Amounts and dates as the invoice's locale writes them (invoices-interface 4.7), from the runtime's
 * CLDR data through Intl: grouping is never hand-rolled (en-IN `12,34,567.80`, en-US `1,234,567.80`).
 * Amounts reach Intl as decimal strings, which Intl.NumberFormat formats exactly (no binary float).
 */

/** ISO 4217 minor-unit digits (INR 2, JPY 0, KWD 3) of a currency an invoice may be issued in (currencyOf). */
export function minorUnitDigits(currency: string): number {
  const known = currencyOf(currency);
  if (!known) throw new RangeError(`no invoice currency ${currency}`);
  return known.minorUnit;
}

/**
 * A JSON money number of an invoice answer as exact minor units. The answer's number text is the exact
 * decimal (2.1), and String() gives that shortest text back, so this reads digits, never float math.
 */
export function toMinorUnits(amount: number, minorDigits: number): bigint {
  const text = String(amount);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a plain decimal money value: ${text}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  if (fraction.length > minorDigits) throw new RangeError(`${text} has more decimals than the minor unit`);
  const units = BigInt(whole + fraction.padEnd(minorDigits, '0'));
  return sign === '-' ? -units : units;
}

/** Minor units back to a plain decimal string with exactly minorDigits decimals: 123456780n, 2 → "1234567.80". */
export function minorUnitsToDecimal(minorUnits: bigint, minorDigits: number): string {
  const negative = minorUnits < 0n;
  const digits = (negative ? -minorUnits : minorUnits).toString().padStart(minorDigits + 1, '0');
  const whole = digits.slice(0, digits.length - minorDigits);
  const fraction = minorDigits > 0 ? `.${digits.slice(digits.length - minorDigits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Intl.NumberFormat is costly to build (a 500-item invoice formats thousands of numbers): one per locale and digits. */
function numberFormat(locale: string, minimum: number, maximum: number): Intl.NumberFormat {
  const key = `${locale}|${minimum}|${maximum}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: minimum, maximumFractionDigits: maximum });
    numberFormats.set(key, format);
  }
  return format;
}

/** An amount with exactly the minor unit's decimals, grouped as the locale does. */
export function formatAmount(minorUnits: bigint, minorDigits: number, locale: string): string {
  // Intl.NumberFormat (ES2023) takes a decimal string and formats it without converting to binary64.
  const decimal = minorUnitsToDecimal(minorUnits, minorDigits) as unknown as number;
  return numberFormat(locale, minorDigits, minorDigits).format(decimal);
}

/** A rate (gstRate, taxRate: up to 4 decimals) as the locale writes numbers, without padding: 18, 7.5, 0.25. */
export function formatRate(rate: number, locale: string): string {
  return numberFormat(locale, 0, 4).format(String(rate) as unknown as number);
}

/** A quantity (up to 6 decimals) as the locale writes numbers. */
export function formatQuantity(quantity: number, locale: string): string {
  return numberFormat(locale, 0, 6).format(String(quantity) as unknown as number);
}

/** A UTC instant as its calendar date in the business's time zone, medium style (en-IN `18 Jun 2021`). */
export function formatDate(instant: string, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(new Date(instant));
}

/** An amount with the currency's symbol as the locale writes it (en-IN `₹1,580.00`, en-AE `AED 4,275.75`). */
export function formatMoney(minorUnits: bigint, minorDigits: number, currency: string, locale: string): string {
  const decimal = minorUnitsToDecimal(minorUnits, minorDigits) as unknown as number;
  const options = { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } as const;
  return new Intl.NumberFormat(locale, {
    ...options,
    minimumFractionDigits: minorDigits,
    maximumFractionDigits: minorDigits,
  }).format(decimal);
}

/** The formatters of one invoice: its currency's minor unit and its locale, fixed once. */
export interface MoneyFormat {
  minorDigits: number;
  /** A money number of the answer, in the locale's grouping, exactly the minor unit's decimals. */
  amount(value: number): string;
  /** The same with the currency's symbol. */
  money(value: number): string;
  minorUnits(value: number): bigint;
  /** A sum of minor units (the tax summary adds rounded members, never re-rounding). */
  units(value: bigint): string;
}

export function moneyFormat(currency: string, locale: string): MoneyFormat {
  const minorDigits = minorUnitDigits(currency);
  return {
    minorDigits,
    amount: (value) => formatAmount(toMinorUnits(value, minorDigits), minorDigits, locale),
    money: (value) => formatMoney(toMinorUnits(value, minorDigits), minorDigits, currency, locale),
    minorUnits: (value) => toMinorUnits(value, minorDigits),
    units: (value) => formatAmount(value, minorDigits, locale),
  };
}
