// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { CLIENT_BODY } from '../helpers/endpoints.js';
import { randomKey, seedTenant, type Tenant } from '../helpers/seed.js';

/** Nothing half-written: a refused create leaves no trace, and concurrent balance updates all land. */
describeEachStore('clients: all or nothing', (ctx) => {
  let t: Tenant;
  beforeAll(async () => {
    t = await seedTenant(ctx().app, { country: 'IN', customFieldsEnabled: true });
  });
  const clients = () => `/api/v1/businesses/${t.urlKey}/clients`;

  const spoiled: [string, (body: typeof CLIENT_BODY) => unknown][] = [
    ['one bad field among many good ones', (b) => ({ ...b, email: 'not an e-mail' })],
    [
      'a bad member deep in a shipping entry',
      (b) => ({ ...b, shippingDetails: [...b.shippingDetails, { name: 'x', gstin: 'NOT-A-GSTIN' }] }),
    ],
    [
      'a bad bank account after good ones',
      (b) => ({ ...b, bankAccounts: [...b.bankAccounts, { sortCode: '12-34-56', bankCountry: 'IN' }] }),
    ],
    ['an unknown custom field', (b) => ({ ...b, customFields: { 'No such field': 'x' } })],
    ['an unknown key at the end', (b) => ({ ...b, zzz: true })],
  ];

  it.each(spoiled)('a create refused for %s stores nothing: the clientId stays free', async (_name, spoil) => {
    const clientId = randomKey('atomic');
    const body = { ...CLIENT_BODY, clientId };
    const refused = await call(ctx().app, 'POST', clients(), { token: t.token, body: spoil(body) });
    expect(refused.status).toBe(400);
    expect((await call(ctx().app, 'GET', `${clients()}/${clientId}`, { token: t.token })).status).toBe(404);
    const created = await call(ctx().app, 'POST', clients(), { token: t.token, body });
    expect(created.status).toBe(201);
    expect(created.body.data.idempotent).toBeUndefined();
  });

  it('40 concurrent documents on one client are all added: none lost, the sum exact to 4 decimals', async () => {
    const clientId = randomKey('balance');
    expect(
      (await call(ctx().app, 'POST', clients(), { token: t.token, body: { clientId, name: 'Balance' } })).status,
    ).toBe(201);
    const documents = Array.from({ length: 40 }, (_, i) =>
      call(ctx().app, 'POST', `/admin/v1/businesses/${t.urlKey}/clients/${clientId}/documents`, {
        token: t.operator,
        body: { type: i % 2 ? 'invoice' : 'paymentReceipt', amount: 12.3456 + i },
      }),
    );
    expect((await Promise.all(documents)).map((r) => r.status)).toEqual(Array(40).fill(201));
    const { balance } = (await call(ctx().app, 'GET', `${clients()}/${clientId}`, { token: t.token })).body.data;
    const expected = (odd: number) =>
      Array.from({ length: 20 }, (_, k) => 12.3456 + 2 * k + odd).reduce((a, b) => a + b, 0);
    expect(balance.invoice).toBeCloseTo(expected(1), 4);
    expect(balance.paymentReceipt).toBeCloseTo(expected(0), 4);
  });
});
