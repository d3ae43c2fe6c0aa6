import { choiceRule, magnitudeRule, type MemberRule } from '../operator/body-shape.js';
import { BALANCE_MEMBERS } from './client.present.js';

/** POST /admin/v1/businesses/:urlKey/clients/:clientId/documents: an amount added to one balance member. */
export const DOCUMENT_RULES: Record<string, MemberRule> = {
  type: {
    ...choiceRule(BALANCE_MEMBERS, `type must be one of ${BALANCE_MEMBERS.join(', ')}`, 'The balance member the document adds to.'),
    required: true,
  },
  amount: {
    ...magnitudeRule(1e12, 'amount is out of range', 'Any finite amount below 10^12 in magnitude, negative for corrections; kept to 4 decimal places.'),
    required: true,
  },
};
