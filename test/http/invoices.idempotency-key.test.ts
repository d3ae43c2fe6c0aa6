// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, firstError, seedInvoiceTenant, VENDOR_ITEMS, type InvoiceTenant } from '../helpers/invoices.js';
import { randomKey } from '../helpers/seed.js';

describeEachStore('4.2 Idempotency-Key on POST invoices and payments', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const post = (path: string, body: unknown, key: string) =>
    call(ctx().app, 'POST', path, { token: t.token, body, headers: { 'idempotency-key': key } });

  it('a create without a number replays its answer (same status and body, Idempotent-Replayed), and stores one invoice', async () => {
    const key = randomKey('k');
    const body = { billedTo: buyer({ name: `Keyed ${key}` }), items: VENDOR_ITEMS };
    const first = await post(t.invoices, body, key);
    expect(first.status).toBe(201);
    const again = await post(t.alias, { items: VENDOR_ITEMS, billedTo: body.billedTo }, key);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    const read = await call(ctx().app, 'GET', `${t.invoices}/${first.body._id}`, { token: t.token });
    expect(read.body).toEqual(first.body);
    const found = await call(ctx().app, 'GET', `${t.invoices}?client=${first.body.client}`, { token: t.token });
    expect(found.body.total).toBe(1);
    const other = await post(t.invoices, { ...body, items: [VENDOR_ITEMS[0]] }, key);
    expect([other.status, firstError(other).code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(firstError(await post(t.invoices, { ...body, items: [] }, key)).code).toBe('INVALID_ITEMS');
    expect(firstError(await post(t.invoices, body, '')).code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  it('a payment under one key is recorded once', async () => {
    const created = await post(t.invoices, { billedTo: buyer(), items: VENDOR_ITEMS }, randomKey('k'));
    const key = randomKey('p');
    const path = `${t.invoices}/${created.body._id}/payments`;
    const first = await post(path, { amount: 100 }, key);
    const again = await post(path, { amount: 100 }, key);
    expect(first.status).toBe(201);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    const list = await call(ctx().app, 'GET', `${path}`, { token: t.token });
    expect(list.body.payments).toHaveLength(1);
  });
});
