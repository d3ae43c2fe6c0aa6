import { call, type TestApp } from './app.js';
import { insertLeads, type LeadSpec } from './lead-rows.js';
import { seedTenant, type Tenant } from './seed.js';
import { withLeadSettingsDefaults } from '../../src/leads/lead-settings.defaults.js';

/** A business with configuration to filter by: pipelines (one archived), tags, members, by name → id. */
export interface ListTenant extends Tenant {
  pipelines: Record<string, { id: string; stages: Record<string, string> }>;
  tags: Record<string, string>;
  members: Record<string, string>;
}

async function put(ctx: TestApp, t: Tenant, list: string, body: unknown): Promise<any> {
  const answer = await call(ctx.app, 'PUT', `/admin/v1/businesses/${t.urlKey}/${list}`, { token: t.operator, body });
  if (answer.status !== 200) throw new Error(`PUT ${list}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

export async function seedListTenant(ctx: TestApp): Promise<ListTenant> {
  const t = await seedTenant(ctx.app);
  const config = await put(ctx, t, 'pipelines', {
    pipelines: [
      {
        name: 'Sales',
        isPrimary: true,
        stages: [
          { name: 'New', state: 'NEW' },
          { name: 'Talking', state: 'OPEN' },
          { name: 'Won', state: 'CLOSED' },
          { name: 'Lost', state: 'DROPPED' },
        ],
      },
      {
        name: 'Partners',
        stages: [
          { name: 'New', state: 'NEW' },
          { name: 'Signed', state: 'CLOSED' },
        ],
      },
      { name: 'Legacy', isArchived: true, stages: [{ name: 'Old', state: 'OPEN' }] },
    ],
    stageReasons: [],
  });
  const pipelines: ListTenant['pipelines'] = {};
  for (const p of config[0].pipelines)
    pipelines[p.name] = { id: p.id, stages: Object.fromEntries(p.stages.map((s: any) => [s.name, s.id])) };
  await put(ctx, t, 'tags', { tags: [{ name: 'VIP' }, { name: 'Hot' }, { name: 'Old', isArchived: true }] });
  await put(ctx, t, 'members', {
    members: [
      { email: 'asha@x.in', name: 'Asha' },
      { email: 'bo@x.in', name: 'Bo', isArchived: true },
    ],
  });
  // Member ids are not in any answer (members are known by e-mail): read from the store.
  const settings = withLeadSettingsDefaults((await ctx.store.leadSettings.get(t.urlKey))!);
  return {
    ...t,
    pipelines,
    tags: Object.fromEntries(settings.tags.map((tag) => [tag.name, tag.id])),
    members: Object.fromEntries(settings.members.map((m) => [m.email, m.id])),
  };
}

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 10, 12);

/**
 * Six leads, each set so that every filter tells some apart; L5 is removed (never listed). Created a
 * day apart from T0 (L6 at the same instant as L1: ties go by leadId).
 */
export function sixLeads(t: ListTenant): Record<string, LeadSpec> {
  const sales = t.pipelines.Sales!;
  return {
    L1: {
      leadId: 'ld_a1',
      pipelineId: sales.id,
      stageId: sales.stages.New!,
      tagIds: [t.tags.VIP!],
      leadSourceKey: 'WEBSITE',
      assigneeId: t.members['asha@x.in']!,
      followUpDate: '2026-12-01',
      budget: { amount: 5000, currency: 'INR' },
      subject: 'Café renovation',
      details: 'Needs espresso machines',
      customerName: 'Zeta Foods',
      clientId: 'zeta',
      contactId: 'ct_ravi',
      contactName: 'Ravi Kumar',
      contactEmail: 'ravi@zeta.in',
      contactPhone: '+919812345678',
      createdAt: T0,
    },
    L2: {
      leadId: 'ld_b2',
      pipelineId: sales.id,
      stageId: sales.stages.Talking!,
      tagIds: [t.tags.Hot!],
      leadSourceKey: 'REFERRAL',
      subject: 'Website redesign',
      details: 'Renovation of the cafe website',
      customerName: 'Omega Ltd',
      createdAt: T0 + DAY,
    },
    L3: {
      leadId: 'ld_c3',
      pipelineId: t.pipelines.Partners!.id,
      stageId: t.pipelines.Partners!.stages.Signed!,
      tagIds: [t.tags.VIP!, t.tags.Hot!],
      leadSourceKey: 'EMAIL',
      assigneeId: t.members['bo@x.in']!,
      followUpDate: '2026-11-30',
      budget: { amount: 100, currency: 'INR' },
      subject: 'Partner deal',
      createdAt: T0 + 2 * DAY,
    },
    L4: {
      leadId: 'ld_d4',
      pipelineId: t.pipelines.Legacy!.id,
      stageId: t.pipelines.Legacy!.stages.Old!,
      tagIds: [t.tags.Old!],
      createdAt: T0 + 3 * DAY,
    },
    L5: {
      leadId: 'ld_e5',
      removed: true,
      pipelineId: sales.id,
      stageId: sales.stages.New!,
      subject: 'Café removed',
      createdAt: T0 + 4 * DAY,
    },
    L6: {
      leadId: 'ld_f6',
      pipelineId: sales.id,
      stageId: sales.stages.Won!,
      budget: { amount: 900, currency: 'INR' },
      followUpDate: '2026-12-05',
      createdAt: T0,
    },
  };
}

/** Lead ids are unique across the shared test database: each tenant's get a suffix of their own. */
export async function seedSixLeads(ctx: TestApp, t: ListTenant): Promise<Record<string, string>> {
  const suffix = t.urlKey.slice(-6);
  const specs = sixLeads(t);
  const ids: Record<string, string> = {};
  for (const [name, spec] of Object.entries(specs)) ids[name] = `${spec.leadId}_${suffix}`;
  await insertLeads(
    ctx.store,
    t.urlKey,
    Object.entries(specs).map(([name, spec]) => ({ ...spec, leadId: ids[name]!, externalId: `ext-${name}-${suffix}` })),
  );
  return ids;
}
