import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { failure, minimalLead, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * Issue 39, "Required reasons": an operator marks a stage `requiresReason`; a lead written into it
 * through the API (public or operator) without a reason is 400 STAGE_REASON_REQUIRED on `stageReasons`,
 * and nothing is stored. The operator's pipeline answers show the flag; the public list keeps the
 * seed's stage shape (docs/decisions.md, "Required reasons").
 */
describeEachStore('required stage reasons (issue 39)', (ctx) => {
  let t: LeadTenant;
  let config: any;
  const pipelinesPath = () => `/admin/v1/businesses/${t.urlKey}/pipelines`;
  /** The stored configuration with `Lost` (and only it) requiring a reason, or `change` applied. */
  const put = (change: (stage: any) => void) => {
    const body = structuredClone(config);
    for (const pipeline of body.pipelines) for (const stage of pipeline.stages) change(stage);
    return call(ctx().app, 'PUT', pipelinesPath(), { token: t.operator, body });
  };
  let before = '';

  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
    config = (await call(ctx().app, 'GET', pipelinesPath(), { token: t.operator })).body.data[0];
    before = (await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead({ stage: 'Lost' }) })).body
      .data.leadId;
    const answer = await put((stage) => {
      if (stage.name === 'Lost') stage.requiresReason = true;
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    config = answer.body.data[0];
  });

  it("the operator's answers carry requiresReason on every stage; the public list does not", async () => {
    const stages = config.pipelines[0].stages.map((s: any) => [s.name, s.requiresReason]);
    expect(stages).toEqual([
      ['New', false],
      ['Qualified', false],
      ['Old step', false],
      ['Won', false],
      ['Lost', true],
    ]);
    const again = (await call(ctx().app, 'GET', pipelinesPath(), { token: t.operator })).body.data[0];
    expect(again.pipelines[0].stages[4].requiresReason).toBe(true);
    const pub = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/pipelines?includeArchived=true`, {
      token: t.token,
    });
    expect(pub.body.data[0].pipelines[0].stages.every((s: any) => !('requiresReason' in s))).toBe(true);
  });

  it('a stage that lists no reason cannot require one', async () => {
    const answer = await put((stage) => {
      if (stage.name === 'New') stage.requiresReason = true;
    });
    expect(answer.status).toBe(400);
    expect(failure(answer.body)).toEqual({
      code: 'INVALID_FIELD_VALUE',
      fields: ['pipelines[0].stages[0].requiresReason:INVALID_FIELD_VALUE'],
    });
  });

  it.each([
    ['no stageReasons', {}],
    ['stageReasons: []', { stageReasons: [] }],
  ])('create into the stage with %s: 400 STAGE_REASON_REQUIRED, nothing stored', async (_, extra) => {
    const body = minimalLead({ stage: 'Lost', customer: { name: 'Required Reason Traders' }, ...extra });
    const answer = await call(ctx().app, 'POST', t.leads, { token: t.token, body });
    expect(answer.status).toBe(400);
    expect(failure(answer.body)).toEqual({
      code: 'STAGE_REASON_REQUIRED',
      fields: ['stageReasons:STAGE_REASON_REQUIRED'],
    });
    const created = await call(ctx().app, 'POST', t.leads, {
      token: t.token,
      body: { ...body, stageReasons: ['Price'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.idempotent).toBeUndefined();
    const clients = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/clients?q=Required Reason Traders`, {
      token: t.operator,
    });
    expect(clients.body.data[0].total).toBe(_ === 'no stageReasons' ? 1 : 2);
  });

  it('moves and reason edits are held to it, through the public and the operator API; other edits are not', async () => {
    const lead = (await call(ctx().app, 'POST', t.leads, { token: t.token, body: minimalLead() })).body.data.leadId;
    const patch = (body: Record<string, unknown>, base = t.leads, token = t.token, id = lead) =>
      call(ctx().app, 'PATCH', `${base}/${id}`, { token, body });
    for (const [body, base, token] of [
      [{ stage: 'Lost' }, t.leads, t.token],
      [{ stage: 'Lost', stageReasons: [] }, t.admin, t.operator],
    ] as const) {
      const refused = await patch(body, base, token);
      expect(refused.status).toBe(400);
      expect(failure(refused.body)).toEqual({
        code: 'STAGE_REASON_REQUIRED',
        fields: ['stageReasons:STAGE_REASON_REQUIRED'],
      });
    }
    expect((await call(ctx().app, 'GET', `${t.leads}/${lead}`, { token: t.token })).body.data.stage).toBe('New');
    expect((await patch({ stage: 'Lost', stageReasons: ['Price'] })).status).toBe(200);
    const cleared = await patch({ stageReasons: [] });
    expect(failure(cleared.body).code).toBe('STAGE_REASON_REQUIRED');
    expect((await patch({ subject: 'Still lost, for a price' })).status).toBe(200);
    // A lead that was there before the rule keeps being editable; a move out needs nothing.
    expect((await patch({ subject: 'From before the rule' }, t.leads, t.token, before)).status).toBe(200);
    expect((await patch({ stage: 'New' }, t.leads, t.token, before)).status).toBe(200);
  });
});
