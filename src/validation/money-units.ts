/**
 * Exact money in ten-thousandths (the 4 decimal places a budget may carry, leads-interface 2.4), as
 * BigInt. A budget amount is a JSON number; the decimal it stands for is the one JSON writes for it
 * (JavaScript's shortest round-trip form, which is what every answer shows), so it is read from that
 * text, never by multiplying a float.
 */
export const UNITS_PER_WHOLE = 10_000n;
const DECIMALS = 4;

/** "1234.5" → 12345000n; null for text that is no plain decimal of at most 4 places. */
export function unitsOfDecimal(text: string): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text);
  if (!match) return null;
  const units = BigInt(match[2]!) * UNITS_PER_WHOLE + BigInt((match[3] ?? '').padEnd(DECIMALS, '0'));
  return match[1] === '-' ? -units : units;
}

/** A stored budget amount (a validated number: > 0, ≤ 10^13, ≤ 4 places) → ten-thousandths. */
export function unitsOfAmount(amount: number): bigint | null {
  return Number.isFinite(amount) ? unitsOfDecimal(String(amount)) : null;
}

/** 12345000n → "1234.5": no trailing zeros, no exponent. */
export function decimalOfUnits(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  const whole = magnitude / UNITS_PER_WHOLE;
  const fraction = (magnitude % UNITS_PER_WHOLE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A lead's `data` (stored JSON) → its budget's ten-thousandths, or null without a budget: SQLite's crm_budget_units. */
export function budgetUnitsOfLeadData(data: string | null): bigint | null {
  if (!data) return null;
  const amount = (JSON.parse(data) as { budget?: { amount?: unknown } | null }).budget?.amount;
  return typeof amount === 'number' ? unitsOfAmount(amount) : null;
}
