import { describe, expect, it } from 'vitest';
import { sameClient } from '../../src/clients/client.compare.js';
import type { ClientValue } from '../../src/clients/client.types.js';
import { base, context, valid } from './support/client-context.js';

const LIVE = new Set(['cf-region', 'cf-notes', 'cf-limit', 'cf-since', 'cf-vip']);

const FULL = {
  ...base,
  alias: 'ACME',
  email: 'Billing@Acme.in',
  phone: '+91 98765 43210',
  country: 'SA',
  isVendor: true,
  additionalIds: [
    { label: 'NAT', value: '1' },
    { label: 'CRN', value: '2', showInInvoice: true },
  ],
  shippingDetails: [
    {
      name: 'Dock A',
      customHeaders: [
        { label: 'Gate', value: '1' },
        { label: 'Bay', value: '2' },
      ],
      additionalIds: [
        { label: 'NAT', value: '9' },
        { label: 'OTH', value: '8' },
      ],
    },
    { name: 'Dock B' },
  ],
  bankAccounts: [{ iban: 'SA01' }, { iban: 'SA02', isPrimary: true }],
  customFields: { Region: 'North', Notes: 'n' },
};

const stored = valid(FULL);
const same = (patch: Record<string, unknown>, live = LIVE): boolean =>
  sameClient(stored, valid({ ...FULL, ...patch }), live);

describe('4.4 rule 2: identical retries', () => {
  it.each([
    ['the same body', {}],
    ['e-mail case', { email: 'BILLING@acme.IN' }],
    ['phone formatting', { phone: '(+91) 98765-43210' }],
    ['padded clientId and name', { clientId: '  c-1 ', name: 'Acme  ' }],
    ['restated derived values', { locale: 'ar-SA', clientType: 'INDIVIDUAL', gstState: null }],
    ['omitted defaults stated', { isClient: true, phoneShowInInvoice: false, vatLabel: 'VAT Number' }],
    ['defaults as null', { isClient: null, emailShowInInvoice: null, vatLabel: null }],
    ['reordered additionalIds', { additionalIds: [FULL.additionalIds[1], FULL.additionalIds[0]] }],
    ['reordered bankAccounts', { bankAccounts: [FULL.bankAccounts[1], FULL.bankAccounts[0]] }],
    ['reordered shippingDetails', { shippingDetails: [FULL.shippingDetails[1], FULL.shippingDetails[0]] }],
    [
      'reordered nested customHeaders and additionalIds',
      {
        shippingDetails: [
          {
            ...FULL.shippingDetails[0],
            customHeaders: [
              { label: 'Bay', value: '2' },
              { label: 'Gate', value: '1' },
            ],
            additionalIds: [
              { label: 'OTH', value: '8' },
              { label: 'NAT', value: '9' },
            ],
          },
          FULL.shippingDetails[1],
        ],
      },
    ],
    ['custom field names in another case', { customFields: { REGION: 'North', notes: 'n' } }],
    [
      'a useForEInvoice: false stated',
      { additionalIds: [{ label: 'NAT', value: '1', useForEInvoice: false }, FULL.additionalIds[1]] },
    ],
  ])('%s', (_name, patch) => {
    expect(same(patch)).toBe(true);
  });

  it('omitting fields the service derived', () => {
    const derivedStored = valid({
      ...base,
      gstin: '27AAPFU0939F1ZV',
      panNumber: 'AAPFU0939F',
      gstState: '27',
      country: 'IN',
      locale: 'en-IN',
      taxPayerType: 'REG',
      clientType: 'COMPANY',
    });
    expect(sameClient(derivedStored, valid({ ...base, gstin: '27AAPFU0939F1ZV' }), LIVE)).toBe(true);
  });

  it('ignores source (rule 3)', () => {
    const dashboard = valid({ name: 'x', source: 'DASHBOARD' }, context(), 'operator');
    const zoho = valid({ name: 'x', source: 'ZOHO' }, context(), 'operator');
    expect(sameClient(dashboard, zoho, LIVE)).toBe(true);
  });
});

describe('4.4 rule 4 and every other difference: conflicts', () => {
  it.each([
    ['dropped alias', { alias: null }],
    ['another alias', { alias: 'Acme' }],
    ['another name case', { name: 'ACME' }],
    ['another phone', { phone: '+91 98765 43211' }],
    ['another e-mail', { email: 'sales@acme.in' }],
    ['dropped e-mail', { email: undefined }],
    ['a non-default flag', { emailShowInInvoice: true }],
    ['another derived value sent', { locale: 'en-SA' }],
    ['an extra additional id', { additionalIds: [...FULL.additionalIds, { label: 'OTH', value: '3' }] }],
    ['one additional id fewer', { additionalIds: [FULL.additionalIds[0]] }],
    [
      'a changed showInInvoice',
      { additionalIds: [{ ...FULL.additionalIds[0], showInInvoice: true }, FULL.additionalIds[1]] },
    ],
    ['a duplicated bank account', { bankAccounts: [FULL.bankAccounts[0], FULL.bankAccounts[0], FULL.bankAccounts[1]] }],
    [
      'a changed nested header',
      {
        shippingDetails: [
          { ...FULL.shippingDetails[0], customHeaders: [{ label: 'Gate', value: '2' }] },
          FULL.shippingDetails[1],
        ],
      },
    ],
    ['a dropped custom field value', { customFields: { Region: 'North' } }],
    ['a changed custom field value', { customFields: { Region: 'South', Notes: 'n' } }],
    ['an added custom field value', { customFields: { Region: 'North', Notes: 'n', VIP: true } }],
    ['dueInDays set', { dueInDays: 0 }],
  ])('%s', (_name, patch) => {
    expect(same(patch)).toBe(false);
  });

  it('different clientIds are different clients', () => expect(same({ clientId: 'c-2' })).toBe(false));
});

describe('decisions.md: custom fields compare by live field id only', () => {
  it('ignores values under a field archived or removed since the first call', () => {
    const live = new Set(['cf-region']);
    expect(same({ customFields: { Region: 'North' } }, live)).toBe(true);
    expect(same({ customFields: { Region: 'South' } }, live)).toBe(false);
  });

  it('still matches after a rename, since values are keyed by id', () => {
    const renamed = context({
      customFields: [
        { id: 'cf-region', name: 'Zone', type: 'SELECT', options: ['North', 'South'], isArchived: false },
        { id: 'cf-notes', name: 'Notes', type: 'TEXT', options: null, isArchived: false },
      ],
    });
    expect(sameClient(stored, valid({ ...FULL, customFields: { Zone: 'North', Notes: 'n' } }, renamed), LIVE)).toBe(
      true,
    );
  });

  it('treats members missing from an older stored document as null', () => {
    const older = { ...stored } as Partial<ClientValue>;
    delete older.dueInDays;
    expect(sameClient(older as ClientValue, valid(FULL), LIVE)).toBe(true);
  });
});
