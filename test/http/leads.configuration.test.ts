// @module-tag dates
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, failure, LEAD_PIPELINES, minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/** Today's date in an IANA zone, as the server computes "today" for followUpDate. */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(Date.now());

describeEachStore('leads and their configuration', (ctx) => {
  let t: LeadTenant;
  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });
  const pipelinesPath = () => `/admin/v1/businesses/${t.urlKey}/pipelines`;
  const putPipelines = (body: unknown) => call(ctx().app, 'PUT', pipelinesPath(), { token: t.operator, body });

  it("2.1 a PUT of pipelines may not leave out a pipeline or stage a lead uses (400 naming it); archiving keeps the lead's names", async () => {
    const current = (await call(ctx().app, 'GET', pipelinesPath(), { token: t.operator })).body.data[0];
    const partners = current.pipelines.find((p: any) => p.name === 'Partners');
    const lead = await createLead(ctx(), t, { pipeline: 'Partners', stage: 'Intro' });
    const withoutIntro = {
      ...current,
      pipelines: current.pipelines.map((p: any) =>
        p.id === partners.id ? { ...p, stages: p.stages.filter((s: any) => s.name !== 'Intro') } : p,
      ),
    };
    const refused = await putPipelines(withoutIntro);
    expect(refused.status).toBe(400);
    expect(refused.body.data.error).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      errors: [{ field: 'pipelines', code: 'INVALID_FIELD_VALUE' }],
    });
    expect(refused.body.data.error.message).toContain('"Intro"');
    const withoutPartners = { ...current, pipelines: current.pipelines.filter((p: any) => p.id !== partners.id) };
    expect((await putPipelines(withoutPartners)).body.data.error.message).toContain('"Partners"');

    // Archived and renamed: the lead keeps its links and answers the current names.
    const archived = {
      ...current,
      pipelines: current.pipelines.map((p: any) =>
        p.id === partners.id
          ? {
              ...p,
              name: 'Channel partners',
              isArchived: true,
              stages: p.stages.map((s: any) => ({ ...s, name: s.name === 'Intro' ? 'First call' : s.name })),
            }
          : p,
      ),
    };
    expect((await putPipelines(archived)).status).toBe(200);
    const now = await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}`, { token: t.token });
    expect(now.body.data).toMatchObject({ pipeline: 'Channel partners', stage: 'First call', status: 'NEW' });

    // 4.2: only stage sent while the lead's pipeline is archived is INVALID_PIPELINE; a move out is fine.
    expect(
      failure(
        (await call(ctx().app, 'PATCH', `${t.leads}/${lead.leadId}`, { token: t.token, body: { stage: 'Signed' } }))
          .body,
      ).code,
    ).toBe('INVALID_PIPELINE');
    const moved = await call(ctx().app, 'PATCH', `${t.leads}/${lead.leadId}`, {
      token: t.token,
      body: { pipeline: 'Sales', stage: 'Qualified' },
    });
    expect(moved.body.data).toMatchObject({ pipeline: 'Sales', stage: 'Qualified' });
    const entries = (await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}/activities`, { token: t.token })).body
      .data[0].items;
    expect(entries[1]).toMatchObject({
      type: 'STAGE_CHANGE',
      fromPipeline: 'Channel partners',
      fromStage: 'First call',
      toPipeline: 'Sales',
      toStage: 'Qualified',
      reasons: [],
    });
    expect((await putPipelines(LEAD_PIPELINES)).status).toBe(400);
  });

  it('2.5 a renamed tag, source label or member keeps its leads; changes through the operator API apply at once', async () => {
    const lead = await createLead(ctx(), t, { tags: ['VIP'], leadSource: 'Referral', assignedTo: 'asha@example.com' });
    const tags = (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/tags`, { token: t.operator })).body
      .data.tags;
    const renamed = tags.map((tag: any) => (tag.name === 'VIP' ? { ...tag, name: 'Very important' } : tag));
    expect(
      (
        await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/tags`, {
          token: t.operator,
          body: { tags: [...renamed, { name: 'Fresh' }] },
        })
      ).status,
    ).toBe(200);
    const now = (await call(ctx().app, 'GET', `${t.leads}/${lead.leadId}`, { token: t.token })).body.data;
    expect(now.tags).toEqual(['Very important']);
    const tagged = await call(ctx().app, 'PATCH', `${t.leads}/${lead.leadId}`, {
      token: t.token,
      body: { tagsAdd: ['fresh'] },
    });
    expect(tagged.body.data.tags).toEqual(['Fresh', 'Very important']);
    expect(
      failure((await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead({ tags: ['VIP'] }) })).body)
        .code,
    ).toBe('INVALID_TAG');
    expect(now).toMatchObject({ leadSource: 'REFERRAL', assignedTo: 'asha@example.com' });
  });

  it('4.2 followUpDate "today" is the business\'s time zone\'s (operator PATCH timeZone)', async () => {
    const ahead = 'Pacific/Kiritimati';
    const behind = 'Pacific/Pago_Pago';
    // UTC+14 and UTC-11: their dates always differ, so "today" behind is "yesterday" ahead.
    const setZone = (timeZone: string) =>
      call(ctx().app, 'PATCH', `/admin/v1/businesses/${t.urlKey}`, { token: t.operator, body: { timeZone } });
    expect((await setZone(ahead)).status).toBe(200);
    const refused = await call(ctx().app, 'POST', t.leads, {
      token: t.token,
      body: minimalLead({ followUpDate: todayIn(behind) }),
    });
    expect(failure(refused.body)).toEqual({
      code: 'INVALID_FIELD_VALUE',
      fields: ['followUpDate:INVALID_FIELD_VALUE'],
    });
    expect(
      (await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead({ followUpDate: todayIn(ahead) }) }))
        .status,
    ).toBe(201);
    expect((await setZone(behind)).status).toBe(200);
    expect(
      (await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead({ followUpDate: todayIn(behind) }) }))
        .status,
    ).toBe(201);
  });
});
