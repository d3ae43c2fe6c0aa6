import { describe, expect, it } from 'vitest';
import { deriveClientType, deriveTaxPayerType, type TaxIdEvidence } from '../../src/clients/client.derive.js';
import { base, context, valid } from './support/client-context.js';
import { GSTIN } from '../helpers/gstin-samples.js';

describe('derivation: panNumber and gstState from gstin', () => {
  it.each([
    ['REGULAR', GSTIN.REGULAR_COMPANY, 'AAPFU0939F', '27'],
    ['TCS', GSTIN.TCS, 'AAACA1234B', '07'],
    ['TDS with a PAN', GSTIN.TDS_PAN, 'AAACB1234C', '29'],
    ['TDS with a TAN', GSTIN.TDS_TAN, null, '07'],
    ['GOVERNMENT', GSTIN.GOVERNMENT, null, '07'],
    ['UIN', GSTIN.UIN, null, '07'],
    ['NRI', GSTIN.NRI, null, '07'],
    ['OIDAR', GSTIN.OIDAR, null, '99'],
  ])('%s', (_form, gstin, pan, state) => {
    const value = valid({ ...base, gstin });
    expect([value.panNumber, value.gstState]).toEqual([pan, state]);
  });

  it('keeps sent values without cross-checking them', () => {
    const value = valid({ ...base, gstin: GSTIN.REGULAR_COMPANY, panNumber: 'ZZZZZ9999Z', gstState: '07' });
    expect([value.panNumber, value.gstState]).toEqual(['ZZZZZ9999Z', '07']);
  });
});

describe('derivation: country and locale', () => {
  it.each([
    ['IN', {}, 'IN', 'en-IN'],
    ['IN', { country: 'AE' }, 'AE', 'en-AE'],
    ['AE', {}, 'AE', 'en-AE'],
    ['IN', { country: 'SA' }, 'SA', 'ar-SA'],
    ['GB', { country: 'DE' }, 'DE', 'de-DE'],
    ['IN', { locale: 'hi-IN' }, 'IN', 'hi-IN'],
    ['', {}, null, null],
    ['', { country: 'FR' }, 'FR', 'fr-FR'],
  ])('business %s, body %j → country %s, locale %s', (businessCountry, patch, country, locale) => {
    const value = valid({ ...base, ...patch }, context({ businessCountry }));
    expect([value.country, value.locale]).toEqual([country, locale]);
  });
});

type Row = [name: string, patch: Record<string, unknown>, expected: string];

describe('derivation: clientType', () => {
  const none: TaxIdEvidence = {
    panNumber: null,
    tinNumber: null,
    gstin: null,
    trnNumber: null,
    sstNumber: null,
    vatNumber: null,
  };
  it.each<Row>([
    ['PAN holder P (person)', { panNumber: 'ABCPE1234F' }, 'INDIVIDUAL'],
    ...['C', 'H', 'F', 'A', 'T', 'B', 'L', 'J', 'G', 'E'].map(
      (type) => [`PAN holder ${type}`, { panNumber: `ABC${type}E1234F` }, 'COMPANY'] as Row,
    ),
    ['Malaysian TIN IG (individual)', { tinNumber: 'IG12345678901' }, 'INDIVIDUAL'],
    ['Malaysian TIN SG (individual, old)', { tinNumber: 'SG1234567890' }, 'INDIVIDUAL'],
    ['Malaysian TIN OG (individual, old)', { tinNumber: 'OG1234567890' }, 'INDIVIDUAL'],
    ['Malaysian TIN C (company)', { tinNumber: 'C1234567890' }, 'COMPANY'],
    ['GSTIN without a PAN', { gstin: GSTIN.UIN }, 'COMPANY'],
    ['UAE TRN', { trnNumber: '100000000000003' }, 'COMPANY'],
    ['SST', { sstNumber: 'ABC-1234-12345678' }, 'COMPANY'],
    ['VAT number', { vatNumber: 'GB123' }, 'COMPANY'],
    ['no tax id', {}, 'INDIVIDUAL'],
    ['PAN P wins over a TRN', { panNumber: 'ABCPE1234F', trnNumber: '100000000000003' }, 'INDIVIDUAL'],
  ])('%s → %s', (_name, ids, type) => {
    expect(deriveClientType({ ...none, ...ids })).toBe(type);
  });

  it.each([
    [{ gstin: GSTIN.REGULAR_PERSON }, 'INDIVIDUAL'],
    [{ gstin: GSTIN.REGULAR_COMPANY }, 'COMPANY'],
    [{ gstin: GSTIN.REGULAR_COMPANY, panNumber: 'ABCPE1234F' }, 'INDIVIDUAL'],
    [{ gstin: GSTIN.REGULAR_PERSON, clientType: 'COMPANY' }, 'COMPANY'],
  ])('through validateClient: %j → %s', (patch, type) => {
    expect(valid({ ...base, ...patch }).clientType).toBe(type);
  });
});

