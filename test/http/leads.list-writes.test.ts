// @module-tag pooled
// @module-tag dates
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { syncSettled } from '../helpers/lead-rows.js';
import { createLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * Lists read what the write side stores: leads created and edited through POST/PATCH /leads are found
 * by their filters and words at once (the PostgreSQL search column is generated, SQLite's FTS table is
 * kept by triggers), come again in a sync after an edit, and are gone once an operator removes them.
 */
describeEachStore('GET /leads over leads written through the interface', (ctx) => {
  let t: LeadTenant;
  const made: Record<string, any> = {};
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
    made.one = await createLead(ctx(), t, {
      subject: 'Rénovation du café',
      customer: { name: 'Zoë Exports' },
      contact: { name: 'Élodie Martin', email: 'Elodie@Zoe.fr' },
      tags: ['VIP'],
      budget: { amount: 1200 },
    });
    made.two = await createLead(ctx(), t, {
      details: 'Solar panels for the warehouse',
      stage: 'Qualified',
      assignedTo: 'asha@example.com',
      followUpDate: '2099-01-31',
    });
    made.three = await createLead(ctx(), t, {
      pipeline: 'Partners',
      stage: 'Intro',
      leadSource: 'Website',
      tags: ['hot', 'vip'],
    });
  });
  const list = async (query: string) => {
    const answer = await call(ctx().app, 'GET', `${t.leads}?${query}`, { token: t.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data[0];
  };
  const ids = async (query: string) => (await list(query)).items.map((lead: any) => lead.leadId);

  it('items are the very leads GET /leads/:leadId answers', async () => {
    const page = await list('');
    expect(page.total).toBe(3);
    for (const item of page.items) {
      const one = await call(ctx().app, 'GET', `${t.leads}/${item.leadId}`, { token: t.token });
      expect(item).toEqual(one.body.data);
    }
  });

  it('filters and words find created leads, ignoring case and accents', async () => {
    expect(await ids('q=renovation')).toEqual([made.one.leadId]);
    expect(await ids('q=CAFE zoe')).toEqual([made.one.leadId]);
    expect(await ids('q=elodie')).toEqual([made.one.leadId]);
    expect(await ids('contactEmail=ELODIE@zoe.FR')).toEqual([made.one.leadId]);
    expect(await ids('details=warehou')).toEqual([made.two.leadId]);
    expect(await ids('tags=VIP')).toEqual([made.three.leadId, made.one.leadId]);
    expect(await ids('pipeline=Sales&stage=Qualified')).toEqual([made.two.leadId]);
    expect(await ids('status=OPEN')).toEqual([made.two.leadId]);
    expect(await ids('assignedTo=ASHA@example.com')).toEqual([made.two.leadId]);
    expect(await ids('leadSource=WEBSITE')).toEqual([made.three.leadId]);
    expect(await ids('followUpDateFrom=2099-01-31')).toEqual([made.two.leadId]);
    expect(await ids('budgetMin=1200&budgetMax=1200')).toEqual([made.one.leadId]);
    expect(await ids(`externalId=${encodeURIComponent(made.two.externalId)}`)).toEqual([made.two.leadId]);
  });

  it('an edit moves the lead in its filters and words, and brings it again in a sync', async () => {
    await syncSettled(ctx().store, t.urlKey);
    const first = await list('updatedAtFrom=2000-01-01&$limit=3');
    expect(first.items).toHaveLength(3);
    // A full last page names its successor, and that one, empty, says the sync is caught up.
    const caughtUp = await list(`after=${encodeURIComponent(first.nextCursor)}`);
    expect([caughtUp.items, caughtUp.nextCursor]).toEqual([[], null]);
    const last = first.items[2];
    const cursor = await list('updatedAtFrom=2000-01-01&$limit=2');
    const edited = await call(ctx().app, 'PATCH', `${t.leads}/${made.one.leadId}`, {
      token: t.token,
      body: { subject: 'Kitchen refit', stage: 'Won', stageReasons: ['Price'] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await ids('q=renovation')).toEqual([]);
    expect(await ids('q=kitchen')).toEqual([made.one.leadId]);
    expect(await ids('status=CLOSED')).toEqual([made.one.leadId]);
    await syncSettled(ctx().store, t.urlKey);
    const next = await list(`after=${encodeURIComponent(cursor.nextCursor)}&$limit=5`);
    expect(next.items.map((lead: any) => lead.leadId)).toEqual(
      [last.leadId, made.one.leadId].filter((id, i, all) => all.indexOf(id) === i),
    );
    // The caught-up cursor brings the edit alone: nothing the client already had.
    const since = await list(`after=${encodeURIComponent(first.nextCursor)}`);
    expect(since.items.map((lead: any) => lead.leadId)).toEqual([made.one.leadId]);
  });

  it('a lead removed by an operator leaves every list and search', async () => {
    const removed = await call(ctx().app, 'DELETE', `${t.admin}/${made.three.leadId}`, { token: t.operator });
    expect(removed.status).toBe(200);
    expect(await ids('tags=VIP')).toEqual([made.one.leadId]);
    expect((await list('')).total).toBe(2);
    expect(await ids('leadSource=WEBSITE')).toEqual([]);
  });
});
