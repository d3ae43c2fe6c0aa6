// @module-tag pooled
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, TEST_ADMIN, availableStores } from '../helpers/stores.js';
import { http, spawnServer, type ServerProcess } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';

const stores = await availableStores();
const ITEMS = [
  { name: 'one', rate: 100, quantity: 2, gstRate: 18 },
  { name: 'two', rate: 200, quantity: 6, gstRate: 12 },
];
const N = 40;

/** invoices-interface 4.9 under real concurrency: two server processes on one PostgreSQL database. */
describe.runIf(stores.includes('postgres'))('invoices: races across two processes on PostgreSQL (4.9)', () => {
  let servers: ServerProcess[] = [];
  let base = '';
  let token = '';

  beforeAll(async () => {
    const env = {
      DATABASE_URL: POSTGRES_URL,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_FAILURE_LIMIT: '1000',
    };
    servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    const a = servers[0]!.url;
    const operator = (await http(a, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
      .accessToken;
    const urlKey = randomKey('inv');
    expect(
      (
        await http(a, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: urlKey, country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const settings = { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] };
    expect(
      (await http(a, 'PUT', `/admin/v1/businesses/${urlKey}/invoice-settings`, { token: operator, body: settings }))
        .status,
    ).toBe(200);
    const app = (await http(a, 'POST', '/admin/v1/apps', { token: operator, body: { name: 'invoice races' } })).body
      .data;
    expect((await http(a, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status).toBe(
      200,
    );
    token = (
      await http(a, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
    base = `/api/v1/businesses/${urlKey}/invoices`;
  }, 90_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  const on = (i: number) => servers[i % 2]!.url;
  const all = <T>(count: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, i) => make(i)));
  const create = (i: number, body: Record<string, unknown>) =>
    http(on(i), 'POST', base, {
      token,
      body: { billedTo: { name: 'Race Buyer', country: 'IN', gstState: '29' }, items: ITEMS, ...body },
    });

  it('N creates without a number: N distinct, consecutive numbers (the first series of the business)', async () => {
    const results = await all(N, (i) => create(i, { billedTo: { name: `Buyer ${i}`, country: 'IN', gstState: '29' } }));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const numbers = results.map((r) => r.body.invoiceNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: N }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
  }, 60_000);

  it('N creates of one number, same details: one invoice, all 201, exactly one without idempotent', async () => {
    const results = await all(N, (i) => create(i, { invoiceNumber: 'RACE-1' }));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    expect(results.filter((r) => r.body.idempotent !== true)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body._id)).size).toBe(1);
  }, 60_000);

  it('N creates for one new buyer: one client', async () => {
    const results = await all(N, (i) =>
      create(i, { billedTo: { name: 'One New Buyer', country: 'IN', gstState: '27' } }),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    expect(new Set(results.map((r) => r.body.client)).size).toBe(1);
  }, 60_000);

  it('N payments on one invoice never over-settle: each 201 or PAYMENT_EXCEEDS_DUE, and the sum is what was accepted', async () => {
    const invoice = (await create(0, {})).body;
    const results = await all(N, (i) =>
      http(on(i), 'POST', `${base}/${invoice._id}/payments`, { token, body: { amount: 100 } }),
    );
    const accepted = results.filter((r) => r.status === 201).length;
    expect(accepted).toBe(15);
    for (const r of results.filter((x) => x.status !== 201))
      expect([r.status, r.body.data.error.code]).toEqual([400, 'PAYMENT_EXCEEDS_DUE']);
    const read = await http(on(1), 'GET', `${base}/${invoice._id}`, { token });
    expect(read.body).toMatchObject({ amountPaid: 1500, amountDue: 80, status: 'PARTIALLY_PAID' });
    const balance = (
      await http(on(0), 'GET', `/api/v1/businesses/${base.split('/')[4]}/clients/${invoice.client}`, { token })
    ).body.data.balance;
    expect(balance.invoicePayment).toBeGreaterThanOrEqual(1500);
  }, 60_000);

  it('payment against cancel: serial, the later gets INVOICE_HAS_PAYMENTS or INVOICE_CANCELED', async () => {
    for (let round = 0; round < 10; round += 1) {
      const invoice = (await create(round, {})).body;
      const [payment, cancel] = await Promise.all([
        http(on(round), 'POST', `${base}/${invoice._id}/payments`, { token, body: { amount: 10 } }),
        http(on(round + 1), 'POST', `${base}/${invoice._id}/cancel`, { token }),
      ]);
      const outcome = `${payment.status}/${cancel.status}`;
      expect(['201/409', '409/200']).toContain(outcome);
      if (outcome === '201/409') expect(cancel.body.data.error.code).toBe('INVOICE_HAS_PAYMENTS');
      else expect(payment.body.data.error.code).toBe('INVOICE_CANCELED');
    }
  }, 60_000);
});
