import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../src/invoices/invoice.money.js';
import { utf8Within, ZATCA_MAX_VALUE_BYTES, zatcaQrBase64, zatcaTimestamp } from '../../src/invoices/zatca.js';

const SAR = currencyOf('SAR')!;

/** Reads the TLV back independently: tag byte, length byte, that many UTF-8 bytes, to the end. */
function decode(base64: string): { tag: number; value: string; bytes: number }[] {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.toString('base64')).toBe(base64);
  const records = [];
  for (let at = 0; at < bytes.length; ) {
    const tag = bytes[at]!;
    const length = bytes[at + 1]!;
    const value = bytes.subarray(at + 2, at + 2 + length);
    expect(value.length).toBe(length);
    records.push({ tag, value: new TextDecoder('utf-8', { fatal: true }).decode(value), bytes: length });
    at += 2 + length;
  }
  return records;
}

describe('3.3 ZATCA phase-1 QR', () => {
  it('five records in tag order: name, VAT number, instant to the second, total and tax with the minor unit', () => {
    const qr = zatcaQrBase64({
      sellerName: 'Bobs Records',
      vatNumber: '310122393500003',
      invoiceDate: new Date('2022-04-25T15:30:00.789Z'),
      total: 115000n,
      tax: 15000n,
      currency: SAR,
    });
    expect(decode(qr).map(({ tag, value }) => [tag, value])).toEqual([
      [1, 'Bobs Records'],
      [2, '310122393500003'],
      [3, '2022-04-25T15:30:00Z'],
      [4, '1150.00'],
      [5, '150.00'],
    ]);
  });

  it('the same bytes as an independent implementation (the sample output of github.com/SallaApp/ZATCA)', () => {
    const qr = zatcaQrBase64({
      sellerName: 'Salla',
      vatNumber: '1234567891',
      invoiceDate: new Date('2021-07-12T14:25:09Z'),
      total: 10000n,
      tax: 1500n,
      currency: SAR,
    });
    expect(qr).toBe('AQVTYWxsYQIKMTIzNDU2Nzg5MQMUMjAyMS0wNy0xMlQxNDoyNTowOVoEBjEwMC4wMAUFMTUuMDA=');
  });

  it('an Arabic name counts UTF-8 bytes, not characters', () => {
    const name = 'شركة التوريدات المحدودة';
    const [first] = decode(
      zatcaQrBase64({
        sellerName: name,
        vatNumber: '300000000000003',
        invoiceDate: new Date(0),
        total: 0n,
        tax: 0n,
        currency: SAR,
      }),
    );
    expect(first).toEqual({ tag: 1, value: name, bytes: Buffer.byteLength(name) });
    expect(first!.bytes).toBeGreaterThan(name.length);
  });

  it('a name over 255 bytes is cut at a whole character, never inside one', () => {
    // 2-byte letters with a 2-byte combining mark each (shadda): 4 bytes a character, so 255 is not a boundary.
    const name = 'شّ'.repeat(100);
    const [first, second] = decode(
      zatcaQrBase64({
        sellerName: name,
        vatNumber: '300000000000003',
        invoiceDate: new Date(0),
        total: 1n,
        tax: 0n,
        currency: SAR,
      }),
    );
    expect(first!.bytes).toBe(252);
    expect(first!.value).toBe('شّ'.repeat(63));
    expect(second).toEqual({ tag: 2, value: '300000000000003', bytes: 15 });
  });

  it('utf8Within keeps what fits and cuts emoji sequences whole', () => {
    expect(Buffer.from(utf8Within('a'.repeat(300))).length).toBe(ZATCA_MAX_VALUE_BYTES);
    const family = '👨‍👩‍👧'; // 18 bytes
    expect(Buffer.from(utf8Within(`${'a'.repeat(250)}${family}`)).toString()).toBe('a'.repeat(250));
    expect(Buffer.from(utf8Within('é'.repeat(200))).toString()).toBe('é'.repeat(127));
  });

  it('timestamps drop milliseconds and are UTC', () => {
    expect(zatcaTimestamp(new Date('2026-11-26T23:59:59.999+05:30'))).toBe('2026-11-26T18:29:59Z');
  });
});
