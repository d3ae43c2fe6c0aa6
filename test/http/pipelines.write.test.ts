// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

const adminPath = (t: Tenant | string) => `/admin/v1/businesses/${typeof t === 'string' ? t : t.urlKey}/pipelines`;
const publicPath = (t: Tenant) => `/api/v1/businesses/${t.urlKey}/pipelines?includeArchived=true`;

const stage = (name: string, extra: Record<string, unknown> = {}) => ({ name, state: 'OPEN', ...extra });
const valid = () => ({
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [stage('New', { state: 'NEW' }), stage('Won', { state: 'CLOSED', reasons: ['price'] })],
    },
  ],
  stageReasons: [{ key: 'price', label: 'Price' }],
});

type Case = [string, (body: any) => void, string, string];

/** Each rule of docs/pipelines.md "Writing (PUT)" and docs/decisions.md "Pipelines", one broken at a time. */
const INVALID: Case[] = [
  ['unknown top-level key', (b) => (b.extra = 1), 'extra', 'INVALID_FIELD'],
  ['unknown pipeline key', (b) => (b.pipelines[0].colour = 'red'), 'pipelines[0].colour', 'INVALID_FIELD'],
  ['unknown stage key', (b) => (b.pipelines[0].stages[1].foo = 1), 'pipelines[0].stages[1].foo', 'INVALID_FIELD'],
  ['unknown reason key', (b) => (b.stageReasons[0].order = 1), 'stageReasons[0].order', 'INVALID_FIELD'],
  ['pipelines not an array', (b) => (b.pipelines = {}), 'pipelines', 'INVALID_FIELD'],
  ['pipelines missing', (b) => delete b.pipelines, 'pipelines', 'INVALID_FIELD_VALUE'],
  ['stageReasons missing', (b) => delete b.stageReasons, 'stageReasons', 'INVALID_FIELD_VALUE'],
  ['pipeline entry not an object', (b) => (b.pipelines[0] = 'Sales'), 'pipelines[0]', 'INVALID_FIELD'],
  ['stages missing', (b) => delete b.pipelines[0].stages, 'pipelines[0].stages', 'INVALID_FIELD_VALUE'],
  ['pipeline name missing', (b) => delete b.pipelines[0].name, 'pipelines[0].name', 'INVALID_FIELD_VALUE'],
  ['pipeline name blank', (b) => (b.pipelines[0].name = '   '), 'pipelines[0].name', 'INVALID_FIELD_VALUE'],
  [
    'pipeline name too long',
    (b) => (b.pipelines[0].name = 'x'.repeat(201)),
    'pipelines[0].name',
    'INVALID_FIELD_VALUE',
  ],
  ['pipeline name a number', (b) => (b.pipelines[0].name = 5), 'pipelines[0].name', 'INVALID_FIELD'],
  ['pipeline name with NUL', (b) => (b.pipelines[0].name = 'a\u0000b'), 'pipelines[0].name', 'INVALID_FIELD_VALUE'],
  [
    'description too long',
    (b) => (b.pipelines[0].description = 'd'.repeat(2001)),
    'pipelines[0].description',
    'INVALID_FIELD_VALUE',
  ],
  ['isPrimary as text', (b) => (b.pipelines[0].isPrimary = 'true'), 'pipelines[0].isPrimary', 'INVALID_FIELD'],
  [
    'two primary pipelines',
    (b) => b.pipelines.push({ name: 'Other', isPrimary: true, stages: [] }),
    'pipelines[1].isPrimary',
    'INVALID_FIELD_VALUE',
  ],
  [
    'stage name missing',
    (b) => delete b.pipelines[0].stages[0].name,
    'pipelines[0].stages[0].name',
    'INVALID_FIELD_VALUE',
  ],
  [
    'stage state missing',
    (b) => delete b.pipelines[0].stages[0].state,
    'pipelines[0].stages[0].state',
    'INVALID_FIELD_VALUE',
  ],
  [
    'stage state outside the vocabulary',
    (b) => (b.pipelines[0].stages[0].state = 'WON'),
    'pipelines[0].stages[0].state',
    'INVALID_FIELD_VALUE',
  ],
  [
    'stage state in lower case',
    (b) => (b.pipelines[0].stages[0].state = 'open'),
    'pipelines[0].stages[0].state',
    'INVALID_FIELD_VALUE',
  ],
  [
    'reason key not in the catalog',
    (b) => (b.pipelines[0].stages[1].reasons = ['price', 'nope']),
    'pipelines[0].stages[1].reasons[1]',
    'INVALID_FIELD_VALUE',
  ],
  [
    'reason listed twice by a stage',
    (b) => (b.pipelines[0].stages[1].reasons = ['price', 'price']),
    'pipelines[0].stages[1].reasons[1]',
    'INVALID_FIELD_VALUE',
  ],
  [
    'reasons not an array',
    (b) => (b.pipelines[0].stages[1].reasons = 'price'),
    'pipelines[0].stages[1].reasons',
    'INVALID_FIELD',
  ],
  [
    'a label that is not a string',
    (b) => (b.pipelines[0].stages[0].labels = ['ok', 3]),
    'pipelines[0].stages[0].labels[1]',
    'INVALID_FIELD',
  ],
  [
    'closure above 100',
    (b) => (b.pipelines[0].stages[0].closure = 101),
    'pipelines[0].stages[0].closure',
    'INVALID_FIELD_VALUE',
  ],
  [
    'closure below 0',
    (b) => (b.pipelines[0].stages[0].closure = -1),
    'pipelines[0].stages[0].closure',
    'INVALID_FIELD_VALUE',
  ],
  [
    'closure as text',
    (b) => (b.pipelines[0].stages[0].closure = '30'),
    'pipelines[0].stages[0].closure',
    'INVALID_FIELD',
  ],
  [
    'negative decayThresholdHours',
    (b) => (b.pipelines[0].stages[0].decayThresholdHours = -0.5),
    'pipelines[0].stages[0].decayThresholdHours',
    'INVALID_FIELD_VALUE',
  ],
  [
    'stage isArchived as number',
    (b) => (b.pipelines[0].stages[0].isArchived = 1),
    'pipelines[0].stages[0].isArchived',
    'INVALID_FIELD',
  ],
  [
    'duplicate stage-reason key',
    (b) => b.stageReasons.push({ key: 'price', label: 'Again' }),
    'stageReasons[1].key',
    'INVALID_FIELD_VALUE',
  ],
  ['reason key blank', (b) => (b.stageReasons[0].key = ' '), 'stageReasons[0].key', 'INVALID_FIELD_VALUE'],
  ['reason label missing', (b) => delete b.stageReasons[0].label, 'stageReasons[0].label', 'INVALID_FIELD_VALUE'],
  ['unknown pipeline id', (b) => (b.pipelines[0].id = 'pl_madeup'), 'pipelines[0].id', 'INVALID_FIELD_VALUE'],
  [
    'unknown stage id',
    (b) => (b.pipelines[0].stages[0].id = 'st_madeup'),
    'pipelines[0].stages[0].id',
    'INVALID_FIELD_VALUE',
  ],
  ['id as a number', (b) => (b.pipelines[0].id = 7), 'pipelines[0].id', 'INVALID_FIELD'],
];