describe('derivation: taxPayerType for an Indian business', () => {
  it.each([
    ['regular GSTIN', { gstin: GSTIN.REGULAR_COMPANY }, 'REG'],
    ['regular GSTIN of a person', { gstin: GSTIN.REGULAR_PERSON }, 'REG'],
    ['TCS GSTIN', { gstin: GSTIN.TCS }, 'REG'],
    ['TDS GSTIN (PAN)', { gstin: GSTIN.TDS_PAN }, 'TDS'],
    ['TDS GSTIN (TAN)', { gstin: GSTIN.TDS_TAN }, 'TDS'],
    ['government GSTIN', { gstin: GSTIN.GOVERNMENT }, 'REG'],
    ['UIN', { gstin: GSTIN.UIN }, 'REG'],
    ['NRI GSTIN', { gstin: GSTIN.NRI }, 'REG'],
    ['OIDAR GSTIN', { gstin: GSTIN.OIDAR }, 'EXP'],
    ['GSTIN with a foreign country', { gstin: GSTIN.REGULAR_COMPANY, country: 'US' }, 'REG'],
    ['foreign country, no GSTIN', { country: 'US' }, 'EXP'],
    ['foreign company', { country: 'AE', trnNumber: '100000000000003' }, 'EXP'],
    ['no GSTIN, company PAN', { panNumber: 'AAACB1234C' }, 'UNREG'],
    ['no GSTIN, person PAN', { panNumber: 'ABCPE1234F' }, 'B2C'],
    ['no GSTIN, no tax id', {}, 'B2C'],
    ['no GSTIN, sent COMPANY', { clientType: 'COMPANY' }, 'UNREG'],
    ['sent value kept', { gstin: GSTIN.REGULAR_COMPANY, taxPayerType: 'SEZ' }, 'SEZ'],
  ])('%s → %s', (_name, patch, type) => {
    expect(valid({ ...base, ...patch }, context({ businessCountry: 'IN' })).taxPayerType).toBe(type);
  });
});

describe('derivation: taxPayerType for a UAE business', () => {
  it.each<Row>([
    ['UAE client with TRN', {}, 'VATR'],
    ['UAE client without TRN', { trnNumber: null }, 'VATNR'],
    ['foreign client with a UAE TRN', { country: 'GB' }, 'VATR'],
    ...['SA', 'BH', 'KW', 'OM', 'QA'].map(
      (c) =>
        [`GCC ${c} with VAT number`, { country: c, trnNumber: null, vatNumber: '300000000000003' }, 'GCCVATR'] as Row,
    ),
    ...['SA', 'BH', 'KW', 'OM', 'QA'].map(
      (c) => [`GCC ${c} without VAT number`, { country: c, trnNumber: null }, 'GCCVATNR'] as Row,
    ),
    ['non-GCC client', { country: 'IN', trnNumber: null }, 'NGCC'],
    ['non-GCC client with VAT number', { country: 'GB', trnNumber: null, vatNumber: 'GB1' }, 'NGCC'],
    ['sent value kept', { taxPayerType: 'VATRDZ' }, 'VATRDZ'],
  ])('%s → %s', (_name, patch, type) => {
    const body = { ...base, trnNumber: '100000000000003', ...patch };
    expect(valid(body, context({ businessCountry: 'AE' })).taxPayerType).toBe(type);
  });
});

describe('derivation: taxPayerType elsewhere', () => {
  it.each(['GB', 'US', 'SA', 'MY', ''])('business %s → null', (country) => {
    const ids = {
      gstin: '27AAPFU0939F1ZV',
      gstState: null,
      panNumber: null,
      trnNumber: null,
      tinNumber: null,
      sstNumber: null,
      vatNumber: null,
    };
    expect(deriveTaxPayerType(country, { country: 'IN', clientType: 'COMPANY', ids })).toBeNull();
  });
});
