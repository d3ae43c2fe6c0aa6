import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

const list = (t: Tenant, query = '') => `/admin/v1/businesses/${t.urlKey}/clients${query}`;

describeEachStore('operator client list (GET /admin/v1/businesses/:urlKey/clients)', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app);
    // Created one after the other, so newest-first order is Zoë, 50%…, Meera, Anil.
    for (const [clientId, name] of [
      ['CUST-1', 'Anil Traders'],
      ['CUST-2', 'Meera Handlooms'],
      ['PCT', '50% Off_Store'],
      ['ZOE', 'Zoë Exports'],
    ]) {
      const created = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: { clientId, name, city: 'Jaipur' },
      });
      expect(created.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  });
  const get = (query: string, tenant = t) => call(ctx().app, 'GET', list(tenant, query), { token: tenant.operator });

  it('pages every client newest first, with the total over all pages and no internal id', async () => {
    const first = await get('?$limit=3');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    const page = first.body.data[0];
    expect(page).toMatchObject({ total: 4, limit: 3, skip: 0 });
    expect(page.items.map((c: any) => c.clientId)).toEqual(['ZOE', 'PCT', 'CUST-2']);
    expect(Object.keys(page.items[0]).sort()).toEqual([
      'city',
      'clientId',
      'country',
      'createdAt',
      'email',
      'name',
      'phone',
      'source',
      'status',
      'updatedAt',
    ]);
    expect(page.items[0]).toMatchObject({
      name: 'Zoë Exports',
      city: 'Jaipur',
      status: 'active',
      source: 'API',
      email: null,
    });
    const second = await get('?$limit=3&$skip=3');
    expect(second.body.data[0].items.map((c: any) => c.clientId)).toEqual(['CUST-1']);
  });

  it('searches by name or clientId, ignoring case, wildcards taken literally', async () => {
    const ids = async (q: string) =>
      (await get(`?q=${encodeURIComponent(q)}`)).body.data[0].items.map((c: any) => c.clientId);
    expect(await ids('meera')).toEqual(['CUST-2']);
    expect(await ids('cust-')).toEqual(['CUST-2', 'CUST-1']);
    expect(await ids('50%')).toEqual(['PCT']);
    expect(await ids('_')).toEqual(['PCT']);
    expect(await ids('nobody')).toEqual([]);
    expect((await get('?q=nobody')).body.data[0].total).toBe(0);
    expect(await ids('  ')).toHaveLength(4);
  });

  it('shows archived, deleted and dashboard clients with their status', async () => {
    const tenant = await seedTenant(ctx().app);
    await call(ctx().app, 'POST', `/api/v1/businesses/${tenant.urlKey}/clients`, {
      token: tenant.token,
      body: { clientId: 'OLD', name: 'Old Co' },
    });
    expect((await call(ctx().app, 'POST', `${list(tenant)}/OLD/archive`, { token: tenant.operator })).status).toBe(200);
    expect(
      (
        await call(ctx().app, 'POST', list(tenant), {
          token: tenant.operator,
          body: { source: 'INVOICE', name: 'Walk-in' },
        })
      ).status,
    ).toBe(201);
    const items = (await get('', tenant)).body.data[0].items;
    expect(items.map((c: any) => [c.clientId, c.name, c.status, c.source])).toEqual([
      [null, 'Walk-in', 'active', 'INVOICE'],
      ['OLD', 'Old Co', 'archived', 'API'],
    ]);
  });

  it("never shows another business's clients", async () => {
    const other = await seedTenant(ctx().app);
    const page = (await get('?q=cust', other)).body.data[0];
    expect(page).toEqual({ items: [], total: 0, limit: 20, skip: 0 });
  });

  it.each([
    ['$limit=0', 'INVALID_PAGINATION_LIMIT'],
    ['$limit=51', 'INVALID_PAGINATION_LIMIT'],
    ['$limit=ten', 'INVALID_PAGINATION_LIMIT'],
    ['$skip=-1', 'INVALID_PAGINATION_SKIP'],
    ['$skip=100001', 'INVALID_PAGINATION_SKIP'],
    ['status=active', 'INVALID_QUERY_FIELD'],
    ['q=a&q=b', 'INVALID_QUERY_VALUE'],
    [`q=${'x'.repeat(201)}`, 'INVALID_QUERY_VALUE'],
    ['q[$ne]=x', 'INVALID_QUERY_FIELD'],
  ])('400 for %s', async (query, code) => {
    const r = await get(`?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe(code);
  });

  it('404 for an unknown business, 401 without an operator session', async () => {
    expect(
      (await call(ctx().app, 'GET', '/admin/v1/businesses/no-such-business/clients', { token: t.operator })).body.data
        .error.code,
    ).toBe('BUSINESS_NOT_FOUND');
    expect((await call(ctx().app, 'GET', list(t), { token: t.token })).status).toBe(401);
  });
});
