import { describe, expect, it } from 'vitest';
import { validateClient } from '../../src/clients/client.validate.js';
import { base, context, failures, valid } from './support/client-context.js';

const V = 'INVALID_FIELD_VALUE';
const F = 'INVALID_FIELD';
const repeat = (n: number): string => 'x'.repeat(n);

describe('2.4 / 8 length limits: at the limit ok, one past it INVALID_FIELD_VALUE', () => {
  const LIMITS: [string, number, (text: string) => Record<string, unknown>][] = [
    ['clientId', 128, (t) => ({ ...base, clientId: t })],
    ['name', 500, (t) => ({ ...base, name: t })],
    ['alias', 500, (t) => ({ ...base, alias: t })],
    ['street', 2500, (t) => ({ ...base, street: t })],
    ['building', 500, (t) => ({ ...base, building: t })],
    ['city', 500, (t) => ({ ...base, city: t })],
    ['district', 500, (t) => ({ ...base, district: t })],
    ['state', 500, (t) => ({ ...base, state: t, country: 'IN' })],
    ['pincode', 20, (t) => ({ ...base, pincode: t })],
    ['vatNumber', 500, (t) => ({ ...base, vatNumber: t })],
    ['vatLabel', 500, (t) => ({ ...base, vatLabel: t })],
    ['bankAccounts[0].bankAccountName', 500, (t) => ({ ...base, bankAccounts: [{ bankAccountName: t }] })],
    ['bankAccounts[0].bankAccountHolderName', 500, (t) => ({ ...base, bankAccounts: [{ bankAccountHolderName: t }] })],
    ['bankAccounts[0].bankAccountNumber', 2500, (t) => ({ ...base, bankAccounts: [{ bankAccountNumber: t }] })],
    ['bankAccounts[0].ifscCode', 500, (t) => ({ ...base, bankAccounts: [{ ifscCode: t }] })],
    ['bankAccounts[0].iban', 500, (t) => ({ ...base, bankAccounts: [{ iban: t }] })],
    ['bankAccounts[0].swift', 500, (t) => ({ ...base, bankAccounts: [{ swift: t }] })],
    ['shippingDetails[0].name', 500, (t) => ({ ...base, shippingDetails: [{ name: t }] })],
    ['shippingDetails[0].street', 2500, (t) => ({ ...base, shippingDetails: [{ street: t }] })],
    ['shippingDetails[0].building', 500, (t) => ({ ...base, shippingDetails: [{ building: t }] })],
    ['shippingDetails[0].city', 500, (t) => ({ ...base, shippingDetails: [{ city: t }] })],
    ['shippingDetails[0].district', 500, (t) => ({ ...base, shippingDetails: [{ district: t }] })],
    ['shippingDetails[0].state', 500, (t) => ({ ...base, shippingDetails: [{ state: t }] })],
    ['shippingDetails[0].pincode', 20, (t) => ({ ...base, shippingDetails: [{ pincode: t }] })],
    ['shippingDetails[0].taxId', 500, (t) => ({ ...base, shippingDetails: [{ taxId: t }] })],
    ['shippingDetails[0].taxPayerType', 500, (t) => ({ ...base, shippingDetails: [{ taxPayerType: t }] })],
    [
      'shippingDetails[0].customHeaders[0].label',
      500,
      (t) => ({ ...base, shippingDetails: [{ customHeaders: [{ label: t }] }] }),
    ],
    [
      'shippingDetails[0].customHeaders[0].value',
      2500,
      (t) => ({ ...base, shippingDetails: [{ customHeaders: [{ label: 'L', value: t }] }] }),
    ],
  ];

  it.each(LIMITS)('%s: %i characters', (field, limit, bodyWith) => {
    expect(validateClient(bodyWith(repeat(limit)), context(), 'api').ok).toBe(true);
    expect(failures(bodyWith(repeat(limit + 1)))).toEqual([[field, V]]);
  });

  it('counts code points: 500 emoji is a valid name, 501 is not', () => {
    expect(valid({ ...base, name: '😀'.repeat(500) }).name).toBe('😀'.repeat(500));
    expect(failures({ ...base, name: '😀'.repeat(501) })).toEqual([['name', V]]);
  });

  it('measures clientId and name after trimming', () => {
    const value = valid({ clientId: `  ${repeat(128)}  `, name: `\t${repeat(500)}\n` });
    expect(value.clientId).toBe(repeat(128));
    expect(value.name).toBe(repeat(500));
  });

  it('phone: 30 characters after normalisation ok, 31 not', () => {
    expect(valid({ ...base, phone: `+91 ${'9'.repeat(27)}` }).phone).toHaveLength(30);
    expect(failures({ ...base, phone: `+91 ${'9'.repeat(28)}` })).toEqual([['phone', V]]);
  });
});

