import type { BusinessContext } from './business-context.js';
import { presentClient } from './client.present.js';
import { validateClient } from './client.validate.js';

/**
 * The create example of the OpenAPI document, and its answer computed by the real validator, deriver and
 * presenter, so the example shows exactly what the service derives (panNumber, gstState, locale, ...).
 */

export const EXAMPLE_CLIENT = {
  clientId: 'crm-000123',
  name: 'Asha Traders',
  email: 'accounts@ashatraders.example',
  phone: '+91 98200 12345',
  street: '14 MG Road',
  city: 'Pune',
  state: 'Maharashtra',
  pincode: '411001',
  country: 'IN',
  gstin: '27AAPFU0939F1ZV',
  additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-26-0012345', showInInvoice: true }],
  bankAccounts: [
    {
      bankAccountName: 'HDFC Bank',
      bankAccountNumber: '50100012345678',
      ifscCode: 'HDFC0000123',
      bankAccountType: 'CURRENT',
      isPrimary: true,
    },
  ],
};

const EXAMPLE_TIME = Date.parse('2025-01-15T09:30:00.000Z');

const EXAMPLE_BUSINESS: BusinessContext = {
  business: {
    urlKey: 'asha',
    name: 'Example business',
    country: 'IN',
    currency: 'INR',
    customFieldsEnabled: false,
    timeZone: null,
    createdAt: EXAMPLE_TIME,
    updatedAt: EXAMPLE_TIME,
  },
  customFields: [],
  liveFieldIds: new Set(),
};

export function exampleClientAnswer(): Record<string, unknown> {
  const result = validateClient(
    EXAMPLE_CLIENT,
    {
      businessCountry: 'IN',
      customFieldsEnabled: false,
      customFields: [],
      enforceGstinChecksum: true,
    },
    'api',
  );
  if (!result.ok) throw new Error(`openapi: the client example does not validate: ${JSON.stringify(result.errors)}`);
  return presentClient(
    {
      clientId: EXAMPLE_CLIENT.clientId,
      status: 'active',
      source: 'API',
      data: result.value,
      balance: {},
      createdAt: EXAMPLE_TIME,
      updatedAt: EXAMPLE_TIME,
    },
    EXAMPLE_BUSINESS,
  );
}
