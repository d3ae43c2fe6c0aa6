import { gstinCheckCharacter } from '../../src/validation/tax-ids.js';

const withCheck = (first14: string): string => first14 + gstinCheckCharacter(first14);

/** One GSTIN of each form (docs/derivation.md), with a correct check character. */
export const GSTIN = {
  REGULAR_COMPANY: '27AAPFU0939F1ZV',
  REGULAR_PERSON: withCheck('29ABCPE1234F1Z'),
  TCS: withCheck('07AAACA1234B1C'),
  TDS_PAN: withCheck('29AAACB1234C1D'),
  TDS_TAN: withCheck('07DELA12345B1D'),
  GOVERNMENT: withCheck('07DELG12345A1Z'),
  UIN: withCheck('0717UNO00157UN'),
  NRI: withCheck('0718USA00001NR'),
  OIDAR: withCheck('9917USA29001OS'),
};