describe('decisions.md: trimming, null, required, types', () => {
  it('trims only clientId and name', () => {
    const value = valid({ clientId: ' c 1 ', name: ' Acme ', alias: ' A ', city: ' Pune ' });
    expect([value.clientId, value.name, value.alias, value.city]).toEqual(['c 1', 'Acme', ' A ', ' Pune ']);
  });

  it('null on an optional field is not set, null on clientId or name is INVALID_FIELD_VALUE', () => {
    const value = valid({
      ...base,
      alias: null,
      isClient: null,
      additionalIds: null,
      customFields: null,
      dueInDays: null,
    });
    expect([value.alias, value.isClient, value.additionalIds, value.customFields, value.dueInDays]).toEqual([
      null,
      true,
      [],
      {},
      null,
    ]);
    expect(failures({ clientId: null, name: null })).toEqual([
      ['clientId', V],
      ['name', V],
    ]);
  });

  it('missing or blank clientId and name are INVALID_FIELD_VALUE', () => {
    expect(failures({})).toEqual([
      ['clientId', V],
      ['name', V],
    ]);
    expect(failures({ clientId: '   ', name: '' })).toEqual([
      ['clientId', V],
      ['name', V],
    ]);
  });

  it.each([
    ['an array', []],
    ['a string', 'body'],
    ['null', null],
    ['a number', 7],
    ['undefined', undefined],
  ])('a body that is %s is INVALID_FIELD', (_name, body) => {
    expect(failures(body)).toEqual([['body', F]]);
  });

  it.each([
    ['clientId', 42],
    ['name', ['Acme']],
    ['alias', 1],
    ['isClient', 'true'],
    ['isVendor', 0],
    ['dueInDays', '30'],
    ['phoneShowInInvoice', 'false'],
    ['email', { a: 1 }],
    ['additionalIds', {}],
    ['shippingDetails', 'x'],
    ['bankAccounts', true],
    ['customFields', []],
    ['country', 91],
  ])('%s with the wrong JSON type is INVALID_FIELD', (field, raw) => {
    expect(failures({ ...base, [field]: raw })).toEqual([[field, F]]);
  });

  it.each(['source', 'createdAt', 'updatedAt', 'balance', 'idempotent'])('server-owned %s is INVALID_FIELD', (key) => {
    expect(failures({ ...base, [key]: 'API' })).toEqual([[key, F]]);
  });

  it.each(['foo', 'ClientId', 'client_id', '__proto__', 'constructor', 'toString', 'panNo'])(
    'unknown key %s is INVALID_FIELD',
    (key) => {
      expect(failures(JSON.parse(`{"clientId":"c","name":"n",${JSON.stringify(key)}:1}`))).toEqual([[key, F]]);
    },
  );

  it.each([
    ['NUL in name', { name: 'Ac\u0000me' }, 'name'],
    ['lone surrogate in alias', { alias: 'a\uD800' }, 'alias'],
    ['lone surrogate in a shipping city', { shippingDetails: [{ city: '\uDC00' }] }, 'shippingDetails[0].city'],
    [
      'NUL in a custom header',
      { shippingDetails: [{ customHeaders: [{ label: 'a\u0000' }] }] },
      'shippingDetails[0].customHeaders[0].label',
    ],
  ])('%s is INVALID_FIELD_VALUE', (_name, patch, field) => {
    expect(failures({ ...base, ...patch })).toEqual([[field, V]]);
  });

  it.each([
    [0, true],
    [36500, true],
    [30, true],
    [-1, false],
    [36501, false],
    [1.5, false],
  ])('dueInDays %d → ok %s', (days, ok) => {
    expect(validateClient({ ...base, dueInDays: days }, context(), 'api').ok).toBe(ok);
  });
});

