import { currencyOf, moneyToText } from '../invoices/invoice.money.js';

/**
 * The exact arithmetic of reports: amounts are BigInt units with a scale, written as decimal strings;
 * nothing passes through a binary float (a ratio or a day count is a measure, not money, and is rounded).
 */

/** `units / 10^scale` as a decimal string without trailing zeros: (123450n, 4) → "12.345". */
export function decimalOfScaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A percentage (a stage's closure, 0 to 100) as an exact integer and its decimal places: 12.5 → [125n, 1]. */
export function scaledPercent(percent: number): { units: bigint; scale: number } {
  const text = /e/i.test(String(percent)) ? percent.toFixed(20).replace(/0+$/, '') : String(percent);
  const [whole, fraction = ''] = text.split('.');
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** A budget sum in ten-thousandths weighted by a closure percentage, exactly: 1000 × 12.5% → "125". */
export function weightedBudget(tenThousandths: bigint, closure: number): { units: bigint; scale: number } {
  const percent = scaledPercent(closure);
  return { units: tenThousandths * percent.units, scale: 4 + 2 + percent.scale };
}

/** Adds exact amounts of different scales. */
export function addScaled(
  a: { units: bigint; scale: number },
  b: { units: bigint; scale: number },
): { units: bigint; scale: number } {
  const scale = Math.max(a.scale, b.scale);
  return {
    units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale),
    scale,
  };
}

/** Invoice money: minor units as text with exactly the currency's decimals (`1180.00`, JPY `236`). */
export function invoiceMoney(minor: bigint, currency: string): string {
  return moneyToText(minor, currencyOf(currency) ?? { code: currency, minorUnit: 0 });
}

/** A ratio or a measure rounded to `places` decimals (half up: none here is negative), for display. */
export function rounded(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}
