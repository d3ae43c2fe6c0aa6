import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

const publicPath = (t: Tenant, query = '') => `/api/v1/businesses/${t.urlKey}/pipelines${query}`;
const adminPath = (t: Tenant) => `/admin/v1/businesses/${t.urlKey}/pipelines`;

/** A configuration that exercises every archival and omission rule of 2.1 to 2.3 at once. */
const CONFIG = {
  pipelines: [
    {
      name: 'Sales',
      description: 'Main funnel',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW', reasons: [], labels: ['hot', 'inbound'], closure: 0, decayThresholdHours: 0 },
        { name: 'Old step', state: 'OPEN', isArchived: true, closure: 10 },
        { name: 'Won', state: 'CLOSED', reasons: ['won-price', 'legacy'], closure: 100, decayThresholdHours: 72 },
        { name: 'Lost', state: 'DROPPED', reasons: ['legacy'] },
      ],
    },
    { name: 'Sales', stages: [{ name: 'New', state: 'NEW' }] },
    { name: 'Retired', isArchived: true, stages: [{ name: 'Live inside archived', state: 'OPEN' }] },
  ],
  stageReasons: [
    { key: 'won-price', label: 'Good price' },
    { key: 'legacy', label: 'Old reason', isArchived: true },
  ],
};

describeEachStore('4.2 GET pipelines', (ctx) => {
  let t: Tenant;
  let stored: any;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
    const put = await call(ctx().app, 'PUT', adminPath(t), { token: t.operator, body: CONFIG });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    stored = put.body.data[0];
  });

  it('4.2 an unconfigured business answers 200 with both arrays empty, data one element', async () => {
    const fresh = await seedTenant(ctx().app);
    const r = await call(ctx().app, 'GET', publicPath(fresh), { token: fresh.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: [{ pipelines: [], stageReasons: [] }] });
    expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('4.2 default answer: live pipelines and stages only, archived reasons hidden, in configured order', async () => {
    const r = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const { pipelines, stageReasons } = r.body.data[0];
    expect(pipelines.map((p: any) => p.name)).toEqual(['Sales', 'Sales']);
    expect(pipelines[0].stages.map((s: any) => s.name)).toEqual(['New', 'Won', 'Lost']);
    expect(stageReasons).toEqual([{ key: 'won-price', label: 'Good price', isArchived: false }]);
  });

  it('2.1 duplicate pipeline names are told apart by id', async () => {
    const r = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    const [a, b] = r.body.data[0].pipelines;
    expect(a.id).toEqual(expect.any(String));
    expect(b.id).toEqual(expect.any(String));
    expect(a.id).not.toBe(b.id);
    expect(a.stages[0].id).not.toBe(b.stages[0].id);
  });

  it('3 an archived pipeline, and its live stages, are hidden by default and shown with includeArchived=true', async () => {
    const live = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    expect(JSON.stringify(live.body)).not.toContain('Live inside archived');
    const all = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=true'), { token: t.token });
    const retired = all.body.data[0].pipelines[2];
    expect(retired).toMatchObject({
      name: 'Retired',
      isArchived: true,
      stages: [{ name: 'Live inside archived', isArchived: false }],
    });
  });

  it('2.2 an archived stage between two live ones keeps its position with includeArchived=true', async () => {
    const r = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=true'), { token: t.token });
    const stages = r.body.data[0].pipelines[0].stages;
    expect(stages.map((s: any) => [s.name, s.isArchived])).toEqual([
      ['New', false],
      ['Old step', true],
      ['Won', false],
      ['Lost', false],
    ]);
  });

  it('decisions: a live stage listing a reason archived in the catalog omits its key unless includeArchived=true', async () => {
    const live = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    expect(live.body.data[0].pipelines[0].stages[1].reasons).toEqual(['won-price']);
    expect(live.body.data[0].pipelines[0].stages[2].reasons).toEqual([]);
    const all = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=false'), { token: t.token });
    expect(all.body).toEqual(live.body);
    const archived = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=true'), { token: t.token });
    expect(archived.body.data[0].pipelines[0].stages[2].reasons).toEqual(['won-price', 'legacy']);
    expect(archived.body.data[0].stageReasons).toEqual([
      { key: 'won-price', label: 'Good price', isArchived: false },
      { key: 'legacy', label: 'Old reason', isArchived: true },
    ]);
  });

  it('2.1/2.2 unset description, closure, decayThresholdHours are omitted; a configured 0 is returned; field order as the tables', async () => {
    const r = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=true'), { token: t.token });
    const [sales, second] = r.body.data[0].pipelines;
    expect(Object.keys(sales)).toEqual(['id', 'name', 'description', 'isPrimary', 'isArchived', 'stages']);
    expect(Object.keys(second)).toEqual(['id', 'name', 'isPrimary', 'isArchived', 'stages']);
    expect(sales.stages[0]).toEqual({
      id: expect.any(String),
      name: 'New',
      state: 'NEW',
      reasons: [],
      labels: ['hot', 'inbound'],
      closure: 0,
      decayThresholdHours: 0,
      isArchived: false,
    });
    expect(Object.keys(sales.stages[0])).toEqual([
      'id',
      'name',
      'state',
      'reasons',
      'labels',
      'closure',
      'decayThresholdHours',
      'isArchived',
    ]);
    expect(Object.keys(sales.stages[3])).toEqual(['id', 'name', 'state', 'reasons', 'labels', 'isArchived']);
    expect(Object.keys(r.body.data[0].stageReasons[0])).toEqual(['key', 'label', 'isArchived']);
    expect(second).toMatchObject({ isPrimary: false, isArchived: false });
  });

  // Issue 39: the operator's stages also say whether they require a reason (docs/decisions.md "Required reasons").
  it('operator PUT and GET answer the includeArchived=true public shape, each stage with requiresReason', async () => {
    const all = await call(ctx().app, 'GET', publicPath(t, '?includeArchived=true'), { token: t.token });
    const withFlag = (config: any) => ({
      ...config,
      pipelines: config.pipelines.map((p: any) => ({
        ...p,
        stages: p.stages.map((s: any) => ({ ...s, requiresReason: false })),
      })),
    });
    expect(stored).toEqual(withFlag(all.body.data[0]));
    const adminGet = await call(ctx().app, 'GET', adminPath(t), { token: t.operator });
    expect(adminGet.status).toBe(200);
    expect(adminGet.body).toEqual({ ...all.body, data: [withFlag(all.body.data[0])] });
  });

  it.each([
    ['?includeArchived=yes'],
    ['?includeArchived=TRUE'],
    ['?includeArchived=1'],
    ['?includeArchived='],
    ['?includeArchived'],
    ['?includeArchived=true&includeArchived=false'],
  ])('4.2 %s gives 400 INVALID_QUERY_VALUE', async (query) => {
    const r = await call(ctx().app, 'GET', publicPath(t, query), { token: t.token });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe('INVALID_QUERY_VALUE');
  });

  it.each([
    ['?$limit=10'],
    ['?$skip=0'],
    ['?$sort[name]=1'],
    ['?foo=bar'],
    ['?includeArchived=true&$limit=5'],
    ['?includearchived=true'],
  ])('4.2 %s gives 400 INVALID_QUERY_FIELD', async (query) => {
    const r = await call(ctx().app, 'GET', publicPath(t, query), { token: t.token });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe('INVALID_QUERY_FIELD');
    expect(r.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request', errors: {} });
  });

  it("tenancy: the app of business A gets 403 PERMISSION_DENIED on business B, and B's configuration never leaks", async () => {
    const other = await seedTenant(ctx().app);
    const r = await call(ctx().app, 'GET', publicPath(t), { token: other.token });
    expect(r.status).toBe(403);
    expect(r.body.data.error.code).toBe('PERMISSION_DENIED');
    expect(JSON.stringify(r.body)).not.toContain('Sales');
  });

  it('5 no token is 401 and an operator session token is 401 on the public list', async () => {
    expect((await call(ctx().app, 'GET', publicPath(t))).status).toBe(401);
    expect((await call(ctx().app, 'GET', publicPath(t), { token: t.operator })).status).toBe(401);
  });

  it('decisions: 401 comes before a query error', async () => {
    const r = await call(ctx().app, 'GET', publicPath(t, '?$limit=1'));
    expect(r.status).toBe(401);
  });
});
