// @module-tag pooled
// @module-tag smoke
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore, type TestApp } from '../helpers/app.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

const base = (t: Tenant) => `/api/v1/businesses/${t.urlKey}/clients`;

async function create(ctx: TestApp, t: Tenant, body: Record<string, unknown>) {
  return call(ctx.app, 'POST', base(t), { token: t.token, body });
}

async function get(ctx: TestApp, t: Tenant, clientId: string) {
  return call(ctx.app, 'GET', `${base(t)}/${encodeURIComponent(clientId)}`, { token: t.token });
}

const full = (clientId: string) => ({
  clientId,
  name: 'Acme Traders',
  alias: 'Acme',
  email: 'Billing@Acme.example',
  phone: '+91 (98) 7654-3210',
  gstin: '27AAPFU0939F1ZV',
  street: '1 Main Road',
  city: 'Pune',
  state: 'Maharashtra',
  country: 'IN',
  additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001', showInInvoice: true }],
  shippingDetails: [
    { name: 'Warehouse A', city: 'Pune', country: 'IN' } as {
      name: string;
      city: string;
      country: string;
      customHeaders?: { label: string; value: string }[];
    },
    {
      name: 'Warehouse B',
      city: 'Mumbai',
      country: 'IN',
      customHeaders: [
        { label: 'Dock', value: '4' },
        { label: 'Gate', value: 'B' },
      ],
    },
  ],
  bankAccounts: [
    { bankAccountName: 'HDFC', bankAccountNumber: '0001', ifscCode: 'HDFC0000001', isPrimary: true },
    { bankAccountName: 'ICICI', bankAccountNumber: '0002', ifscCode: 'ICIC0000002' },
  ],
});

