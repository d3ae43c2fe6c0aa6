import { type Currency, moneyToText } from './invoice.money.js';

/**
 * The ZATCA phase-1 QR payload of a Saudi tax invoice (invoices-interface 3.3): five TLV records in
 * tag order, each a tag byte, a length byte and the UTF-8 value, the whole base64 (padded).
 */

export interface ZatcaFields {
  sellerName: string;
  vatNumber: string;
  invoiceDate: Date;
  /** finalTotal.total and finalTotal.tax, in minor units of `currency`. */
  total: bigint;
  tax: bigint;
  currency: Currency;
}

/** A record's value is at most this many UTF-8 bytes: its length is one byte. */
export const ZATCA_MAX_VALUE_BYTES = 255;

const encoder = new TextEncoder();
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The value's UTF-8 bytes, cut to the limit at a whole character: a user-perceived character (a letter
 * with its combining marks, an emoji sequence) is kept whole or left out, never split.
 */
export function utf8Within(value: string, maxBytes = ZATCA_MAX_VALUE_BYTES): Uint8Array {
  const whole = encoder.encode(value);
  if (whole.length <= maxBytes) return whole;
  let kept = 0;
  for (const { segment } of graphemes.segment(value)) {
    const size = encoder.encode(segment).length;
    if (kept + size > maxBytes) break;
    kept += size;
  }
  return whole.subarray(0, kept);
}

/** `YYYY-MM-DDTHH:mm:ssZ`: the instant in UTC to the second. */
export function zatcaTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function zatcaQrBase64(fields: ZatcaFields): string {
  const values = [
    fields.sellerName,
    fields.vatNumber,
    zatcaTimestamp(fields.invoiceDate),
    moneyToText(fields.total, fields.currency),
    moneyToText(fields.tax, fields.currency),
  ];
  const records = values.flatMap((value, index) => {
    const bytes = utf8Within(value);
    return [Uint8Array.of(index + 1, bytes.length), bytes];
  });
  return Buffer.concat(records).toString('base64');
}
