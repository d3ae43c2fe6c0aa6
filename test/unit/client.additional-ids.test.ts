import { describe, expect, it } from 'vitest';
import { ADDITIONAL_ID_CODES } from '../../src/validation/additional-ids.js';
import { base, context, failures, valid } from './support/client-context.js';

const V = 'INVALID_FIELD_VALUE';

/** A valid value for each code's format. */
const SAMPLE_VALUE: Record<string, string> = { UDY: 'UDYAM-MH-01-0000001', IEC: 'ABCDE1234F', LUT: 'AD270321000123X' };
const sample = (code: string): string => SAMPLE_VALUE[code] ?? 'ID-42';
const party = (scope: string) =>
  scope === 'seller' ? { isVendor: true } : scope === 'client' ? {} : { isClient: false, isVendor: true };

describe('2.5 every code: valid for its country and scope, rejected elsewhere', () => {
  it.each(ADDITIONAL_ID_CODES.map((entry) => [entry.country, entry.code, entry.scope] as const))(
    '%s %s (%s)',
    (country, code, scope) => {
      const entry = { label: code, value: sample(code) };
      const inCountry = valid({ ...base, country, ...party(scope), additionalIds: [entry] });
      expect(inCountry.additionalIds).toEqual([
        { label: code, value: sample(code), showInInvoice: false, useForEInvoice: false },
      ]);
      // Through the business's country when the client sends none.
      expect(
        valid({ ...base, ...party(scope), additionalIds: [entry] }, context({ businessCountry: country }))
          .additionalIds,
      ).toHaveLength(1);
      const elsewhere = country === 'GB' ? 'US' : 'GB';
      expect(failures({ ...base, country: elsewhere, ...party(scope), additionalIds: [entry] })).toEqual([
        ['additionalIds[0].label', V],
      ]);
    },
  );
});

describe('2.5 party scope', () => {
  it.each([
    ['IEC', 'IN', {}, false],
    ['IEC', 'IN', { isVendor: true }, true],
    ['LUT', 'IN', { isClient: true }, false],
    ['HQ', 'SA', {}, false],
    ['HQ', 'SA', { isVendor: true }, true],
    ['NAT', 'SA', {}, true],
    ['NAT', 'SA', { isClient: false, isVendor: true }, false],
    ['NAT', 'SA', { isVendor: true }, true],
    ['UDY', 'IN', {}, true],
    ['UDY', 'IN', { isClient: false, isVendor: true }, true],
    ['CRN', 'SA', { isClient: false, isVendor: true }, true],
    ['BRN', 'MY', {}, true],
  ])('%s in %s with %j → ok %s', (code, country, flags, ok) => {
    const body = { ...base, country, ...flags, additionalIds: [{ label: code, value: sample(code) }] };
    if (ok) expect(valid(body).additionalIds).toHaveLength(1);
    else expect(failures(body)).toEqual([['additionalIds[0].label', V]]);
  });

  it('reads party flags sent after the list', () => {
    expect(
      valid({ ...base, country: 'IN', additionalIds: [{ label: 'IEC', value: 'ABCDE1234F' }], isVendor: true })
        .additionalIds,
    ).toHaveLength(1);
  });
});

describe('2.5 formats', () => {
  it.each([
    ['UDY', 'UDYAM-MH-01-0000001', true],
    ['UDY', 'UDYAM-MH-01-000001', false],
    ['UDY', 'UDYAM-M1-01-0000001', false],
    ['UDY', 'udyam-mh-01-0000001', false],
    ['UDY', 'UDYAM-MH-01-00000011', false],
    ['IEC', 'ABCDE1234F', true],
    ['IEC', '0123456789', true],
    ['IEC', 'ABCDE1234', false],
    ['IEC', 'ABCDE1234FG', false],
    ['IEC', 'abcde1234f', false],
    ['LUT', 'AD270321000123X', true],
    ['LUT', 'AD2703210001237', true],
    ['LUT', 'AD270321000123', false],
    ['LUT', 'AD270321000123XY', false],
    ['LUT', 'A1270321000123X', false],
  ])('%s %s → ok %s', (code, value, ok) => {
    const body = { ...base, country: 'IN', isVendor: true, additionalIds: [{ label: code, value }] };
    if (ok) expect(valid(body).additionalIds[0]?.value).toBe(value);
    else expect(failures(body)).toEqual([['additionalIds[0].value', V]]);
  });

  it.each(['', '   '])('"any non-empty value" refuses %j', (value) => {
    expect(failures({ ...base, country: 'SA', additionalIds: [{ label: 'NAT', value }] })).toEqual([
      ['additionalIds[0].value', V],
    ]);
  });

  it('value is required and label is the code, not its name', () => {
    expect(failures({ ...base, additionalIds: [{ label: 'UDY' }] })).toEqual([['additionalIds[0].value', V]]);
    expect(failures({ ...base, additionalIds: [{ value: 'x' }] })).toEqual([['additionalIds[0].label', V]]);
    expect(failures({ ...base, additionalIds: [{ label: 'Udyam Registration Number', value: 'x' }] })).toEqual([
      ['additionalIds[0].label', V],
    ]);
    expect(failures({ ...base, additionalIds: [{ label: 'udy', value: 'UDYAM-MH-01-0000001' }] })).toEqual([
      ['additionalIds[0].label', V],
    ]);
  });
});

