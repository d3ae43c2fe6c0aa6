import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * The `total` of a list filtered by nothing, pipeline, stage or status is read from live counts kept by
 * triggers (migration 006-lead-counts), not from the leads. It must stay the number of matches through
 * concurrent creates (identical retries included), stage and pipeline moves, concurrent opposite
 * moves, and removes: each check compares it with the leads the same list actually returns, and with
 * a total that is still counted from the leads (a filter the counts do not cover).
 */
const FILTERS = [
  '',
  'pipeline=Sales',
  'pipeline=Partners',
  'pipeline=Sales&stage=New',
  'pipeline=Sales&stage=Won',
  'pipeline=Partners&stage=Intro',
  'status=NEW',
  'status=OPEN',
  'status=CLOSED',
  'status=NEW,CLOSED',
  'pipeline=Sales&status=CLOSED',
  'leadSource=Website',
  'assignedTo=asha@example.com',
  'assignedTo=UNASSIGNED',
  'assignedTo=UNASSIGNED,asha@example.com',
  'followUpDate=none',
  'pipeline=Sales&leadSource=Website&assignedTo=UNASSIGNED&followUpDate=none',
];

describeEachStore('GET /leads totals from live counts', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const list = async (query: string) => {
    const answer = await call(ctx().app, 'GET', `${t.leads}?$limit=50&${query}`, { token: t.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data[0] as { total: number; items: { leadId: string }[] };
  };
  /** Every covered filter's total equals its items, and the unfiltered one a total still counted from the leads. */
  const expectExact = async (expectedAll: number) => {
    for (const filter of FILTERS) {
      const page = await list(filter);
      expect(page.total, filter || 'no filter').toBe(page.items.length);
    }
    expect((await list('')).total).toBe(expectedAll);
    expect((await list('createdAtFrom=2000-01-01')).total).toBe(expectedAll);
  };
  const create = (body: Record<string, unknown>) =>
    call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead(body) });
  const patch = (leadId: string, body: Record<string, unknown>) =>
    call(ctx().app, 'PATCH', `${t.leads}/${leadId}`, { token: t.token, body });

  it('concurrent creates, identical retries among them, are each counted once', async () => {
    const bodies = Array.from({ length: 24 }, (_, i) =>
      minimalLead(i % 3 === 0 ? { pipeline: 'Partners', stage: 'Intro' } : {}),
    );
    const sent = [...bodies, ...bodies.slice(0, 8)];
    const answers = await Promise.all(sent.map((body) => call(ctx().app, 'POST', t.leads, { token: t.token, body })));
    expect(answers.map((a) => a.status).filter((s) => s !== 201 && s !== 200)).toEqual([]);
    await expectExact(24);
    expect((await list('pipeline=Partners')).total).toBe(8);
  });

  it('stage and pipeline moves, concurrent and in opposite directions, move the counts with them', async () => {
    const sales = (await list('pipeline=Sales&stage=New')).items.map((l) => l.leadId);
    const partners = (await list('pipeline=Partners&stage=Intro')).items.map((l) => l.leadId);
    const moves = [
      ...sales.slice(0, 6).map((id) => patch(id, { stage: 'Won', stageReasons: ['Price'] })),
      ...sales.slice(6, 10).map((id) => patch(id, { pipeline: 'Partners', stage: 'Intro' })),
      ...partners.slice(0, 4).map((id) => patch(id, { pipeline: 'Sales', stage: 'New' })),
      ...Array.from({ length: 4 }, () => create({ stage: 'Won', stageReasons: ['Price'] })),
    ];
    const answers = await Promise.all(moves);
    expect(
      answers.map((a) => a.status).filter((s) => s !== 200 && s !== 201),
      JSON.stringify(answers.map((a) => a.body)),
    ).toEqual([]);
    await expectExact(28);
    expect((await list('pipeline=Sales&stage=Won')).total).toBe(10);
    expect((await list('pipeline=Partners')).total).toBe(8);
    // Source, assignee and follow-up date set, changed and cleared, concurrently.
    const edits = await Promise.all([
      ...sales
        .slice(0, 5)
        .map((id) => patch(id, { leadSource: 'Website', assignedTo: 'asha@example.com', followUpDate: '2099-01-31' })),
      ...partners.slice(4, 7).map((id) => patch(id, { assignedTo: 'asha@example.com' })),
    ]);
    expect(
      edits.map((a) => a.status).filter((s) => s !== 200),
      JSON.stringify(edits.map((a) => a.body)),
    ).toEqual([]);
    await expectExact(28);
    expect((await list('assignedTo=asha@example.com')).total).toBe(8);
    expect((await patch(sales[1]!, { assignedTo: null, followUpDate: null })).status).toBe(200);
    await expectExact(28);
    expect((await list('followUpDate=none')).total).toBe(24);
    // An edit that changes nothing counted leaves the counts as they are.
    expect((await patch(sales[0]!, { subject: 'Only the subject' })).status).toBe(200);
    await expectExact(28);
  });

  it('removed leads leave every total, removing twice counts once', async () => {
    const won = (await list('status=CLOSED')).items.map((l) => l.leadId).slice(0, 3);
    const removes = [...won, won[0]!].map((id) => call(ctx().app, 'DELETE', `${t.admin}/${id}`, { token: t.operator }));
    const statuses = (await Promise.all(removes)).map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    await expectExact(25);
  });

  it('another business counts apart', async () => {
    const other = await seedLeadTenant(ctx());
    const made = await call(ctx().app, 'POST', other.leads, { token: other.token, body: minimalLead() });
    expect(made.status).toBe(201);
    const page = await call(ctx().app, 'GET', `${other.leads}?status=NEW`, { token: other.token });
    expect(page.body.data[0].total).toBe(1);
    expect((await list('')).total).toBe(25);
  });

  it('2.1 a stage no live lead uses any more (moved out, removed) may be left out of a pipelines PUT; one in use may not', async () => {
    const other = await seedLeadTenant(ctx());
    const path = `/admin/v1/businesses/${other.urlKey}/pipelines`;
    const withoutIntro = async () => {
      const current = (await call(ctx().app, 'GET', path, { token: other.operator })).body.data[0];
      const pipelines = current.pipelines.map((p: any) =>
        p.name === 'Partners' ? { ...p, stages: p.stages.filter((s: any) => s.name !== 'Intro') } : p,
      );
      return call(ctx().app, 'PUT', path, { token: other.operator, body: { ...current, pipelines } });
    };
    const moved = await call(ctx().app, 'POST', other.leads, {
      token: other.token,
      body: minimalLead({ pipeline: 'Partners', stage: 'Intro' }),
    });
    const removed = await call(ctx().app, 'POST', other.leads, {
      token: other.token,
      body: minimalLead({ pipeline: 'Partners', stage: 'Intro' }),
    });
    expect((await withoutIntro()).status).toBe(400);
    expect(
      (
        await call(ctx().app, 'PATCH', `${other.leads}/${moved.body.data.leadId}`, {
          token: other.token,
          body: { pipeline: 'Sales', stage: 'New' },
        })
      ).status,
    ).toBe(200);
    expect((await withoutIntro()).status).toBe(400);
    expect(
      (await call(ctx().app, 'DELETE', `${other.admin}/${removed.body.data.leadId}`, { token: other.operator })).status,
    ).toBe(200);
    expect((await withoutIntro()).status).toBe(200);
  });

  it('one tag alone: its total is a live count (006) that follows creates, tag edits and removals', async () => {
    const own = await seedLeadTenant(ctx());
    const tagged = async (query: string) => {
      const answer = await call(ctx().app, 'GET', `${own.leads}?$limit=50&${query}`, { token: own.token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data[0] as { total: number; items: { leadId: string }[] };
    };
    const exact = async (vip: number) => {
      for (const tag of ['VIP', 'hot']) {
        const page = await tagged(`tags=${tag}`);
        expect(page.total, tag).toBe(page.items.length);
        // The same filter with a bound the counts do not cover: still counted from the leads.
        expect(page.total, tag).toBe((await tagged(`tags=${tag}&createdAtFrom=2000-01-01`)).total);
      }
      expect((await tagged('tags=VIP')).total).toBe(vip);
    };
    const answers = await Promise.all(
      [['VIP'], ['VIP', 'hot'], ['hot'], [], ['VIP'], ['vip', 'HOT']].map((tags) =>
        call(ctx().app, 'POST', own.leads, { token: own.token, body: minimalLead({ tags }) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ids = answers.map((a) => a.body.data.leadId as string);
    await exact(4);
    const edit = (leadId: string, tags: string[]) =>
      call(ctx().app, 'PATCH', `${own.leads}/${leadId}`, { token: own.token, body: { tags } });
    expect((await edit(ids[0]!, ['hot'])).status).toBe(200);
    await exact(3);
    expect((await edit(ids[3]!, ['VIP', 'hot'])).status).toBe(200);
    await exact(4);
    expect((await edit(ids[1]!, [])).status).toBe(200);
    await exact(3);
    expect((await call(ctx().app, 'DELETE', `${own.admin}/${ids[4]}`, { token: own.operator })).status).toBe(200);
    await exact(2);
    expect((await tagged('tags=hot')).total).toBe(4);
  });
});
