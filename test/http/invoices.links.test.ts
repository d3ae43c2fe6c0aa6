// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { randomKey } from '../helpers/seed.js';

/**
 * invoices-interface 3.5 (numbers), 3.6 (the client link), 3.7.3 (what an invoice leaves alone), 3.8
 * (challanDate) and 4.5 (the cancel body), through HTTP on both stores.
 */
describeEachStore('3.5, 3.6: numbers and the client link', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const post = (body: Record<string, unknown>) =>
    call(ctx().app, 'POST', t.invoices, {
      token: t.token,
      body: { billedTo: buyer(), items: [{ name: 'x', rate: 10, quantity: 1 }], ...body },
    });
  const clientOf = async (clientId: string) =>
    (await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.token })).body.data;

  it('3.5.1 numbers are case-sensitive and trimmed; control characters refused; a canceled invoice keeps its number', async () => {
    const tag = randomKey('n');
    const lower = await post({ invoiceNumber: `inv-${tag}` });
    const upper = await post({ invoiceNumber: `INV-${tag}` });
    expect([lower.status, upper.status]).toEqual([201, 201]);
    expect(upper.body._id).not.toBe(lower.body._id);
    const trimmed = await post({ invoiceNumber: `  inv-${tag}\t` });
    expect([trimmed.status, trimmed.body.idempotent, trimmed.body._id]).toEqual([201, true, lower.body._id]);
    const control = await post({ invoiceNumber: `inv-\u0007${tag}` });
    expect([control.status, firstError(control).errors?.[0]?.field]).toEqual([400, 'invoiceNumber']);
    await call(ctx().app, 'POST', `${t.invoices}/${lower.body._id}/cancel`, { token: t.token });
    const again = await post({ invoiceNumber: `inv-${tag}` });
    expect([again.status, again.body.idempotent, again.body.status]).toEqual([201, true, 'CANCELED']);
    const other = await post({ invoiceNumber: `inv-${tag}`, invoiceTitle: 'Another' });
    expect([other.status, firstError(other).existingInvoiceId]).toEqual([409, lower.body._id]);
  });

  it('3.5.2 the omitted number continues the last one created: width kept, widened on overflow', async () => {
    const own = await seedInvoiceTenant(ctx());
    const next = async (given: string) => {
      await createInvoice(ctx(), own, { invoiceNumber: given });
      return (await createInvoice(ctx(), own)).invoiceNumber;
    };
    expect(await next('APP-2020-0004')).toBe('APP-2020-0005');
    expect(await next('INV-9')).toBe('INV-10');
    expect(await next('INV-9999')).toBe('INV-10000');
    // A taken candidate is incremented again.
    await createInvoice(ctx(), own, { invoiceNumber: 'Q-2' });
    expect(await next('Q-1')).toBe('Q-3');
  });

  it('3.6.2 a buyer matches only a client an invoice made, by name, country and tax id', async () => {
    const name = `Match ${randomKey('m')}`;
    const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId: `api-${name}`, name, country: 'IN', gstState: '29' },
    });
    expect(made.status).toBe(201);
    const first = (await post({ billedTo: buyer({ name }) })).body;
    expect(first.client).toBe(`invoice-${first._id}`);
    const spaced = (await post({ billedTo: buyer({ name: `\t${name.toLowerCase().replace(' ', '   ')} ` }) })).body;
    expect(spaced.client).toBe(first.client);
    const gstin = (await post({ billedTo: buyer({ name, gstin: '29ABCDE1234F1Z5' }) })).body;
    expect(gstin.client).not.toBe(first.client);
    const again = (await post({ billedTo: buyer({ name, gstin: '29abcde1234f1z5' }) })).body;
    expect(again.client).toBe(gstin.client);
    const abroad = (await post({ billedTo: { name, country: 'US' } })).body;
    expect(abroad.client).not.toBe(first.client);
    const client = await clientOf(first.client);
    expect(client).toMatchObject({ clientId: first.client, source: 'INVOICE', name, country: 'IN' });
  });

  it('3.6.1, 3.7.3 an invoice and its payments never change the client record: fields and updatedAt stay', async () => {
    const clientId = `kept-${randomKey('k')}`;
    const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId, name: 'Kept', country: 'IN', gstState: '27', email: 'kept@example.com' },
    });
    expect(made.status).toBe(201);
    const before = await clientOf(clientId);
    const invoice = (await post({ billedTo: { clientId, name: 'Other Name', email: 'other@example.com' } })).body;
    expect(invoice.billedTo).toMatchObject({ name: 'Other Name', email: 'other@example.com', gstState: '27' });
    await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/payments`, { token: t.token, body: { amount: 1 } });
    const after = await clientOf(clientId);
    const { balance: _before, ...restBefore } = before;
    const { balance: _after, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
    expect([_after.invoice - _before.invoice, _after.invoicePayment - _before.invoicePayment]).toEqual([10, 1]);
  });

  it('3.8 transportDetails.challanDate is a date; 4.5 POST cancel takes no body, an empty one or {}', async () => {
    const bad = await post({ transportDetails: { challanDate: '2026-02-30' } });
    expect(firstError(bad).errors?.map((e) => e.field)).toEqual(['transportDetails.challanDate']);
    const good = await post({ transportDetails: { challanDate: '2026-02-28', vehicleNumber: 'KA01AB1234' } });
    expect(good.body.transportDetails).toEqual({ challanDate: '2026-02-28', vehicleNumber: 'KA01AB1234' });
    const cancel = (id: string, body?: unknown) =>
      call(ctx().app, 'POST', `${t.invoices}/${id}/cancel`, { token: t.token, body });
    expect((await cancel((await createInvoice(ctx(), t))._id, {})).status).toBe(200);
    expect((await cancel((await createInvoice(ctx(), t))._id)).status).toBe(200);
    const refused = await cancel(good.body._id, { status: 'CANCELED' });
    expect(refused.status).toBe(400);
    const read = await call(ctx().app, 'GET', `${t.invoices}/${good.body._id}`, { token: t.token });
    expect(read.body.status).toBe('UNPAID');
  });
});
