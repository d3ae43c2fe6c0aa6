// @module-tag dates
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore, type TestApp } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

const path = (t: Tenant, list: string) => `/admin/v1/businesses/${t.urlKey}/${list}`;

type Case = [string, string, unknown, string, string];

/** docs/decisions.md "Lead configuration (operator side)", one rule broken at a time: [name, list, body, field, code]. */
const INVALID: Case[] = [
  [
    'a source key in lower case',
    'lead-sources',
    { sources: [{ key: 'web', label: 'Web' }] },
    'sources[0].key',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a source key over 64 characters',
    'lead-sources',
    { sources: [{ key: 'K'.repeat(65), label: 'Long' }] },
    'sources[0].key',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a source key twice',
    'lead-sources',
    {
      sources: [
        { key: 'WEB', label: 'Web' },
        { key: 'WEB', label: 'Again' },
      ],
    },
    'sources[1].key',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a source without a label',
    'lead-sources',
    { sources: [{ key: 'WEB' }] },
    'sources[0].label',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a blank source label',
    'lead-sources',
    { sources: [{ key: 'WEB', label: '  ' }] },
    'sources[0].label',
    'INVALID_FIELD_VALUE',
  ],
  [
    'an unknown source member',
    'lead-sources',
    { sources: [{ key: 'WEB', label: 'Web', colour: 'red' }] },
    'sources[0].colour',
    'INVALID_FIELD',
  ],
  [
    'isArchived as text',
    'lead-sources',
    { sources: [{ key: 'WEB', label: 'Web', isArchived: 'yes' }] },
    'sources[0].isArchived',
    'INVALID_FIELD',
  ],
  ['sources not an array', 'lead-sources', { sources: 'WEB' }, 'sources', 'INVALID_FIELD'],
  ['sources missing', 'lead-sources', {}, 'sources', 'INVALID_FIELD_VALUE'],
  ['an unknown top-level key', 'lead-sources', { sources: [], extra: 1 }, 'extra', 'INVALID_FIELD'],
  [
    'a tag name twice ignoring case',
    'tags',
    { tags: [{ name: 'VIP' }, { name: 'vip' }] },
    'tags[1].name',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a tag name over 100 characters',
    'tags',
    { tags: [{ name: 't'.repeat(101) }] },
    'tags[0].name',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a tag id of no tag of the business',
    'tags',
    { tags: [{ id: 'tag_madeup', name: 'VIP' }] },
    'tags[0].id',
    'INVALID_FIELD_VALUE',
  ],
  ['a tag name with NUL', 'tags', { tags: [{ name: 'a\u0000b' }] }, 'tags[0].name', 'INVALID_FIELD_VALUE'],
  [
    'a member e-mail that is not one',
    'members',
    { members: [{ email: 'nobody', name: 'No One' }] },
    'members[0].email',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a member e-mail twice ignoring case',
    'members',
    {
      members: [
        { email: 'a@x.in', name: 'A' },
        { email: 'A@X.IN', name: 'B' },
      ],
    },
    'members[1].email',
    'INVALID_FIELD_VALUE',
  ],
  ['a member without a name', 'members', { members: [{ email: 'a@x.in' }] }, 'members[0].name', 'INVALID_FIELD_VALUE'],
  [
    'a member id (members are known by e-mail)',
    'members',
    { members: [{ id: 'mem_1', email: 'a@x.in', name: 'A' }] },
    'members[0].id',
    'INVALID_FIELD',
  ],
  [
    'a lead custom field of an unknown type',
    'lead-custom-fields',
    { fields: [{ name: 'Size', type: 'COLOUR' }] },
    'fields[0].type',
    'INVALID_FIELD_VALUE',
  ],
  [
    'a SELECT lead custom field without options',
    'lead-custom-fields',
    { fields: [{ name: 'Size', type: 'SELECT' }] },
    'fields[0].options',
    'INVALID_FIELD_VALUE',
  ],
];

