// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, failure, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';
import { randomKey } from '../helpers/seed.js';

/**
 * Issue 39, the list view's server side: saved filters per operator (docs/decisions.md "Saved lead
 * filters") and bulk actions on leads, one transaction per lead with a per-lead outcome
 * ("Bulk lead actions").
 */
describeEachStore('saved lead filters and bulk lead actions (issue 39)', (ctx) => {
  let t: LeadTenant;
  let other = '';
  const filters = () => `/admin/v1/businesses/${t.urlKey}/lead-saved-filters`;
  const bulk = () => `/admin/v1/businesses/${t.urlKey}/lead-bulk-actions`;
  const lead = async (leadId: string) =>
    (await call(ctx().app, 'GET', `${t.admin}/${leadId}`, { token: t.operator })).body.data;

  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
    const email = `${randomKey('op')}@example.test`;
    const password = 'second operator 123';
    await call(ctx().app, 'POST', '/admin/v1/operators', { token: t.operator, body: { email, password } });
    other = (await call(ctx().app, 'POST', '/authentication', { body: { strategy: 'local', email, password } })).body
      .accessToken;
    expect(other).toBeTruthy();
  });

  it('saves a filter, replaces it under the same name, keeps it from other operators, deletes it', async () => {
    const saved = await call(ctx().app, 'POST', filters(), {
      token: t.operator,
      body: { name: ' Won deals ', query: 'pipeline=Sales&stage=Won&$sort[budget.amount]=-1' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({
      name: 'Won deals',
      query: 'pipeline=Sales&stage=Won&$sort[budget.amount]=-1',
    });
    const again = await call(ctx().app, 'POST', filters(), {
      token: t.operator,
      body: { name: 'Won deals', query: '?pipeline=Sales&stage=Won' },
    });
    expect(again.body.data).toMatchObject({ id: saved.body.data.id, query: 'pipeline=Sales&stage=Won' });
    const mine = await call(ctx().app, 'GET', filters(), { token: t.operator });
    expect(mine.body.data.map((f: any) => [f.name, f.query])).toEqual([['Won deals', 'pipeline=Sales&stage=Won']]);
    expect((await call(ctx().app, 'GET', filters(), { token: other })).body.data).toEqual([]);
    const theirs = await call(ctx().app, 'DELETE', `${filters()}/${saved.body.data.id}`, { token: other });
    expect([theirs.status, theirs.body.data.error.code]).toEqual([404, 'SAVED_FILTER_NOT_FOUND']);
    const gone = await call(ctx().app, 'DELETE', `${filters()}/${saved.body.data.id}`, { token: t.operator });
    expect(gone.body.data).toEqual({ id: saved.body.data.id, removed: true });
    expect((await call(ctx().app, 'GET', filters(), { token: t.operator })).body.data).toEqual([]);
  });

  it.each([
    ['a parameter the list refuses', { name: 'x', query: 'business=1' }, ['query:INVALID_FIELD_VALUE']],
    ['a list position', { name: 'x', query: 'stage=Won&$skip=50' }, ['query:INVALID_FIELD_VALUE']],
    ['a bad limit', { name: 'x', query: '$limit=500' }, ['query:INVALID_FIELD_VALUE']],
    ['no name', { query: 'q=x' }, ['name:INVALID_FIELD_VALUE']],
  ])('refuses %s with a field error, storing nothing', async (_, body, fields) => {
    const answer = await call(ctx().app, 'POST', filters(), { token: t.operator, body });
    expect(answer.status).toBe(400);
    expect(failure(answer.body).fields).toEqual(fields);
    expect((await call(ctx().app, 'GET', filters(), { token: t.operator })).body.data).toEqual([]);
  });

  it('an unknown business is 404 BUSINESS_NOT_FOUND', async () => {
    const answer = await call(ctx().app, 'GET', '/admin/v1/businesses/no-such-biz/lead-saved-filters', {
      token: t.operator,
    });
    expect([answer.status, answer.body.data.error.code]).toEqual([404, 'BUSINESS_NOT_FOUND']);
  });

  it('moves leads one transaction each: a lead that fails is reported, the others are moved', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createLead(ctx(), t, { subject: `Bulk ${i}` })).leadId as string);
    const removed = ids[1]!;
    await call(ctx().app, 'DELETE', `${t.admin}/${removed}`, { token: t.operator });
    const answer = await call(ctx().app, 'POST', bulk(), {
      token: t.operator,
      body: { leadIds: ids, action: 'move', stage: 'Won', stageReasons: ['Price'] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      action: 'move',
      succeeded: 2,
      failed: 1,
      results: [
        { leadId: ids[0], ok: true },
        { leadId: removed, ok: false, error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } },
        { leadId: ids[2], ok: true },
      ],
    });
    for (const id of [ids[0]!, ids[2]!])
      expect(await lead(id)).toMatchObject({ stage: 'Won', stageReasons: ['Price'] });
  });

  it('a move into a stage that requires a reason, without one, fails per lead with STAGE_REASON_REQUIRED', async () => {
    const config = (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/pipelines`, { token: t.operator }))
      .body.data[0];
    for (const stage of config.pipelines[0].stages) if (stage.name === 'Lost') stage.requiresReason = true;
    const put = await call(ctx().app, 'PUT', `/admin/v1/businesses/${t.urlKey}/pipelines`, {
      token: t.operator,
      body: config,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const id = (await createLead(ctx(), t)).leadId as string;
    const answer = await call(ctx().app, 'POST', bulk(), {
      token: t.operator,
      body: { leadIds: [id], action: 'move', stage: 'Lost' },
    });
    expect(answer.body.data.results[0]).toMatchObject({ ok: false, error: { code: 'STAGE_REASON_REQUIRED' } });
    expect((await lead(id)).stage).toBe('New');
  });

  it('assigns, tags, untags and removes', async () => {
    const a = (await createLead(ctx(), t, { tags: ['VIP'] })).leadId as string;
    const b = (await createLead(ctx(), t)).leadId as string;
    const run = async (body: Record<string, unknown>) => {
      const answer = await call(ctx().app, 'POST', bulk(), { token: t.operator, body: { leadIds: [a, b], ...body } });
      expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ succeeded: 2, failed: 0 });
    };
    await run({ action: 'assign', assignedTo: 'asha@example.com' });
    await run({ action: 'tag', tags: ['Hot', 'vip'] });
    expect([(await lead(a)).tags, (await lead(b)).tags]).toEqual([
      ['Hot', 'VIP'],
      ['Hot', 'VIP'],
    ]);
    expect((await lead(b)).assignedTo).toBe('asha@example.com');
    await run({ action: 'untag', tags: ['VIP'] });
    expect((await lead(a)).tags).toEqual(['Hot']);
    await run({ action: 'assign', assignedTo: null });
    expect((await lead(a)).assignedTo).toBeNull();
    await run({ action: 'remove' });
    expect((await call(ctx().app, 'GET', `${t.admin}/${a}`, { token: t.operator })).status).toBe(404);
  });

  it.each([
    ['no leadIds', { action: 'remove' }, ['leadIds:INVALID_FIELD_VALUE']],
    ['an unknown action', { leadIds: ['x'], action: 'archive' }, ['action:INVALID_FIELD_VALUE']],
    ['a move without a stage', { leadIds: ['x'], action: 'move' }, ['stage:INVALID_FIELD_VALUE']],
    ['tags on a move', { leadIds: ['x'], action: 'move', stage: 'Won', tags: ['Hot'] }, ['tags:INVALID_FIELD']],
    ['a repeated leadId', { leadIds: ['x', 'x'], action: 'remove' }, ['leadIds[1]:INVALID_FIELD_VALUE']],
    [
      '101 leads',
      { leadIds: Array.from({ length: 101 }, (_, i) => `l${i}`), action: 'remove' },
      ['leadIds:INVALID_FIELD_VALUE'],
    ],
  ])('a body with %s is one 400, nothing written', async (_, body, fields) => {
    const answer = await call(ctx().app, 'POST', bulk(), { token: t.operator, body });
    expect(answer.status).toBe(400);
    expect(failure(answer.body).fields).toEqual(fields);
  });
});
