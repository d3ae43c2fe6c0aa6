import { beforeAll, expect, it } from 'vitest';
import { createClient, CrmkitError, type CrmkitClient, type LeadSyncPage } from '../../client/src/index.js';
import { call, describeEachStore } from '../helpers/app.js';
import { syncSettled } from '../helpers/lead-rows.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

// leads.list and the leads.sync iterator of the TypeScript client, against a real listening server.

const CONFIGURATION = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW' },
        { name: 'Talking', state: 'OPEN' },
        { name: 'Won, at last', state: 'CLOSED' },
      ],
    },
  ],
  stageReasons: [],
};

describeEachStore('TypeScript client: lead lists and sync', (ctx) => {
  let t: Tenant;
  let crm: CrmkitClient;
  const made: string[] = [];
  beforeAll(async () => {
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    t = await seedTenant(ctx().app, { customFieldsEnabled: false });
    expect(
      (
        await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/pipelines`, {
          token: t.operator,
          body: CONFIGURATION,
        })
      ).status,
    ).toBe(200);
    crm = createClient({ baseUrl, urlKey: t.urlKey, appId: t.appId, appSecret: t.appSecret, retryDelayMs: 1 });
    for (const [i, stage] of ['New', 'Talking', 'Won, at last', 'New', 'Talking'].entries()) {
      const lead = await crm.leads.create({
        externalId: randomKey('sync'),
        customer: { name: `Customer ${i}` },
        contact: { name: 'Élodie Martin' },
        pipeline: 'Sales',
        stage,
        subject: i === 2 ? 'Rooftop solar' : `Lead ${i}`,
        ...(i % 2 === 0 && { budget: { amount: 100 * (i + 1) } }),
      });
      made.push(lead.leadId);
    }
  });

  it('leads.list: filters as lists (names with commas stay whole), $sort, paging and total', async () => {
    const page = await crm.leads.list({
      pipeline: 'Sales',
      stage: ['Won, at last', 'Talking'],
      $sort: { 'budget.amount': -1 },
      $limit: 2,
    });
    expect(page.total).toBe(3);
    expect(page.items.map((lead) => lead.leadId)).toEqual([made[4], made[2]]);
    expect((await crm.leads.list({ q: 'SOLAR', status: ['CLOSED'] })).items.map((lead) => lead.leadId)).toEqual([
      made[2],
    ]);
    expect((await crm.leads.list({ createdAtFrom: new Date(Date.now() + 60_000) })).items).toEqual([]);
    const refused = await crm.leads.list({ pipeline: 'Nowhere' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CrmkitError);
    expect((refused as CrmkitError).code).toBe('INVALID_PIPELINE');
  });

  it('leads.sync iterates every page by updatedAt, and resumes from a kept cursor with the leads edited since', async () => {
    const pages: LeadSyncPage[] = [];
    await syncSettled(ctx().store, t.urlKey);
    for await (const page of crm.leads.sync({ $limit: 2 })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.items.map((lead) => lead.leadId))).toEqual(made);
    // The empty page that ends a sync is not yielded: the last page yielded holds the cursor to keep.
    const caughtUp = pages.at(-1)!.nextCursor;
    expect(caughtUp).not.toBeNull();

    let kept: string | null = null;
    for await (const page of crm.leads.sync({ $limit: 2, updatedAtFrom: '2000-01-01' })) {
      kept = page.nextCursor;
      break;
    }
    await crm.leads.update(made[0]!, { subject: 'Edited after the cursor' });
    await syncSettled(ctx().store, t.urlKey);
    const rest: string[] = [];
    for await (const page of crm.leads.sync({ after: kept!, $limit: 50 }))
      rest.push(...page.items.map((lead) => lead.leadId));
    expect(rest).toEqual([...made.slice(2), made[0]]);
    const since: string[] = [];
    for await (const page of crm.leads.sync({ after: caughtUp!, $limit: 50 }))
      since.push(...page.items.map((lead) => lead.leadId));
    expect(since).toEqual([made[0]]);
  });
});
