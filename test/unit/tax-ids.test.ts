import { describe, expect, it } from 'vitest';
import {
  GSTIN_FORMS,
  GST_STATE_CODES,
  gstinCheckCharacter,
  isGstStateCode,
  isMalaysiaSst,
  isMalaysiaTin,
  isPan,
  isUaeTrn,
  panHolderType,
  parseGstin,
} from '../../src/validation/tax-ids.js';

const withCheck = (first14: string): string => first14 + gstinCheckCharacter(first14);

/** One sample per form, with a correct check character, and what parsing must give. */
const FORM_SAMPLES = [
  { gstin: '27AAPFU0939F1ZV', form: 'REGULAR', stateCode: '27', pan: 'AAPFU0939F' },
  { gstin: withCheck('29AAACB1234C1Z'), form: 'REGULAR', stateCode: '29', pan: 'AAACB1234C' },
  { gstin: withCheck('07AAACA1234B1C'), form: 'TCS', stateCode: '07', pan: 'AAACA1234B' },
  { gstin: withCheck('29AAACB1234C1D'), form: 'TDS', stateCode: '29', pan: 'AAACB1234C' },
  { gstin: withCheck('07DELA12345B1D'), form: 'TDS', stateCode: '07', pan: null },
  { gstin: withCheck('07DELG12345A1Z'), form: 'GOVERNMENT', stateCode: '07', pan: null },
  { gstin: withCheck('0717UNO00157UN'), form: 'UIN', stateCode: '07', pan: null },
  { gstin: withCheck('0718USA00001ON'), form: 'UIN', stateCode: '07', pan: null },
  { gstin: withCheck('0718USA00001NR'), form: 'NRI', stateCode: '07', pan: null },
  { gstin: withCheck('9917USA29001OS'), form: 'OIDAR', stateCode: '99', pan: null },
  { gstin: withCheck('97AAACB1234C1Z'), form: 'REGULAR', stateCode: '97', pan: 'AAACB1234C' },
] as const;

describe('2.4 GSTIN forms', () => {
  it.each(FORM_SAMPLES)('$gstin parses as $form', ({ gstin, form, stateCode, pan }) => {
    expect(parseGstin(gstin)).toEqual({ form, stateCode, pan });
    expect(parseGstin(gstin, { enforceChecksum: true })).toEqual({ form, stateCode, pan });
  });

  it('covers every form with a sample', () => {
    const sampled = new Set(FORM_SAMPLES.map((sample) => sample.form));
    expect([...sampled].sort()).toEqual(GSTIN_FORMS.map((rule) => rule.form).sort());
  });

  const INVALID = [
    ['14 characters (one short)', '27AAPFU0939F1Z'],
    ['16 characters (one past)', '27AAPFU0939F1ZVX'],
    ['lowercase', '27aapfu0939f1zv'],
    ['unknown state code 00', withCheck('00AAPFU0939F1Z')],
    ['unknown state code 39', withCheck('39AAPFU0939F1Z')],
    ['unknown state code 98', withCheck('98AAPFU0939F1Z')],
    ['entity number 0', withCheck('27AAPFU0939F0Z')],
    ['14th character not Z/C/D', withCheck('27AAPFU0939F1X')],
    ['PAN part with digit in letter place', withCheck('27AAP1U0939F1Z')],
    ['OIDAR outside state 99', withCheck('0717USA29001OS')],
    ['UIN with wrong suffix', withCheck('0717UNO00157UX')],
    ['empty', ''],
    ['surrounding space', ' 27AAPFU0939F1ZV'],
  ] as const;
  it.each(INVALID)('rejects %s', (_name, gstin) => {
    expect(parseGstin(gstin)).toBeNull();
  });

  it('does not enforce the check character by default, and enforces it on request', () => {
    expect(parseGstin('27AAPFU0939F1ZA')?.form).toBe('REGULAR');
    expect(parseGstin('27AAPFU0939F1ZA', { enforceChecksum: true })).toBeNull();
  });

  it.each([
    ['27AAPFU0939F1Z', 'V'],
    ['29AAGCB7383J1Z', '4'],
  ])('mod-36 check character of %s is %s', (first14, check) => {
    expect(gstinCheckCharacter(first14)).toBe(check);
  });
});

describe('2.4 GST state codes', () => {
  it('lists 01 to 38, 97 and 99', () => {
    const expected = [...Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0')), '97', '99'];
    expect([...GST_STATE_CODES.keys()]).toEqual(expected);
  });
  it.each(['01', '27', '38', '97', '99'])('%s is a state code', (code) => expect(isGstStateCode(code)).toBe(true));
  it.each(['00', '39', '96', '98', '7', '007', 'AA'])('%s is not', (code) => expect(isGstStateCode(code)).toBe(false));
});

describe('2.4 PAN: "10 alphanumeric characters"', () => {
  it.each([
    'AAPFU0939F',
    'ABCPE1234F',
    'ZZZZZ9999Z',
    'aapfu0939f',
    'AAPF10939F',
    'AAPFU093AF',
    'AAPFU09391',
    '1234567890',
    'ABCDEFGHIJ',
  ])('%s is a PAN', (pan) => expect(isPan(pan)).toBe(true));
  it.each(['AAPFU0939', 'AAPFU0939FF', 'AAPFU-939F', 'AAPFU 939F', 'AAPFU0939É', ''])('%s is not a PAN', (pan) =>
    expect(isPan(pan)).toBe(false),
  );
  it('reads the holder type from the 4th character', () => {
    expect(panHolderType('ABCPE1234F')).toBe('P');
    expect(panHolderType('AAACB1234C')).toBe('C');
  });
});

describe('2.4 UAE TRN, Malaysian TIN and SST', () => {
  it.each([
    ['100000000000003', true],
    ['199999999999999', true],
    ['10000000000000', false],
    ['1000000000000031', false],
    ['200000000000003', false],
    ['10000000000000A', false],
  ])('TRN %s → %s', (trn, ok) => expect(isUaeTrn(trn)).toBe(ok));

  it.each([
    ['C123456789', true],
    ['IG12345678901', true],
    ['C12345678901234', true],
    ['C12345678', false],
    ['C123456789012345', false],
    ['c123456789', false],
    ['C1234-56789', false],
  ])('TIN %s → %s', (tin, ok) => expect(isMalaysiaTin(tin)).toBe(ok));

  it.each([
    ['ABC-1234-12345678', true],
    ['W10-1808-31000001', true],
    ['AB1-1234-12345678', false],
    ['ABC-123-12345678', false],
    ['ABC-1234-1234567', false],
    ['ABC-1234-123456789', false],
    ['abc-1234-12345678', false],
    ['ABC12341234567 8', false],
  ])('SST %s → %s', (sst, ok) => expect(isMalaysiaSst(sst)).toBe(ok));
});