describeEachStore('4.4 client idempotency', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app, { country: 'IN' });
  });

  async function createdWith(body: Record<string, unknown>) {
    const first = await create(ctx(), t, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.idempotent).toBeUndefined();
    return first.body.data;
  }

  async function expectIdentical(first: Record<string, unknown>, retry: Record<string, unknown>) {
    const r = await create(ctx(), t, retry);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.idempotent).toBe(true);
    const { idempotent, ...rest } = r.body.data;
    expect(rest).toEqual(first);
  }

  async function expectConflictAndUnchanged(first: Record<string, unknown>, retry: Record<string, unknown>) {
    const r = await create(ctx(), t, retry);
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const after = await get(ctx(), t, first.clientId as string);
    expect(after.body.data).toEqual(first);
  }

  it('new clientId: 201 with the full client, which equals a later GET', async () => {
    const first = await createdWith(full(randomKey('c')));
    const fetched = await get(ctx(), t, first.clientId);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toEqual(first);
    expect(fetched.body.data.idempotent).toBeUndefined();
  });

  it('same clientId, same details: 201 idempotent, updatedAt unchanged', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    await new Promise((r) => setTimeout(r, 5));
    await expectIdentical(first, body);
  });

  it('omitting derived fields and restating them unchanged are identical retries', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    await expectIdentical(first, { ...body, gstState: first.gstState, panNumber: first.panNumber });
    await expectIdentical(first, {
      ...body,
      locale: first.locale,
      clientType: first.clientType,
      taxPayerType: first.taxPayerType,
    });
  });

  it('omitting a field whose stored value is its default, or sending the default, is identical', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    await expectIdentical(first, { ...body, isClient: true, isVendor: false, phoneShowInInvoice: false });
  });

  it('differently formatted equivalent values: e-mail case and phone formatting', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    await expectIdentical(first, { ...body, email: 'billing@acme.EXAMPLE', phone: '919876543210' });
  });

  it('reordered additionalIds, shippingDetails, bankAccounts and nested customHeaders are identical', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith({ ...body, additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }] });
    const shipping = [...body.shippingDetails]
      .reverse()
      .map((s) => (s.customHeaders ? { ...s, customHeaders: [...s.customHeaders].reverse() } : s));
    await expectIdentical(first, {
      ...body,
      additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }],
      shippingDetails: shipping,
      bankAccounts: [...body.bankAccounts].reverse(),
    });
  });

  it('null on an optional field is the same as omitting it', async () => {
    const body = { clientId: randomKey('c'), name: 'Nulls Ltd' };
    const first = await createdWith(body);
    await expectIdentical(first, { ...body, alias: null, email: null, vatNumber: null });
  });

  it('clientId and name are trimmed before comparing', async () => {
    const clientId = randomKey('c');
    const first = await createdWith({ clientId, name: 'Trim Co' });
    await expectIdentical(first, { clientId: `  ${clientId} `, name: ' Trim Co  ' });
  });

  it('rule 4: dropping a plain optional value (alias) conflicts and changes nothing', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    const { alias, ...withoutAlias } = body;
    await expectConflictAndUnchanged(first, withoutAlias);
  });

  it('different details conflict: name, a bank account, a changed derived value', async () => {
    const body = full(randomKey('c'));
    const first = await createdWith(body);
    await expectConflictAndUnchanged(first, { ...body, name: 'Acme Traders Pvt' });
    await expectConflictAndUnchanged(first, { ...body, bankAccounts: body.bankAccounts.slice(0, 1) });
    await expectConflictAndUnchanged(first, { ...body, gstState: '29' });
  });

  it('validation first: a bad body with a taken clientId is 400, never 409', async () => {
    const body = full(randomKey('c'));
    await createdWith(body);
    const r = await create(ctx(), t, { ...body, email: 'not-an-email' });
    expect(r.status).toBe(400);
    expect(r.body.data.error.code).toBe('INVALID_FIELD_VALUE');
  });

  it('archived and deleted clients keep their clientId taken (409) and are invisible to get (404)', async () => {
    for (const action of ['archive', 'delete'] as const) {
      const body = { clientId: randomKey('c'), name: `To ${action}` };
      await createdWith(body);
      const path = `/admin/v1/businesses/${t.urlKey}/clients/${encodeURIComponent(body.clientId)}`;
      const done =
        action === 'archive'
          ? await call(ctx().app, 'POST', `${path}/archive`, { token: t.operator })
          : await call(ctx().app, 'DELETE', path, { token: t.operator });
      expect(done.status).toBe(200);
      const again = await create(ctx(), t, body);
      expect(again.status).toBe(409);
      expect(again.body.data.error.code).toBe('IDEMPOTENCY_CONFLICT');
      const fetched = await get(ctx(), t, body.clientId);
      expect(fetched.status).toBe(404);
      expect(fetched.body.data.error.code).toBe('CLIENT_NOT_FOUND');
    }
  });

  it('rule 5: no merging: the same e-mail, phone and gstin under another clientId is another client', async () => {
    const body = full(randomKey('c'));
    await createdWith(body);
    const other = await createdWith({ ...body, clientId: randomKey('c') });
    expect(other.clientId).not.toBe(body.clientId);
  });

  it('the same clientId in two businesses is two unrelated clients', async () => {
    const other = await seedTenant(ctx().app, { country: 'IN' });
    const clientId = randomKey('c');
    const a = await create(ctx(), t, { clientId, name: 'In A' });
    const b = await create(ctx(), other, { clientId, name: 'In B' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.data.idempotent).toBeUndefined();
    expect((await get(ctx(), t, clientId)).body.data.name).toBe('In A');
    expect((await get(ctx(), other, clientId)).body.data.name).toBe('In B');
  });

  it('balance, source and timestamps are never compared: a retry after a document is still identical', async () => {
    const body = { clientId: randomKey('c'), name: 'Balance Co' };
    await createdWith(body);
    const doc = await call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${body.clientId}/documents`, {
      token: t.operator,
      body: { type: 'invoice', amount: 100.5 },
    });
    expect(doc.status).toBe(201);
    const r = await create(ctx(), t, body);
    expect(r.status).toBe(201);
    expect(r.body.data.idempotent).toBe(true);
    expect(r.body.data.balance.invoice).toBe(100.5);
  });

  it('concurrent creates of one clientId in one process: one 201 without idempotent, the rest idempotent', async () => {
    const body = full(randomKey('c'));
    const results = await Promise.all(Array.from({ length: 40 }, () => create(ctx(), t, body)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.filter((r) => r.body.data.idempotent !== true)).toHaveLength(1);
  });

  it("concurrent creates with different details: each 201 carries the winner's details, or 409", async () => {
    const clientId = randomKey('c');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => create(ctx(), t, { clientId, name: `Name ${i % 4}` })),
    );
    const stored = (await get(ctx(), t, clientId)).body.data;
    for (const r of results) {
      if (r.status === 201) expect(r.body.data.name).toBe(stored.name);
      else expect(r.status).toBe(409);
    }
    expect(results.filter((r) => r.status === 201 && r.body.data.idempotent !== true)).toHaveLength(1);
  });
});