describe('2.4 field rules', () => {
  it.each([
    ['email', 'not-an-email'],
    ['phone', '+91 98765 abc'],
    ['clientType', 'PERSON'],
    ['locale', 'en_IN'],
    ['country', 'India'],
    ['country', 'in'],
    ['gstin', '27AAPFU0939F1Z'],
    ['gstState', '40'],
    ['panNumber', 'AAPFU0939'],
    ['trnNumber', '200000000000003'],
    ['tinNumber', 'C12345'],
    ['sstNumber', 'ABC-1234-1234'],
    ['taxPayerType', 'VATR'],
  ])('%s %j is INVALID_FIELD_VALUE', (field, raw) => {
    expect(failures({ ...base, [field]: raw })).toEqual([[field, V]]);
  });

  it('state requires country in the same request', () => {
    expect(failures({ ...base, state: 'Maharashtra' })).toEqual([['state', V]]);
    expect(failures({ ...base, state: 'Maharashtra', country: null })).toEqual([['state', V]]);
    expect(valid({ ...base, state: 'Maharashtra', country: 'IN' }).state).toBe('Maharashtra');
  });

  it.each([
    [{ isClient: false }, [['isClient', V]]],
    [{ isClient: false, isVendor: false }, [['isVendor', V]]],
    [{ isVendor: false, isClient: false }, [['isClient', V]]],
  ])('isClient and isVendor cannot both be false: %j', (patch, expected) => {
    expect(failures({ ...base, ...patch })).toEqual(expected);
  });

  it('a vendor only is fine', () => {
    expect(valid({ ...base, isClient: false, isVendor: true })).toMatchObject({ isClient: false, isVendor: true });
  });

  it('taxPayerType follows the business country vocabulary and is refused outside IN and AE', () => {
    expect(valid({ ...base, taxPayerType: 'SEZ' }).taxPayerType).toBe('SEZ');
    expect(valid({ ...base, taxPayerType: 'VATRDZ' }, context({ businessCountry: 'AE' })).taxPayerType).toBe('VATRDZ');
    expect(failures({ ...base, taxPayerType: 'REG' }, context({ businessCountry: 'AE' }))).toEqual([
      ['taxPayerType', V],
    ]);
    expect(failures({ ...base, taxPayerType: 'REG' }, context({ businessCountry: 'GB' }))).toEqual([
      ['taxPayerType', V],
    ]);
    expect(valid({ ...base, taxPayerType: null }, context({ businessCountry: 'GB' })).taxPayerType).toBeNull();
  });

  it('enforces the GSTIN check character only when configured', () => {
    expect(valid({ ...base, gstin: '27AAPFU0939F1ZA' }).gstin).toBe('27AAPFU0939F1ZA');
    expect(failures({ ...base, gstin: '27AAPFU0939F1ZA' }, context({ enforceGstinChecksum: true }))).toEqual([
      ['gstin', V],
    ]);
    expect(
      failures({ ...base, shippingDetails: [{ gstin: '27AAPFU0939F1ZA' }] }, context({ enforceGstinChecksum: true })),
    ).toEqual([['shippingDetails[0].gstin', V]]);
  });

  it('stores e-mail and other values as sent, phone normalised', () => {
    const value = valid({ ...base, email: 'Billing@Acme.IN', phone: '98765-43210', vatNumber: ' gb 123 ' });
    expect([value.email, value.phone, value.vatNumber]).toEqual(['Billing@Acme.IN', '+9876543210', ' gb 123 ']);
  });
});

