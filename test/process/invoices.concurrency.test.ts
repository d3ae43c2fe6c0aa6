// @module-tag pooled
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';
import { invoicingBusiness, raceStores, twoServers } from './invoice-races.support.js';

const stores = await availableStores();
const ITEMS = [
  { name: 'one', rate: 100, quantity: 2, gstRate: 18 },
  { name: 'two', rate: 200, quantity: 6, gstRate: 12 },
];
const N = 40;

/**
 * invoices-interface 4.9 under real concurrency: two server processes on one database, PostgreSQL (and
 * through PgBouncer in the pooled pass) and one SQLite file. Each race asserts what its guard promises
 * (the business's series lock, the unique number, the buyer's match key, the invoice's row lock, the
 * key's claim), and the client's balance (3.7.3) is read exactly from the process that did not write.
 */
describe.each(raceStores('crmkit-invoice-races-').filter((s) => stores.includes(s.store)))(
  'invoices: races across two processes on $store (4.9)',
  ({ env: storeEnv }) => {
    const { on, all, operator } = twoServers(storeEnv);
    let base = '';
    let clients = '';
    let token = '';

    beforeAll(async () => {
      const made = await invoicingBusiness(on(0), operator(), 'inv');
      token = made.token;
      base = `/api/v1/businesses/${made.urlKey}/invoices`;
      clients = `/api/v1/businesses/${made.urlKey}/clients`;
    }, 90_000);

    const create = (i: number, body: Record<string, unknown>) =>
      http(on(i), 'POST', base, {
        token,
        body: { billedTo: { name: 'Race Buyer', country: 'IN', gstState: '29' }, items: ITEMS, ...body },
      });
    const balanceOn = async (i: number, clientId: string) => {
      const read = await http(on(i), 'GET', `${clients}/${clientId}`, { token });
      expect(read.status).toBe(200);
      const { invoice, invoicePayment } = read.body.data.balance;
      return { invoice, invoicePayment };
    };
    /** A POST with an Idempotency-Key, answering the headers the key's rules speak through. */
    const keyed = async (i: number, path: string, key: string, body: unknown) => {
      const response = await fetch(`${on(i)}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        body: (await response.json()) as any,
        replayed: response.headers.get('idempotent-replayed'),
        retryAfter: response.headers.get('retry-after'),
      };
    };

    it('N creates without a number: N distinct, consecutive numbers (the first series of the business)', async () => {
      const results = await all(N, (i) =>
        create(i, { billedTo: { name: `Buyer ${i}`, country: 'IN', gstState: '29' } }),
      );
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

    it('N creates of one number, two bodies: one invoice; its retries 201, the other body 409 naming it', async () => {
      const results = await all(N, (i) => create(i, { invoiceNumber: 'RACE-2', items: ITEMS.slice(0, 1 + (i % 2)) }));
      const created = results.filter((r) => r.status === 201 && r.body.idempotent !== true);
      expect(created).toHaveLength(1);
      const winner = created[0]!.body;
      for (const r of results) {
        if (r.status === 201) expect(r.body._id).toBe(winner._id);
        else
          expect([r.status, r.body.data.error.code, r.body.data.error.existingInvoiceId]).toEqual([
            409,
            'IDEMPOTENCY_CONFLICT',
            winner._id,
          ]);
      }
      expect(results.filter((r) => r.status === 409)).toHaveLength(N / 2);
    }, 60_000);

    it('N creates for one new buyer: one client, whose balance counts every invoice (read on each process)', async () => {
      const name = `One New Buyer ${randomKey('b')}`;
      const results = await all(N, (i) => create(i, { billedTo: { name, country: 'IN', gstState: '27' } }));
      expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      const ids = new Set(results.map((r) => r.body.client));
      expect(ids.size).toBe(1);
      const [clientId] = [...ids] as string[];
      for (const i of [0, 1]) expect(await balanceOn(i, clientId!)).toEqual({ invoice: N * 1580, invoicePayment: 0 });
    }, 60_000);

    it('N payments on one invoice never over-settle: each 201 or PAYMENT_EXCEEDS_DUE, the balance exact on both', async () => {
      const invoice = (
        await create(0, { billedTo: { name: `Payer ${randomKey('p')}`, country: 'IN', gstState: '29' } })
      ).body;
      const results = await all(N, (i) =>
        http(on(i), 'POST', `${base}/${invoice._id}/payments`, { token, body: { amount: 100 } }),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(15);
      for (const r of results.filter((x) => x.status !== 201))
        expect([r.status, r.body.data.error.code]).toEqual([400, 'PAYMENT_EXCEEDS_DUE']);
      for (const i of [0, 1]) {
        const read = await http(on(i), 'GET', `${base}/${invoice._id}`, { token });
        expect(read.body).toMatchObject({ amountPaid: 1500, amountDue: 80, status: 'PARTIALLY_PAID' });
        expect(await balanceOn(i, invoice.client)).toEqual({ invoice: 1580, invoicePayment: 1500 });
      }
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
        const read = await http(on(round + 1), 'GET', `${base}/${invoice._id}`, { token });
        expect([read.body.status, read.body.amountPaid]).toEqual(
          outcome === '201/409' ? ['PARTIALLY_PAID', 10] : ['CANCELED', 0],
        );
      }
    }, 60_000);

    it('N requests under one Idempotency-Key: one document; the rest replay it or are IDEMPOTENCY_IN_PROGRESS', async () => {
      const key = randomKey('race');
      const body = { billedTo: { name: `Keyed ${key}`, country: 'IN', gstState: '29' }, items: ITEMS };
      const results = await all(N, (i) => keyed(i, base, key, body));
      const fresh = results.filter((r) => r.status === 201 && r.replayed === null);
      expect(fresh).toHaveLength(1);
      for (const r of results) {
        if (r.status === 201) expect(r.body).toEqual(fresh[0]!.body);
        else expect([r.status, r.body.data.error.code, r.retryAfter]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS', '1']);
      }
      const found = await http(on(1), 'GET', `${base}?client=${fresh[0]!.body.client}`, { token });
      expect(found.body.total).toBe(1);
      const payments = `${base}/${fresh[0]!.body._id}/payments`;
      const paid = await all(N, (i) => keyed(i, payments, `${key}-pay`, { amount: 1 }));
      expect(paid.filter((r) => r.status === 201 && r.replayed === null)).toHaveLength(1);
      expect(paid.filter((r) => r.status !== 201).map((r) => r.body.data.error.code)).not.toContain(
        'PAYMENT_EXCEEDS_DUE',
      );
      const live = await http(on(0), 'GET', payments, { token });
      expect(live.body.payments).toHaveLength(1);
    }, 60_000);

    it("3.7.3 the client's balance after create, payment and cancel, read at once on the other process", async () => {
      const buyer = { name: `Balance ${randomKey('c')}`, country: 'IN', gstState: '29' };
      const first = (await create(0, { billedTo: buyer })).body;
      expect(await balanceOn(1, first.client)).toEqual({ invoice: 1580, invoicePayment: 0 });
      const second = (await create(1, { billedTo: buyer, items: ITEMS.slice(0, 1) })).body;
      expect(second.client).toBe(first.client);
      expect(await balanceOn(0, first.client)).toEqual({ invoice: 1816, invoicePayment: 0 });
      const pay = { amount: 200.5, tds: 30, transactionCharge: 5.25 };
      expect((await http(on(1), 'POST', `${base}/${first._id}/payments`, { token, body: pay })).status).toBe(201);
      expect(await balanceOn(0, first.client)).toEqual({ invoice: 1816, invoicePayment: 235.75 });
      const canceled = await http(on(0), 'POST', `${base}/${first._id}/cancel?cancelPayment=true`, { token });
      expect(canceled.status).toBe(200);
      expect(await balanceOn(1, first.client)).toEqual({ invoice: 236, invoicePayment: 0 });
    }, 60_000);

    // A given number for a named client settles in one statement that takes the series lock last
    // (src/storage/invoices.store.ts, insertInvoice); an auto number takes it first. Both at once, on
    // numbers the series reaches, and one number sent N times: no deadlock, no duplicate, one invoice
    // per number (a given number an auto create took first is that invoice's: 409 naming it), and
    // the client's balance counts each invoice once.
    it('auto and given numbers for a named client at once: distinct numbers, one invoice per number, an exact balance', async () => {
      const clientId = randomKey('named');
      const client = { clientId, name: 'Named Client', country: 'IN', gstState: '29' };
      expect((await http(on(0), 'POST', clients, { token, body: client })).status).toBe(201);
      const billedTo = { clientId };
      const next = Number(/(\d+)$/.exec((await create(0, { billedTo })).body.invoiceNumber)![1]);
      const numberOf = (k: number) => `INV-${String(next + k).padStart(4, '0')}`;
      const results = await all(N, (i) =>
        create(i, i % 2 === 0 ? { billedTo } : { billedTo, invoiceNumber: numberOf(i) }),
      );
      const created = results.filter((r) => r.status === 201);
      expect(created.filter((r) => r.body.idempotent === true)).toEqual([]);
      const byNumber = new Map(created.map((r) => [r.body.invoiceNumber as string, r.body._id as string]));
      expect(byNumber.size).toBe(created.length);
      for (const [i, r] of results.entries()) {
        if (i % 2 === 0) expect(r.status).toBe(201);
        else if (r.status === 201) expect(r.body.invoiceNumber).toBe(numberOf(i));
        else
          expect([r.status, r.body.data.error.code, r.body.data.error.existingInvoiceId]).toEqual([
            409,
            'IDEMPOTENCY_CONFLICT',
            byNumber.get(numberOf(i)),
          ]);
      }
      const same = await all(N, (i) => create(i, { billedTo, invoiceNumber: `SAME-${clientId}` }));
      expect(same.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      expect(same.filter((r) => r.body.idempotent !== true)).toHaveLength(1);
      expect(new Set(same.map((r) => r.body._id)).size).toBe(1);
      const invoices = 1 + created.length + 1;
      for (const i of [0, 1])
        expect(await balanceOn(i, clientId)).toEqual({ invoice: invoices * 1580, invoicePayment: 0 });
    }, 60_000);

    // A create adds to the client's balance (its `invoice` member) and then, by its statement's
    // triggers, to the report rollups (the invoiced and owed sums, migration 028-report-rollups); a cancel
    // takes the rollups of its invoice first (its update's triggers) and the same balance member after.
    // Taken in opposite orders, a create and a cancel for one client, in one month and due the same day,
    // could each hold what the other waits for: PostgreSQL then aborts one (deadlock detected), a 500.
    it('creates and cancels for one client at once, all due the same day: every one answered, the balance exact', async () => {
      const clientId = randomKey('busy');
      const client = { clientId, name: 'Busy Client', country: 'IN', gstState: '29' };
      expect((await http(on(0), 'POST', clients, { token, body: client })).status).toBe(201);
      const due = { billedTo: { clientId }, invoiceDate: '2026-03-01', dueDate: '2026-03-31' };
      const ROUNDS = 6;
      const doomed = await all(ROUNDS * (N / 2), async (i) => {
        const made = await create(i, { ...due, invoiceNumber: `DOOMED-${clientId}-${i}` });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        return made.body._id as string;
      });
      for (let round = 0; round < ROUNDS; round += 1) {
        const results = await all(N, (i) =>
          i % 2 === 0
            ? http(on(i), 'POST', `${base}/${doomed[round * (N / 2) + i / 2]}/cancel`, { token })
            : create(i, { ...due, invoiceNumber: `KEPT-${clientId}-${round}-${i}` }),
        );
        for (const [i, r] of results.entries()) expect(r.status, JSON.stringify(r.body)).toBe(i % 2 === 0 ? 200 : 201);
      }
      for (const i of [0, 1])
        expect(await balanceOn(i, clientId)).toEqual({ invoice: ROUNDS * (N / 2) * 1580, invoicePayment: 0 });
    }, 60_000);
  },
);
