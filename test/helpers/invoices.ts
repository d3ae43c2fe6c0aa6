import { expect } from 'vitest';
import { call, type TestApp } from './app.js';
import { seedTenant, type Tenant } from './seed.js';

export interface InvoiceTenant extends Tenant {
  invoices: string;
  alias: string;
  admin: string;
}

/** A business of its own (India by default) with saved billing details (gstState 29), as section 9's examples need. */
export async function seedInvoiceTenant(
  t: TestApp,
  business: { country?: string; currency?: string } = {},
  billedBy: Record<string, unknown> = { gstState: '29' },
): Promise<InvoiceTenant> {
  const tenant = await seedTenant(t.app, business);
  const admin = `/admin/v1/businesses/${tenant.urlKey}`;
  const saved = await call(t.app, 'PUT', `${admin}/invoice-settings`, {
    token: tenant.operator,
    body: { billedBy, numbering: {}, defaultTerms: [] },
  });
  if (saved.status !== 200) throw new Error(`invoice settings failed: ${JSON.stringify(saved.body)}`);
  return {
    ...tenant,
    invoices: `/api/v1/businesses/${tenant.urlKey}/invoices`,
    alias: `/businesses/${tenant.urlKey}/invoices`,
    admin,
  };
}

/** Section 9.1's items: 100 × 2 at 18%, 200 × 6 at 12%. */
export const VENDOR_ITEMS = [
  { name: 'one', rate: 100, quantity: 2, gstRate: 18 },
  { name: 'two', rate: 200, quantity: 6, gstRate: 12 },
];

export const buyer = (overrides: Record<string, unknown> = {}) => ({
  name: 'Asha Traders',
  country: 'IN',
  gstState: '29',
  ...overrides,
});

export async function createInvoice(
  t: TestApp,
  tenant: InvoiceTenant,
  body: Record<string, unknown> = {},
): Promise<any> {
  const response = await call(t.app, 'POST', tenant.invoices, {
    token: tenant.token,
    body: { billedTo: buyer(), items: VENDOR_ITEMS, ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export const firstError = (response: { body: any }) =>
  response.body.data.error as {
    code: string;
    message: string;
    errors?: { field: string; code: string }[];
    existingInvoiceId?: string;
    amountDue?: number;
  };
