import type { TestApp } from './app.js';
import { call } from './app.js';
import { seedTenant, type Tenant } from './seed.js';

/** A pipeline configuration with every case the lead rules need: duplicates, archived entries, reasons. */
export const LEAD_PIPELINES = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW' },
        { name: 'Qualified', state: 'OPEN', reasons: ['budget'] },
        { name: 'Old step', state: 'OPEN', isArchived: true },
        { name: 'Won', state: 'CLOSED', reasons: ['price', 'fit'] },
        { name: 'Lost', state: 'DROPPED', reasons: ['price', 'gone'] },
      ],
    },
    { name: 'Sales', stages: [{ name: 'Second', state: 'OPEN' }] },
    {
      name: 'Partners',
      stages: [
        { name: 'Intro', state: 'NEW' },
        { name: 'Signed', state: 'CLOSED', reasons: ['fit'] },
      ],
    },
    { name: 'Retired', isArchived: true, stages: [{ name: 'Inside archived', state: 'OPEN' }] },
  ],
  stageReasons: [
    { key: 'price', label: 'Price' },
    { key: 'fit', label: 'Good fit' },
    { key: 'budget', label: 'Has budget' },
    { key: 'gone', label: 'Went away', isArchived: true },
  ],
};

export interface LeadTenant extends Tenant {
  leads: string;
  admin: string;
}

/**
 * A tenant with the pipelines above, tags, members and lead custom fields. Settings are written
 * through the store before the app first reads the business's lead context (fresh per tenant).
 */
export async function seedLeadTenant(
  t: TestApp,
  business: { customFieldsEnabled?: boolean; country?: string; currency?: string } = {},
): Promise<LeadTenant> {
  const tenant = await seedTenant(t.app, { customFieldsEnabled: true, ...business });
  const put = await call(t.app, 'PUT', `/admin/v1/businesses/${tenant.urlKey}/pipelines`, {
    token: tenant.operator,
    body: LEAD_PIPELINES,
  });
  if (put.status !== 200) throw new Error(`pipelines PUT failed: ${JSON.stringify(put.body)}`);
  const now = Date.now();
  await t.store.leadSettings.put(
    tenant.urlKey,
    'tags',
    [
      { id: 'tg_hot', name: 'Hot', isArchived: false },
      { id: 'tg_vip', name: 'VIP', isArchived: false },
      { id: 'tg_cold', name: 'cold', isArchived: false },
      { id: 'tg_old', name: 'Old', isArchived: true },
    ],
    now,
  );
  await t.store.leadSettings.put(
    tenant.urlKey,
    'members',
    [
      { id: 'mb_asha', email: 'asha@example.com', name: 'Asha', isArchived: false },
      { id: 'mb_ravi', email: 'ravi@example.com', name: 'Ravi', isArchived: true },
    ],
    now,
  );
  await t.store.leadSettings.put(
    tenant.urlKey,
    'customFields',
    [
      { id: 'lf_size', name: 'Team size', type: 'NUMBER', options: null, isArchived: false },
      { id: 'lf_tier', name: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'], isArchived: false },
      { id: 'lf_gone', name: 'Legacy', type: 'TEXT', options: null, isArchived: true },
    ],
    now,
  );
  return {
    ...tenant,
    leads: `/api/v1/businesses/${tenant.urlKey}/leads`,
    admin: `/admin/v1/businesses/${tenant.urlKey}/leads`,
  };
}

let counter = 0;
export const newExternalId = () => `ext-${process.pid}-${Date.now()}-${counter++}`;

/** The smallest valid create body. */
export const minimalLead = (overrides: Record<string, unknown> = {}) => ({
  externalId: newExternalId(),
  customer: { name: 'Asha Traders' },
  contact: { name: 'Asha Rao' },
  pipeline: 'Sales',
  stage: 'New',
  ...overrides,
});

export async function createLead(t: TestApp, tenant: LeadTenant, overrides: Record<string, unknown> = {}) {
  const r = await call(t.app, 'POST', tenant.leads, { token: tenant.token, body: minimalLead(overrides) });
  if (r.status !== 201) throw new Error(`lead create failed: ${JSON.stringify(r.body)}`);
  return r.body.data as Record<string, any>;
}

/** The first error of a 400 and every field named, for table assertions. */
export const failure = (body: any) => ({
  code: body?.data?.error?.code,
  fields: (body?.data?.error?.errors ?? []).map((e: any) => `${e.field}:${e.code}`),
});
