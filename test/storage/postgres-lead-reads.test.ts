// @module-tag pooled
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BATCHED_LEAD_READ } from '../../src/storage/leads.store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { insertLeads } from '../helpers/lead-rows.js';
import { genericPlan } from '../helpers/plans.js';
import { availableStores } from '../helpers/stores.js';

const stores = await availableStores();

describe.runIf(stores.includes('postgres'))('PostgreSQL: lead reads that arrive together share a statement', () => {
  let t: TestApp;
  let tenant: LeadTenant;
  let other: LeadTenant;
  const leads: Record<string, any>[] = [];
  let foreign: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    tenant = await seedLeadTenant(t);
    other = await seedLeadTenant(t);
    for (let i = 0; i < 5; i++) leads.push(await createLead(t, tenant, { subject: `Lead ${i}` }));
    foreign = await createLead(t, other, { subject: 'Theirs' });
  });
  afterAll(async () => t?.close());

  it('each read gets its own answer: other tenants, missing keys, removed leads and repeats', async () => {
    const removed = await createLead(t, tenant, { subject: 'Gone' });
    expect(await t.store.leads.removeLead(tenant.urlKey, removed.leadId, Date.now())).toBe(true);
    const asked: [string, string][] = [
      [tenant.urlKey, leads[0]!.leadId],
      [tenant.urlKey, foreign.leadId],
      [other.urlKey, foreign.leadId],
      [tenant.urlKey, 'ld_missing'],
      ['no-such-shop', leads[1]!.leadId],
      [tenant.urlKey, leads[1]!.leadId],
      [tenant.urlKey, leads[0]!.leadId],
      [tenant.urlKey, removed.leadId],
    ];
    const found = await Promise.all(asked.map(([urlKey, leadId]) => t.store.leads.findLead(urlKey, leadId)));
    expect(found.map((lead) => lead?.leadId ?? null)).toEqual([
      leads[0]!.leadId,
      null,
      foreign.leadId,
      null,
      null,
      leads[1]!.leadId,
      leads[0]!.leadId,
      removed.leadId,
    ]);
    expect(found.map((lead) => lead?.data.subject ?? null)).toEqual([
      'Lead 0',
      null,
      'Theirs',
      null,
      null,
      'Lead 1',
      'Lead 0',
      'Gone',
    ]);
    expect(found[7]!.removed).toBe(true);
    expect(found[0]).toMatchObject({ externalId: leads[0]!.externalId, removed: false, version: 1, source: 'API' });
    expect(typeof found[0]!.createdAt).toBe('number');
  });

  it('fifty concurrent reads are one query, not fifty, and answer as a read alone does', async () => {
    const alone = await t.store.leads.findLead(tenant.urlKey, leads[2]!.leadId);
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const found = await Promise.all(
        Array.from({ length: 50 }, (_, i) => t.store.leads.findLead(tenant.urlKey, leads[i % 5]!.leadId)),
      );
      expect(found.every((lead, i) => lead?.leadId === leads[i % 5]!.leadId)).toBe(true);
      expect(found[2]).toEqual(alone);
      const reads = query.mock.calls.filter(([text]) => JSON.stringify(text).includes('from leads l'));
      expect(reads).toHaveLength(1);
    } finally {
      query.mockRestore();
    }
  });

  it('the batched read looks each lead up by index, in the plan PostgreSQL keeps for the prepared statement', async () => {
    // The plan is chosen from the table's statistics: on the run's fresh database, with a few leads in it,
    // walking a business's leads costs as little as the lead_id lookup. Statistics of a table where a
    // business holds hundreds of leads, as in production, make the choice the test is about.
    const { pipeline_id: pipelineId, stage_id: stageId } = await t.store.leads.db
      .selectFrom('leads')
      .select(['pipeline_id', 'stage_id'])
      .where('lead_id', '=', foreign.leadId)
      .executeTakeFirstOrThrow();
    const filler = Array.from({ length: 600 }, () => ({ pipelineId: String(pipelineId), stageId: String(stageId) }));
    await insertLeads(t.store, other.urlKey, filler);
    await sql`analyze leads`.execute(t.store.leads.db);
    const plan = await genericPlan(t.store.leads.db, BATCHED_LEAD_READ, 'text[], text[]', "'{shop-a}', '{ld_x}'");
    expect(plan).toMatch(/Index Scan using leads_lead_id_key on leads l/);
    expect(plan).not.toMatch(/Seq Scan on (leads|businesses)|Hash/);
  });
});
