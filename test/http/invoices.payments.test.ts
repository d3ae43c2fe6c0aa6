// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';

describeEachStore("4.5, 4.6, 3.7 payments, cancel, status and the client's balance", (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const pay = (id: string, body: unknown) =>
    call(ctx().app, 'POST', `${t.invoices}/${id}/payments`, { token: t.token, body });
  const balanceOf = async (clientId: string) =>
    (await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${clientId}`, { token: t.token })).body.data
      .balance;

  it('3.7 a payment settles amount + tds + transactionCharge; status UNPAID → PARTIALLY_PAID → PAID; the balance follows at once', async () => {
    const invoice = await createInvoice(ctx(), t);
    const first = await pay(invoice._id, {
      amount: 500,
      tds: 80.5,
      transactionCharge: 0.5,
      paymentMethod: 'UPI',
      refId: 'r-1',
      paymentDate: '2026-01-05',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      amount: 500,
      tds: 80.5,
      transactionCharge: 0.5,
      paymentMethod: 'UPI',
      refId: 'r-1',
      notes: null,
      business: t.urlKey,
      payerBusiness: invoice.client,
      isApproved: true,
      isRemoved: false,
      appId: t.appId,
      invoice: invoice._id,
      paymentDate: '2026-01-04T18:30:00.000Z',
    });
    const partly = (await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}`, { token: t.token })).body;
    expect(partly).toMatchObject({ status: 'PARTIALLY_PAID', amountPaid: 581, amountDue: 999 });
    expect(partly.updatedAt > invoice.updatedAt || partly.updatedAt === invoice.updatedAt).toBe(true);
    expect(await balanceOf(invoice.client)).toMatchObject({ invoice: 1580, invoicePayment: 581 });
    const over = await pay(invoice._id, { amount: 999.01 });
    expect(over.status).toBe(400);
    expect(firstError(over)).toMatchObject({ code: 'PAYMENT_EXCEEDS_DUE', amountDue: 999 });
    expect((await pay(invoice._id, { amount: 999 })).status).toBe(201);
    const paid = (await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}`, { token: t.token })).body;
    expect(paid).toMatchObject({ status: 'PAID', amountPaid: 1580, amountDue: 0 });
    const list = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}/payments`, { token: t.token });
    expect(list.body.payments.map((p: any) => p.amount)).toEqual([500, 999]);
  });

  it('4.6 payments arriving together on one invoice each see the ones before: never over-settled, the balance exact', async () => {
    // Sent in one turn: on SQLite they share a group commit, on PostgreSQL they queue on the row lock.
    const invoice = await createInvoice(ctx(), t, { billedTo: buyer({ name: `Together ${Date.now()}` }) });
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(invoice._id, { amount: 100 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(15);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => firstError(a))).toEqual(
      Array.from({ length: 5 }, () => expect.objectContaining({ code: 'PAYMENT_EXCEEDS_DUE', amountDue: 80 })),
    );
    const after = (await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}`, { token: t.token })).body;
    expect(after).toMatchObject({ status: 'PARTIALLY_PAID', amountPaid: 1500, amountDue: 80 });
    expect(await balanceOf(invoice.client)).toMatchObject({ invoice: 1580, invoicePayment: 1500 });
    const list = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}/payments`, { token: t.token });
    expect(list.body.payments).toHaveLength(15);
  });

  it('4.6 checks: body 400 first, then 404, then 409 INVOICE_CANCELED; money within the minor unit; settled above 0', async () => {
    const invoice = await createInvoice(ctx(), t);
    expect(firstError(await pay('0'.repeat(24), { amount: -1 })).code).toBe('INVALID_FIELD_VALUE');
    expect((await pay('0'.repeat(24), { amount: 1 })).status).toBe(404);
    expect(firstError(await pay(invoice._id, { amount: 1.001 }))).toMatchObject({ code: 'INVALID_FIELD_VALUE' });
    expect(firstError(await pay(invoice._id, { amount: 0 })).errors![0]!.field).toBe('amount');
    expect(firstError(await pay(invoice._id, { amount: 1, paymentMethod: 'GOLD' })).code).toBe('INVALID_FIELD_VALUE');
    expect((await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/cancel`, { token: t.token })).status).toBe(200);
    const refused = await pay(invoice._id, { amount: 1 });
    expect(refused.status).toBe(409);
    expect(firstError(refused).code).toBe('INVOICE_CANCELED');
  });

  it('4.5 cancel: live payments need cancelPayment=true; then they are removed, the balance drops both members; a second cancel changes nothing', async () => {
    const invoice = await createInvoice(ctx(), t);
    const before = await balanceOf(invoice.client);
    expect((await pay(invoice._id, { amount: 100 })).status).toBe(201);
    const refused = await call(ctx().app, 'PATCH', `${t.invoices}/${invoice._id}`, {
      token: t.token,
      body: { status: 'CANCELED' },
    });
    expect(refused.status).toBe(409);
    expect(firstError(refused).code).toBe('INVOICE_HAS_PAYMENTS');
    const canceled = await call(ctx().app, 'PATCH', `${t.invoices}/${invoice._id}?cancelPayment=true`, {
      token: t.token,
      body: { status: 'CANCELLED' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'CANCELED',
      amountPaid: 0,
      amountDue: 0,
      payments: [],
      invoiceNumber: invoice.invoiceNumber,
      finalTotal: invoice.finalTotal,
    });
    expect(await balanceOf(invoice.client)).toEqual({
      ...before,
      invoice: before.invoice - 1580,
      invoicePayment: before.invoicePayment,
    });
    const live = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}/payments`, { token: t.token });
    expect(live.body.payments).toEqual([]);
    const all = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}/payments?includeRemoved=true`, {
      token: t.token,
    });
    expect(all.body.payments.map((p: any) => p.isRemoved)).toEqual([true]);
    const again = await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/cancel?cancelPayment=false`, {
      token: t.token,
      body: {},
    });
    expect(again.status).toBe(200);
    expect(again.body.updatedAt).toBe(canceled.body.updatedAt);
  });

  it('4.5 PATCH takes exactly {"status": "CANCELED"}; cancelPayment is true or false', async () => {
    const invoice = await createInvoice(ctx(), t);
    const patch = (body: unknown, query = '') =>
      call(ctx().app, 'PATCH', `${t.invoices}/${invoice._id}${query}`, { token: t.token, body });
    expect(firstError(await patch({ status: 'PAID' })).code).toBe('INVALID_FIELD_VALUE');
    expect(firstError(await patch({ status: 'CANCELED', note: 1 })).code).toBe('INVALID_FIELD');
    expect(firstError(await patch({ status: 'CANCELED' }, '?cancelPayment=yes')).code).toBe('INVALID_QUERY_VALUE');
    expect(firstError(await patch({ status: 'CANCELED' }, '?force=1')).code).toBe('INVALID_QUERY_FIELD');
  });

  it('3.7.1 a zero-total invoice is PAID from creation', async () => {
    const invoice = await createInvoice(ctx(), t, { items: [{ name: 'free', rate: 0, quantity: 1 }] });
    expect(invoice).toMatchObject({ status: 'PAID', amountDue: 0 });
  });

  it('3.7.3 another currency counts in neither balance member', async () => {
    const invoice = await createInvoice(ctx(), t, {
      currency: 'usd',
      billedTo: buyer({ name: `Dollar buyer ${Date.now()}` }),
    });
    expect(invoice.currency).toBe('USD');
    expect((await pay(invoice._id, { amount: 10 })).status).toBe(201);
    expect(await balanceOf(invoice.client)).toMatchObject({ invoice: 0, invoicePayment: 0, currency: 'INR' });
  });

  it("4.4 unknown, malformed and other businesses' ids: the same 404; query parameters refused", async () => {
    const other = await seedInvoiceTenant(ctx());
    const theirs = await createInvoice(ctx(), other);
    const answers = await Promise.all(
      [theirs._id, 'zz', '0'.repeat(24)].map((id) => call(ctx().app, 'GET', `${t.invoices}/${id}`, { token: t.token })),
    );
    for (const a of answers)
      expect([a.status, firstError(a).code, firstError(a).message]).toEqual([
        404,
        'INVOICE_NOT_FOUND',
        'Invoice not found',
      ]);
    const mine = await createInvoice(ctx(), t);
    expect(firstError(await call(ctx().app, 'GET', `${t.invoices}/${mine._id}?x=1`, { token: t.token })).code).toBe(
      'INVALID_QUERY_FIELD',
    );
  });

  it('4.8 405s with the status alone before auth; e-invoicing routes 501 after auth and 404', async () => {
    const invoice = await createInvoice(ctx(), t);
    for (const [method, path] of [
      ['PUT', t.invoices],
      ['DELETE', `${t.invoices}/${invoice._id}`],
      ['PATCH', t.alias],
      ['DELETE', `${t.invoices}/x/payments`],
      ['GET', `${t.invoices}/x/cancel`],
    ] as const) {
      const r = await call(ctx().app, method, path);
      expect(r.status).toBe(405);
      expect(r.body.data).not.toHaveProperty('error');
    }
    const irn = await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/irn`, { token: t.token });
    expect([irn.status, irn.body.name, firstError(irn).code]).toEqual([
      501,
      'NotImplemented',
      'EINVOICING_UNAVAILABLE',
    ]);
    expect(
      (await call(ctx().app, 'PATCH', `${t.alias}/${'0'.repeat(24)}/ewaybill/vehicle`, { token: t.token })).status,
    ).toBe(404);
    expect((await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/irn`)).status).toBe(401);
  });
});