describe('2.5 duplicates, no country, useForEInvoice', () => {
  it('rejects the same code twice, at the second entry', () => {
    const id = { label: 'NAT', value: '1' };
    expect(failures({ ...base, country: 'SA', additionalIds: [id, { ...id, value: '2' }] })).toEqual([
      ['additionalIds[1].label', V],
    ]);
  });

  it('rejects any code when the client has no country', () => {
    expect(
      failures(
        { ...base, additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }] },
        context({ businessCountry: '' }),
      ),
    ).toEqual([['additionalIds[0].label', V]]);
  });

  it('does not pile code errors on an invalid country', () => {
    expect(
      failures({ ...base, country: 'XX', additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }] }),
    ).toEqual([['country', V]]);
  });

  it('keeps useForEInvoice on the first flagged entry only and returns false when unset', () => {
    const ids = valid({
      ...base,
      country: 'SA',
      additionalIds: [
        { label: 'NAT', value: '1' },
        { label: 'TIN', value: '2', useForEInvoice: true },
        { label: 'CRN', value: '3', useForEInvoice: true, showInInvoice: true },
        { label: 'OTH', value: '4', useForEInvoice: false },
      ],
    }).additionalIds;
    expect(ids.map((id) => [id.label, id.useForEInvoice, id.showInInvoice])).toEqual([
      ['NAT', false, false],
      ['TIN', true, false],
      ['CRN', false, true],
      ['OTH', false, false],
    ]);
  });

  it('accepts the flag on an Indian client (no effect beyond storing it)', () => {
    expect(
      valid({ ...base, additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', useForEInvoice: true }] })
        .additionalIds[0]?.useForEInvoice,
    ).toBe(true);
  });

  it.each([
    [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', extra: 1 }, 'additionalIds[0].extra'],
    [{ label: 7, value: 'x' }, 'additionalIds[0].label'],
    [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', showInInvoice: 'yes' }, 'additionalIds[0].showInInvoice'],
    ['UDY', 'additionalIds[0]'],
    [null, 'additionalIds[0]'],
  ])('name errors inside entries are INVALID_FIELD: %j', (entry, field) => {
    expect(failures({ ...base, additionalIds: [entry] })).toEqual([[field, 'INVALID_FIELD']]);
  });
});

describe('2.6 shipping details', () => {
  it('derives nothing inside an address and fills unset members', () => {
    const shipping = valid({ ...base, shippingDetails: [{ gstin: '27AAPFU0939F1ZV' }] }).shippingDetails;
    expect(shipping).toEqual([
      {
        name: null,
        street: null,
        building: null,
        city: null,
        district: null,
        state: null,
        pincode: null,
        country: null,
        gstin: '27AAPFU0939F1ZV',
        gstState: null,
        sstNumber: null,
        tinNumber: null,
        taxId: null,
        taxPayerType: null,
        additionalIds: [],
        customHeaders: [],
      },
    ]);
  });

  it("validates country, gstin, gstState, sstNumber and tinNumber like the client's own", () => {
    const body = {
      ...base,
      shippingDetails: [{ country: 'ZZ', gstin: 'X', gstState: '00', sstNumber: 'S', tinNumber: 't' }],
    };
    expect(failures(body).map(([field]) => field)).toEqual(
      ['country', 'gstin', 'gstState', 'sstNumber', 'tinNumber'].map((m) => `shippingDetails[0].${m}`),
    );
  });

  it('keeps taxId and taxPayerType as free text and state without country', () => {
    const [address] = valid({
      ...base,
      shippingDetails: [{ taxPayerType: 'anything', taxId: 'T-1', state: 'Goa' }],
    }).shippingDetails;
    expect([address?.taxPayerType, address?.taxId, address?.state]).toEqual(['anything', 'T-1', 'Goa']);
  });

  it("checks additional ids against the client's country and party, not the address's", () => {
    const udy = { label: 'UDY', value: 'UDYAM-MH-01-0000001' };
    expect(
      valid({ ...base, shippingDetails: [{ country: 'SA', additionalIds: [udy] }] }).shippingDetails[0]?.additionalIds,
    ).toHaveLength(1);
    expect(failures({ ...base, country: 'SA', shippingDetails: [{ country: 'IN', additionalIds: [udy] }] })).toEqual([
      ['shippingDetails[0].additionalIds[0].label', V],
    ]);
    expect(
      failures({ ...base, shippingDetails: [{ additionalIds: [{ label: 'IEC', value: 'ABCDE1234F' }] }] }),
    ).toEqual([['shippingDetails[0].additionalIds[0].label', V]]);
  });

  it('tracks duplicates and the e-invoice flag per list', () => {
    const nat = { label: 'NAT', value: '1', useForEInvoice: true };
    const value = valid({
      ...base,
      country: 'SA',
      additionalIds: [nat],
      shippingDetails: [{ additionalIds: [nat] }, { additionalIds: [nat] }],
    });
    expect(value.additionalIds[0]?.useForEInvoice).toBe(true);
    expect(value.shippingDetails.map((s) => s.additionalIds[0]?.useForEInvoice)).toEqual([true, true]);
  });

  it('custom headers need a label', () => {
    expect(failures({ ...base, shippingDetails: [{ customHeaders: [{ value: 'v' }] }] })).toEqual([
      ['shippingDetails[0].customHeaders[0].label', V],
    ]);
    expect(
      valid({ ...base, shippingDetails: [{ customHeaders: [{ label: 'Dock' }] }] }).shippingDetails[0]?.customHeaders,
    ).toEqual([{ label: 'Dock', value: null }]);
  });
});
