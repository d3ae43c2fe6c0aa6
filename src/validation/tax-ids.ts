/**
 * Tax identifiers (docs/derivation.md, docs/extending.md "Adding a tax country") as pure functions, each in its country's module
 * (src/tax/<country>.ts); collected here for callers that check an id by kind.
 */
export {
  GST_STATE_CODES,
  GSTIN_FORMS,
  GSTIN_JSON_PATTERN,
  gstinCheckCharacter,
  hasIssuedPanShape,
  isGstStateCode,
  isPan,
  panHolderType,
  parseGstin,
  type GstinForm,
  type GstinInfo,
  type GstinOptions,
} from '../tax/in.js';
export { isUaeTrn } from '../tax/ae.js';
export { isIndividualMalaysiaTin, isMalaysiaSst, isMalaysiaTin } from '../tax/my.js';