describe('2.7 bank accounts', () => {
  it.each([
    ['GB', '12-34-56'],
    ['IE', '123456'],
  ])('sortCode with bankCountry %s is kept', (bankCountry, sortCode) => {
    expect(valid({ ...base, bankAccounts: [{ sortCode, bankCountry }] }).bankAccounts[0]?.sortCode).toBe(sortCode);
  });
  it.each([
    [{ sortCode: '12-34-56' }, 'bankAccounts[0].sortCode'],
    [{ sortCode: '12-34-56', bankCountry: 'IN' }, 'bankAccounts[0].sortCode'],
    [{ sortCode: '12-3456', bankCountry: 'GB' }, 'bankAccounts[0].sortCode'],
    [{ sortCode: '1234567', bankCountry: 'GB' }, 'bankAccounts[0].sortCode'],
    [{ bankAccountType: 'savings' }, 'bankAccounts[0].bankAccountType'],
    [{ bankCountry: 'UK' }, 'bankAccounts[0].bankCountry'],
    [{ bankCurrency: 'RS' }, 'bankAccounts[0].bankCurrency'],
  ])('%j is INVALID_FIELD_VALUE', (account, field) => {
    expect(failures({ ...base, bankAccounts: [account] })).toEqual([[field, V]]);
  });
  it('fills unset members with null and isPrimary false', () => {
    expect(valid({ ...base, bankAccounts: [{ iban: 'GB00' }] }).bankAccounts).toEqual([
      {
        bankAccountName: null,
        bankAccountHolderName: null,
        bankAccountNumber: null,
        ifscCode: null,
        iban: 'GB00',
        sortCode: null,
        swift: null,
        bankAccountType: null,
        bankCountry: null,
        bankCurrency: null,
        isPrimary: false,
      },
    ]);
  });
  it('names unknown and wrongly typed members by path', () => {
    expect(failures({ ...base, bankAccounts: [{ isPrimary: 'yes', nickname: 'x' }, 'acct'] })).toEqual([
      ['bankAccounts[0].isPrimary', F],
      ['bankAccounts[0].nickname', F],
      ['bankAccounts[1]', F],
    ]);
  });
});

describe('operator mode', () => {
  it('needs a source other than API and refuses clientId', () => {
    const value = valid({ name: 'Walk-in', source: 'DASHBOARD' }, context(), 'operator');
    expect(value).toMatchObject({ clientId: null, source: 'DASHBOARD', name: 'Walk-in' });
    expect(failures({ name: 'x' }, context(), 'operator')).toEqual([['source', V]]);
    expect(failures({ name: 'x', source: 'API' }, context(), 'operator')).toEqual([['source', V]]);
    expect(failures({ clientId: 'c', name: 'x', source: 'ZOHO' }, context(), 'operator')).toEqual([['clientId', F]]);
    expect(failures({ name: 'x', source: 'ZOHO', createdAt: 'now' }, context(), 'operator')).toEqual([
      ['createdAt', F],
    ]);
  });
  it.each([
    'INVOICE',
    'CLIENT_DASHBOARD',
    'CLIENT_UPLOAD',
    'DASHBOARD',
    'INVOICE_BULK_UPLOAD',
    'LEADFORM',
    'PORTFOLIO',
    'ZOHO',
    'MARIKA',
    'LEADAPI',
  ])('source %s is accepted', (source) =>
    expect(valid({ name: 'x', source }, context(), 'operator').source).toBe(source),
  );
  it('the api value carries no source', () => expect('source' in valid(base)).toBe(false));
});

describe('7 multi-failure bodies: every failure, in body order, missing required first', () => {
  it('collects name and value errors across the body and its lists', () => {
    const body = {
      name: ' ',
      email: 'nope',
      foo: 1,
      isVendor: 'no',
      state: 'KA',
      shippingDetails: [{ gstin: 'x', bar: 2 }, { additionalIds: [{ label: 'UDY', value: 'bad' }] }],
      bankAccounts: [{ sortCode: '12-34-56' }],
      balance: {},
      customFields: { Nope: 1, 'Credit Limit': '10' },
    };
    expect(failures(body)).toEqual([
      ['clientId', V],
      ['name', V],
      ['email', V],
      ['foo', F],
      ['isVendor', F],
      ['state', V],
      ['shippingDetails[0].gstin', V],
      ['shippingDetails[0].bar', F],
      ['shippingDetails[1].additionalIds[0].value', V],
      ['bankAccounts[0].sortCode', V],
      ['balance', F],
      ['customFields', 'INVALID_CUSTOM_FIELD'],
      ['customFields.Credit Limit', 'INVALID_CUSTOM_FIELD_VALUE'],
    ]);
  });

  it('puts the first failure first and names fields as sent', () => {
    const result = validateClient({ clientId: 'c', name: 'n', pincode: repeat(21), Email: 'x' }, context(), 'api');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors[0]).toEqual({ field: 'pincode', message: 'pincode must be at most 20 characters', code: V });
      expect(result.errors[1]).toEqual({ field: 'Email', message: 'Email is not an accepted field', code: F });
    }
  });
});
