import { entry } from '../validation/field-spec.js';
import { BALANCE_DECIMALS } from '../storage/client-batches.js';
import { BALANCE_MEMBERS } from './client.present.js';

/** POST /admin/v1/businesses/:urlKey/clients/:clientId/documents: an amount added to one balance member. */
export const DOCUMENT_RULES = entry(
  'DocumentInput',
  "A document adding an amount to one member of the client's balance.",
  [
    [
      'type',
      {
        type: 'string',
        required: true,
        enum: BALANCE_MEMBERS,
        description: 'The balance member the document adds to.',
      },
    ],
    [
      'amount',
      {
        type: 'number',
        required: true,
        exclusiveMinimum: -1e12,
        exclusiveMaximum: 1e12,
        message: 'is out of range',
        description: `Any finite amount below 10^12 in magnitude, negative for corrections; kept to ${BALANCE_DECIMALS} decimal places, rounded half away from zero.`,
      },
    ],
  ],
);