describeEachStore('operator PUT /admin/v1/businesses/:urlKey/pipelines', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });
  const put = (tenant: Tenant, body: unknown) =>
    call(ctx().app, 'PUT', adminPath(tenant), { token: tenant.operator, body });

  it.each(INVALID)('400: %s', async (_name, breakIt, field, code) => {
    const body = valid();
    breakIt(body);
    const r = await put(t, body);
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors).toContainEqual({ field, code, message: expect.any(String) });
  });

  it('a body that is not a JSON object is 400 INVALID_FIELD', async () => {
    for (const body of [[], 'text', 5]) {
      const r = await put(t, body);
      expect(r.status).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_FIELD');
    }
  });

  it('every failure is listed in one 400, the first in body order leads, and the previous configuration stays in force', async () => {
    const first = await put(t, valid());
    expect(first.status).toBe(200);
    const before = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    const body: any = valid();
    body.pipelines[0].stages[0].foo = 1;
    body.pipelines[0].stages[1].state = 'WON';
    body.pipelines[0].stages[1].reasons = ['missing'];
    body.stageReasons.push({ key: 'price', label: 'Dup' });
    const r = await put(t, body);
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors.map((e: any) => e.field)).toEqual([
      'pipelines[0].stages[0].foo',
      'pipelines[0].stages[1].state',
      'pipelines[0].stages[1].reasons[0]',
      'stageReasons[1].key',
    ]);
    expect(r.body.data.error).toMatchObject({
      code: 'INVALID_FIELD',
      status: 400,
      message: r.body.data.error.errors[0].message,
    });
    const after = await call(ctx().app, 'GET', publicPath(t), { token: t.token });
    expect(after.body).toEqual(before.body);
  });

  it('entries carrying an existing id keep it, renamed and moved; entries without get a new opaque id', async () => {
    const tenant = await seedTenant(ctx().app);
    const first = (await put(tenant, valid())).body.data[0];
    const [pipeline] = first.pipelines;
    const [newStage, wonStage] = pipeline.stages;
    const second = await put(tenant, {
      pipelines: [
        { name: 'Fresh', stages: [{ name: 'Start', state: 'NEW' }] },
        {
          id: pipeline.id,
          name: 'Sales renamed',
          stages: [
            { id: wonStage.id, name: 'Won!', state: 'CLOSED' },
            { id: newStage.id, name: 'New', state: 'NEW' },
          ],
        },
      ],
      stageReasons: [],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const [fresh, kept] = second.body.data[0].pipelines;
    expect(kept.id).toBe(pipeline.id);
    expect(kept.stages.map((s: any) => s.id)).toEqual([wonStage.id, newStage.id]);
    const allIds = [fresh.id, fresh.stages[0].id, kept.id, ...kept.stages.map((s: any) => s.id)];
    expect(new Set(allIds).size).toBe(allIds.length);
    for (const id of [fresh.id, fresh.stages[0].id]) {
      expect(id).toMatch(/^[A-Za-z0-9_]{12,}$/);
      expect(id).not.toContain(tenant.urlKey);
      expect(id).not.toMatch(/^\d+$/);
    }
  });

  it('an id removed by an earlier PUT no longer belongs to the business', async () => {
    const tenant = await seedTenant(ctx().app);
    const oldId = (await put(tenant, valid())).body.data[0].pipelines[0].id;
    expect((await put(tenant, { pipelines: [], stageReasons: [] })).status).toBe(200);
    const r = await put(tenant, { pipelines: [{ id: oldId, name: 'Back', stages: [] }], stageReasons: [] });
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors).toEqual([
      { field: 'pipelines[0].id', code: 'INVALID_FIELD_VALUE', message: expect.any(String) },
    ]);
  });

  it('an id of another business is INVALID_FIELD_VALUE, and so is a pipeline id used for a stage', async () => {
    const other = await seedTenant(ctx().app);
    const foreign = (await put(other, valid())).body.data[0].pipelines[0];
    const own = (await put(t, valid())).body.data[0].pipelines[0];
    const r = await put(t, {
      pipelines: [
        { id: foreign.id, name: 'Stolen', stages: [{ id: foreign.stages[0].id, name: 'S', state: 'NEW' }] },
        { id: own.id, name: 'Own', stages: [{ id: own.id, name: 'Wrong kind', state: 'NEW' }] },
      ],
      stageReasons: [],
    });
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors.map((e: any) => [e.field, e.code])).toEqual([
      ['pipelines[0].id', 'INVALID_FIELD_VALUE'],
      ['pipelines[0].stages[0].id', 'INVALID_FIELD_VALUE'],
      ['pipelines[1].stages[0].id', 'INVALID_FIELD_VALUE'],
    ]);
  });

  it('the same id twice is INVALID_FIELD_VALUE', async () => {
    const own = (await put(t, valid())).body.data[0].pipelines[0];
    const r = await put(t, {
      pipelines: [
        { id: own.id, name: 'A', stages: [{ id: own.stages[0].id, name: 'S', state: 'NEW' }] },
        { id: own.id, name: 'B', stages: [{ id: own.stages[0].id, name: 'T', state: 'NEW' }] },
      ],
      stageReasons: [],
    });
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors.map((e: any) => e.field)).toEqual(['pipelines[1].id', 'pipelines[1].stages[0].id']);
  });

  it('accepts the documented extremes: closure 0 and 100, decayThresholdHours 0, null as "not set", an empty configuration', async () => {
    const r = await put(t, {
      pipelines: [
        {
          name: ' Trimmed ',
          description: null,
          isPrimary: null,
          stages: [
            stage('A', { closure: 0, decayThresholdHours: 0 }),
            stage('B', { closure: 100, decayThresholdHours: null, labels: null }),
          ],
        },
      ],
      stageReasons: [],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [a, b] = r.body.data[0].pipelines[0].stages;
    expect(r.body.data[0].pipelines[0]).toMatchObject({ name: 'Trimmed', isPrimary: false });
    expect(a).toMatchObject({ closure: 0, decayThresholdHours: 0 });
    expect(b.closure).toBe(100);
    expect('decayThresholdHours' in b).toBe(false);
    expect((await put(t, { pipelines: [], stageReasons: [] })).body.data).toEqual([
      { pipelines: [], stageReasons: [] },
    ]);
  });

  it('unknown business: 404 BUSINESS_NOT_FOUND on PUT and GET', async () => {
    const urlKey = randomKey('none');
    for (const method of ['PUT', 'GET'] as const) {
      const r = await call(ctx().app, method, adminPath(urlKey), {
        token: t.operator,
        ...(method === 'PUT' && { body: valid() }),
      });
      expect(r.status).toBe(404);
      expect(r.body.data.error.code).toBe('BUSINESS_NOT_FOUND');
    }
  });

  it('operator routes need an operator session: none or an app token is 401', async () => {
    expect((await call(ctx().app, 'PUT', adminPath(t), { body: valid() })).status).toBe(401);
    expect((await call(ctx().app, 'GET', adminPath(t), { token: t.token })).status).toBe(401);
  });

  it('a replace is recorded in the audit log', async () => {
    const tenant = await seedTenant(ctx().app);
    expect((await put(tenant, valid())).status).toBe(200);
    // Read from the store: other suites share the PostgreSQL audit log, so a page could miss it.
    const entries = await ctx().store.data.listAudit(1000, 0);
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'pipelines.replace',
        businessUrlKey: tenant.urlKey,
        operatorEmail: expect.stringContaining('@'),
        detail: { pipelines: valid().pipelines.length },
      }),
    );
  });

  it('a change is visible on the very next public GET of this process (the cache is dropped)', async () => {
    const tenant = await seedTenant(ctx().app);
    await put(tenant, valid());
    expect(
      (await call(ctx().app, 'GET', publicPath(tenant), { token: tenant.token })).body.data[0].pipelines[0].name,
    ).toBe('Sales');
    const body: any = valid();
    body.pipelines[0].name = 'Changed';
    await put(tenant, body);
    expect(
      (await call(ctx().app, 'GET', publicPath(tenant), { token: tenant.token })).body.data[0].pipelines[0].name,
    ).toBe('Changed');
  });
});
