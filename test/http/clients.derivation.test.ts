import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';
import { GSTIN } from '../helpers/gstin-samples.js';

const TRN = '100000000000003';

type Business = 'IN' | 'AE' | 'SA';
/** [row of docs/derivation.md, business country, body, the derived fields expected] */
type Row = [string, Business, Record<string, unknown>, Record<string, unknown>];

const ROWS: Row[] = [
  // country and locale
  ['country from the business, locale en-IN', 'IN', {}, { country: 'IN', locale: 'en-IN' }],
  ['sent country kept; English document country', 'IN', { country: 'AE' }, { country: 'AE', locale: 'en-AE' }],
  ['CLDR language of another country', 'IN', { country: 'DE' }, { country: 'DE', locale: 'de-DE' }],
  ['CLDR language of the business country', 'SA', {}, { country: 'SA', locale: 'ar-SA' }],
  ['sent locale kept', 'IN', { locale: 'hi-IN' }, { locale: 'hi-IN' }],
  // gstState and panNumber, by GSTIN form
  ['regular GSTIN', 'IN', { gstin: GSTIN.REGULAR_COMPANY }, { gstState: '27', panNumber: 'AAPFU0939F' }],
  ['TCS GSTIN', 'IN', { gstin: GSTIN.TCS }, { gstState: '07', panNumber: 'AAACA1234B' }],
  ['TDS GSTIN with a PAN', 'IN', { gstin: GSTIN.TDS_PAN }, { gstState: '29', panNumber: 'AAACB1234C' }],
  ['TDS GSTIN with a TAN', 'IN', { gstin: GSTIN.TDS_TAN }, { gstState: '07', panNumber: null }],
  ['government GSTIN', 'IN', { gstin: GSTIN.GOVERNMENT }, { gstState: '07', panNumber: null }],
  ['UIN', 'IN', { gstin: GSTIN.UIN }, { gstState: '07', panNumber: null }],
  ['NRI GSTIN', 'IN', { gstin: GSTIN.NRI }, { gstState: '07', panNumber: null }],
  ['OIDAR GSTIN', 'IN', { gstin: GSTIN.OIDAR }, { gstState: '99', panNumber: null }],
  [
    'sent PAN and state kept, no cross-check',
    'IN',
    { gstin: GSTIN.REGULAR_COMPANY, panNumber: 'ZZZZZ9999Z', gstState: '07' },
    { gstState: '07', panNumber: 'ZZZZZ9999Z' },
  ],
  // clientType
  ['PAN holder P: INDIVIDUAL', 'IN', { panNumber: 'ABCPE1234F' }, { clientType: 'INDIVIDUAL' }],
  ['PAN holder C: COMPANY', 'IN', { panNumber: 'AAACB1234C' }, { clientType: 'COMPANY' }],
  ["PAN from a person's GSTIN: INDIVIDUAL", 'IN', { gstin: GSTIN.REGULAR_PERSON }, { clientType: 'INDIVIDUAL' }],
  ['Malaysian TIN IG: INDIVIDUAL', 'SA', { country: 'MY', tinNumber: 'IG12345678901' }, { clientType: 'INDIVIDUAL' }],
  ['Malaysian TIN C: COMPANY', 'SA', { country: 'MY', tinNumber: 'C1234567890' }, { clientType: 'COMPANY' }],
  ['GSTIN without a PAN: COMPANY', 'IN', { gstin: GSTIN.UIN }, { clientType: 'COMPANY' }],
  ['UAE TRN: COMPANY', 'AE', { trnNumber: TRN }, { clientType: 'COMPANY' }],
  ['SST: COMPANY', 'SA', { country: 'MY', sstNumber: 'ABC-1234-12345678' }, { clientType: 'COMPANY' }],
  ['VAT number: COMPANY', 'SA', { vatNumber: '300000000000003' }, { clientType: 'COMPANY' }],
  ['no tax id: INDIVIDUAL', 'IN', {}, { clientType: 'INDIVIDUAL' }],
  ['sent clientType kept', 'IN', { gstin: GSTIN.REGULAR_PERSON, clientType: 'COMPANY' }, { clientType: 'COMPANY' }],
  // taxPayerType, business in India
  ['IN: regular GSTIN is REG', 'IN', { gstin: GSTIN.REGULAR_COMPANY }, { taxPayerType: 'REG' }],
  ['IN: TCS GSTIN is REG', 'IN', { gstin: GSTIN.TCS }, { taxPayerType: 'REG' }],
  ['IN: government GSTIN is REG', 'IN', { gstin: GSTIN.GOVERNMENT }, { taxPayerType: 'REG' }],
  ['IN: UIN is REG', 'IN', { gstin: GSTIN.UIN }, { taxPayerType: 'REG' }],
  ['IN: NRI GSTIN is REG', 'IN', { gstin: GSTIN.NRI }, { taxPayerType: 'REG' }],
  ['IN: TDS GSTIN is TDS', 'IN', { gstin: GSTIN.TDS_TAN }, { taxPayerType: 'TDS' }],
  ['IN: OIDAR GSTIN is EXP', 'IN', { gstin: GSTIN.OIDAR }, { taxPayerType: 'EXP' }],
  ['IN: foreign country without GSTIN is EXP', 'IN', { country: 'US' }, { taxPayerType: 'EXP' }],
  ['IN: company without GSTIN is UNREG', 'IN', { panNumber: 'AAACB1234C' }, { taxPayerType: 'UNREG' }],
  ['IN: person without GSTIN is B2C', 'IN', {}, { taxPayerType: 'B2C' }],
  ['IN: sent taxPayerType kept', 'IN', { gstin: GSTIN.REGULAR_COMPANY, taxPayerType: 'SEZ' }, { taxPayerType: 'SEZ' }],
  // taxPayerType, business in the UAE
  ['AE: TRN is VATR', 'AE', { trnNumber: TRN }, { taxPayerType: 'VATR' }],
  ['AE: foreign client with a TRN is VATR', 'AE', { country: 'GB', trnNumber: TRN }, { taxPayerType: 'VATR' }],
  ['AE: UAE client without TRN is VATNR', 'AE', {}, { taxPayerType: 'VATNR' }],
  [
    'AE: GCC client with a VAT number is GCCVATR',
    'AE',
    { country: 'SA', vatNumber: '300000000000003' },
    { taxPayerType: 'GCCVATR' },
  ],
  ['AE: GCC client without a VAT number is GCCVATNR', 'AE', { country: 'OM' }, { taxPayerType: 'GCCVATNR' }],
  ['AE: client outside the GCC is NGCC', 'AE', { country: 'IN' }, { taxPayerType: 'NGCC' }],
  ['AE: sent taxPayerType kept', 'AE', { taxPayerType: 'VATRDZ' }, { taxPayerType: 'VATRDZ' }],
  // taxPayerType elsewhere
  ['SA business: never derived', 'SA', { vatNumber: '300000000000003' }, { taxPayerType: null }],
];

describeEachStore('docs/derivation.md: every row through POST, read back by GET', (ctx) => {
  const tenants = {} as Record<Business, Tenant>;
  beforeAll(async () => {
    for (const country of ['IN', 'AE', 'SA'] as const) tenants[country] = await seedTenant(ctx().app, { country });
  });

  it.each(ROWS)('%s', async (_row, business, patch, expected) => {
    const t = tenants[business];
    const clientId = randomKey('derive');
    const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Derived', ...patch },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.token });
    for (const answer of [created.body.data, read.body.data]) {
      expect(Object.fromEntries(Object.keys(expected).map((key) => [key, answer[key]]))).toEqual(expected);
    }
    // Restating what was derived is an identical retry (4.4 rule 2).
    const restated = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Derived', ...patch, ...expected },
    });
    expect(restated.status).toBe(201);
    expect(restated.body.data.idempotent).toBe(true);
  });
});