/** A live lead carrying a source, a tag and a member, written straight to the store: the PUT's in-use rule reads it. */
async function seedLeadCarrying(
  ctx: TestApp,
  t: Tenant,
  links: { source?: string; tagId?: string; memberId?: string },
): Promise<void> {
  const db = ctx.store.leads.db;
  const business = await db
    .selectFrom('businesses')
    .select('id')
    .where('url_key', '=', t.urlKey)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const lead = await db
    .insertInto('leads')
    .values({
      business_pk: business.id,
      lead_id: `ld_${now}${Math.random().toString(36).slice(2)}`,
      external_id: null,
      removed: 0,
      source: 'DASHBOARD',
      pipeline_id: 'pl_x',
      stage_id: 'st_x',
      lead_source_key: links.source ?? null,
      assignee_id: links.memberId ?? null,
      follow_up_date: null,
      budget_amount: null,
      client_id: 'c',
      contact_id: 'ct',
      contact_name: 'C',
      contact_email: null,
      contact_phone: null,
      customer_name: 'Cust',
      subject: null,
      details: null,
      data: '{}',
      create_request: null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (links.tagId)
    await db
      .insertInto('lead_tags')
      .values({ lead_pk: lead.id, business_pk: business.id, tag_id: links.tagId })
      .execute();
}

describeEachStore('operator lead configuration', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });
  const get = (tenant: Tenant, list: string) => call(ctx().app, 'GET', path(tenant, list), { token: tenant.operator });
  const put = (tenant: Tenant, list: string, body: unknown) =>
    call(ctx().app, 'PUT', path(tenant, list), { token: tenant.operator, body });

  it('a new business starts with the seven lead sources, no tags, no members, no lead custom fields', async () => {
    const tenant = await seedTenant(ctx().app);
    const sources = await get(tenant, 'lead-sources');
    expect(sources.status).toBe(200);
    expect(sources.body.data.sources.map((s: any) => `${s.key}:${s.label}`)).toEqual([
      'WEBSITE:Website',
      'REFERRAL:Referral',
      'EMAIL:E-mail',
      'PHONE:Phone',
      'SOCIAL:Social media',
      'EVENT:Event',
      'OTHER:Other',
    ]);
    expect(sources.body.data.sources.every((s: any) => s.isArchived === false)).toBe(true);
    expect((await get(tenant, 'tags')).body.data).toEqual({ tags: [] });
    expect((await get(tenant, 'members')).body.data).toEqual({ members: [] });
    expect((await get(tenant, 'lead-custom-fields')).body.data).toEqual([]);
  });

  it.each(INVALID)('400: %s', async (_name, list, body, field, code) => {
    const before = await get(t, list);
    const r = await put(t, list, body);
    expect(r.status).toBe(400);
    expect(r.body.data.error.errors).toContainEqual({ field, code, message: expect.any(String) });
    expect((await get(t, list)).body).toEqual(before.body);
  });

  it('a body that is not a JSON object is 400 INVALID_FIELD on every list', async () => {
    for (const list of ['lead-sources', 'tags', 'members', 'lead-custom-fields']) {
      const r = await put(t, list, ['x']);
      expect(r.status, list).toBe(400);
      expect(r.body.data.error.code).toBe('INVALID_FIELD');
    }
  });

  it('PUT replaces the list, in the order sent; GET answers the same; a GET can be sent back unchanged', async () => {
    const tenant = await seedTenant(ctx().app);
    const r = await put(tenant, 'lead-sources', {
      sources: [
        { key: 'TRADE_FAIR', label: ' Trade fair ' },
        { key: 'WEBSITE', label: 'Web', isArchived: true },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.sources).toEqual([
      { key: 'TRADE_FAIR', label: 'Trade fair', isArchived: false },
      { key: 'WEBSITE', label: 'Web', isArchived: true },
    ]);
    const read = await get(tenant, 'lead-sources');
    expect(read.body.data).toEqual(r.body.data);
    expect((await put(tenant, 'lead-sources', read.body.data)).body.data).toEqual(read.body.data);
  });

  it('a tag sent with its id keeps it across a rename; a tag without one gets a new opaque id', async () => {
    const tenant = await seedTenant(ctx().app);
    const [vip] = (await put(tenant, 'tags', { tags: [{ name: 'VIP' }] })).body.data.tags;
    expect(vip.id).toMatch(/^tag_[A-Za-z0-9_-]{8,}$/);
    const r = await put(tenant, 'tags', {
      tags: [{ name: 'Export' }, { id: vip.id, name: 'Key account', isArchived: true }],
    });
    expect(r.status).toBe(200);
    const [exportTag, renamed] = r.body.data.tags;
    expect(renamed).toEqual({ id: vip.id, name: 'Key account', isArchived: true });
    expect(exportTag.id).not.toBe(vip.id);
  });

  it('members are stored lower-cased, known by e-mail, and answered without any internal id', async () => {
    const tenant = await seedTenant(ctx().app);
    const r = await put(tenant, 'members', { members: [{ email: 'Ravi.Kumar@Example.COM', name: ' Ravi Kumar ' }] });
    expect(r.status).toBe(200);
    expect(r.body.data.members).toEqual([{ email: 'ravi.kumar@example.com', name: 'Ravi Kumar', isArchived: false }]);
    expect(JSON.stringify((await get(tenant, 'members')).body)).not.toMatch(/mem_/);
  });

  it('lead custom fields are defined as client custom fields, apart from them', async () => {
    const tenant = await seedTenant(ctx().app);
    const r = await put(tenant, 'lead-custom-fields', {
      fields: [{ name: 'Product line', type: 'SELECT', options: ['Spices', 'Textiles'] }],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id: expect.any(String),
        name: 'Product line',
        type: 'SELECT',
        options: ['Spices', 'Textiles'],
        isArchived: false,
      },
    ]);
    expect(
      (await call(ctx().app, 'GET', `/admin/v1/businesses/${tenant.urlKey}/custom-fields`, { token: tenant.operator }))
        .body.data,
    ).toEqual([]);
  });

  it('removing a source, tag or member that a live lead carries is refused, naming it; archiving it is accepted', async () => {
    const tenant = await seedTenant(ctx().app);
    const [tag] = (await put(tenant, 'tags', { tags: [{ name: 'VIP' }] })).body.data.tags;
    await put(tenant, 'members', { members: [{ email: 'ravi@example.com', name: 'Ravi' }] });
    const members = await ctx().store.leadSettings.get(tenant.urlKey);
    await seedLeadCarrying(ctx(), tenant, { source: 'REFERRAL', tagId: tag.id, memberId: members!.members![0]!.id });

    const noSource = await put(tenant, 'lead-sources', { sources: [{ key: 'WEBSITE', label: 'Website' }] });
    expect(noSource.status).toBe(400);
    expect(noSource.body.data.error.errors).toEqual([
      { field: 'sources', code: 'INVALID_FIELD_VALUE', message: expect.stringContaining('REFERRAL') },
    ]);
    const noTag = await put(tenant, 'tags', { tags: [] });
    expect(noTag.body.data.error.errors).toEqual([
      { field: 'tags', code: 'INVALID_FIELD_VALUE', message: expect.stringContaining('"VIP"') },
    ]);
    const noMember = await put(tenant, 'members', { members: [] });
    expect(noMember.body.data.error.errors).toEqual([
      { field: 'members', code: 'INVALID_FIELD_VALUE', message: expect.stringContaining('ravi@example.com') },
    ]);

    expect(
      (await put(tenant, 'lead-sources', { sources: [{ key: 'REFERRAL', label: 'Referral', isArchived: true }] }))
        .status,
    ).toBe(200);
    expect((await put(tenant, 'tags', { tags: [{ id: tag.id, name: 'VIP', isArchived: true }] })).status).toBe(200);
    expect(
      (await put(tenant, 'members', { members: [{ email: 'RAVI@example.com', name: 'Ravi K', isArchived: true }] }))
        .status,
    ).toBe(200);
    // The member kept its identity across the edit (matched by e-mail), so the lead still resolves to them.
    expect((await ctx().store.leadSettings.get(tenant.urlKey))!.members![0]!.id).toBe(members!.members![0]!.id);
  });

  it('every change is audit-logged with its business', async () => {
    const tenant = await seedTenant(ctx().app);
    await put(tenant, 'lead-sources', { sources: [] });
    await put(tenant, 'tags', { tags: [{ name: 'VIP' }] });
    await put(tenant, 'members', { members: [] });
    await put(tenant, 'lead-custom-fields', { fields: [] });
    const page = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=200', { token: tenant.operator });
    const names = page.body.data.entries
      .filter((e: { business: string | null }) => e.business === tenant.urlKey)
      .map((e: { action: string }) => e.action);
    expect(names).toEqual(
      expect.arrayContaining(['lead-sources.replace', 'tags.replace', 'members.replace', 'lead-custom-fields.replace']),
    );
  });

  it('an unknown business is 404 BUSINESS_NOT_FOUND; an app token is 401', async () => {
    const missing = await call(ctx().app, 'GET', '/admin/v1/businesses/no-such-business/tags', { token: t.operator });
    expect(missing.status).toBe(404);
    expect(missing.body.data.error.code).toBe('BUSINESS_NOT_FOUND');
    expect(
      (
        await call(ctx().app, 'PUT', '/admin/v1/businesses/no-such-business/tags', {
          token: t.operator,
          body: { tags: [] },
        })
      ).status,
    ).toBe(404);
    expect((await call(ctx().app, 'GET', path(t, 'members'), { token: t.token })).status).toBe(401);
  });

  it('a business answers its time zone: the country default until an operator sets an IANA name', async () => {
    const india = await seedTenant(ctx().app, { country: 'IN' });
    const business = `/admin/v1/businesses/${india.urlKey}`;
    expect((await call(ctx().app, 'GET', business, { token: india.operator })).body.data.timeZone).toBe('Asia/Kolkata');
    const set = await call(ctx().app, 'PATCH', business, {
      token: india.operator,
      body: { timeZone: 'Europe/London' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.timeZone).toBe('Europe/London');
    const bad = await call(ctx().app, 'PATCH', business, { token: india.operator, body: { timeZone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error.errors).toEqual([
      { field: 'timeZone', code: 'INVALID_FIELD_VALUE', message: expect.stringContaining('IANA') },
    ]);
    for (const [country, zone] of [
      ['AE', 'Asia/Dubai'],
      ['SA', 'Asia/Riyadh'],
      ['MY', 'Asia/Kuala_Lumpur'],
      ['GB', 'UTC'],
    ]) {
      const tenant = await seedTenant(ctx().app, { country: country! });
      expect(
        (await call(ctx().app, 'GET', `/admin/v1/businesses/${tenant.urlKey}`, { token: tenant.operator })).body.data
          .timeZone,
      ).toBe(zone);
    }
  });

  it.each([
    ['ASIA/KOLKATA', 'Asia/Kolkata'],
    ['utc', 'UTC'],
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['europe/kiev', 'Europe/Kyiv'],
    ['Etc/UTC', 'UTC'],
  ])('issue 34: timeZone %s is stored and answered as the time zone database spells it (%s)', async (sent, stored) => {
    const tenant = await seedTenant(ctx().app, { country: 'IN' });
    const business = `/admin/v1/businesses/${tenant.urlKey}`;
    expect(
      (await call(ctx().app, 'PATCH', business, { token: tenant.operator, body: { timeZone: sent } })).body.data
        .timeZone,
    ).toBe(stored);
    expect((await call(ctx().app, 'GET', business, { token: tenant.operator })).body.data.timeZone).toBe(stored);
  });

  it.each(['US/Pacific-New', 'Canada/East-Saskatchewan', 'SystemV/AST4'])(
    'issue 34: timeZone %s, a link removed from the time zone database, is refused',
    async (zone) => {
      const tenant = await seedTenant(ctx().app, { country: 'IN' });
      const bad = await call(ctx().app, 'PATCH', `/admin/v1/businesses/${tenant.urlKey}`, {
        token: tenant.operator,
        body: { timeZone: zone },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.data.error.errors).toEqual([
        { field: 'timeZone', code: 'INVALID_FIELD_VALUE', message: expect.stringContaining('IANA') },
      ]);
    },
  );
});
