// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import {
  buyer,
  createInvoice,
  firstError,
  seedInvoiceTenant,
  VENDOR_ITEMS,
  type InvoiceTenant,
} from '../helpers/invoices.js';

/**
 * invoices-interface 4.1 and 6 (every body failure in one 400, the first in body order leading), 4.6
 * (check order), 4.8 (every 405 and 501) and 8 (audit lines written with the change), on both stores.
 */

const fieldsOf = (response: { body: any }) => (firstError(response).errors ?? []).map((e) => `${e.field}:${e.code}`);

describeEachStore('4.1 one 400 carries every failure of the body', (ctx) => {
  let india: InvoiceTenant;
  let bare: InvoiceTenant;
  let saudi: InvoiceTenant;
  beforeAll(async () => {
    india = await seedInvoiceTenant(ctx());
    bare = await seedInvoiceTenant(ctx(), {}, {});
    saudi = await seedInvoiceTenant(ctx(), { country: 'SA' }, { name: 'Saudi Seller' });
  });
  const post = (t: InvoiceTenant, body: Record<string, unknown>) =>
    call(ctx().app, 'POST', t.invoices, { token: t.token, body });
  const badItem = { name: 'x', rate: 1, quantity: 0 };

  it("3.2.2 a missing gstState (seller's or buyer's) comes with the shape errors, in body order", async () => {
    const seller = await post(bare, { invoiceTitle: 'x'.repeat(501), billedTo: buyer(), items: [badItem] });
    expect(seller.status).toBe(400);
    expect(fieldsOf(seller)).toEqual([
      'billedBy.gstState:INVALID_FIELD_VALUE',
      'invoiceTitle:INVALID_FIELD_VALUE',
      'items[0].quantity:INVALID_FIELD_VALUE',
    ]);
    const buyerState = await post(india, {
      items: [badItem],
      billedTo: { name: 'No State', country: 'IN' },
    });
    expect(fieldsOf(buyerState)).toEqual([
      'items[0].quantity:INVALID_FIELD_VALUE',
      'billedTo.gstState:INVALID_FIELD_VALUE',
    ]);
    expect(firstError(buyerState).code).toBe('INVALID_FIELD_VALUE');
  });

  it('3.3 a Saudi tax invoice without billedBy.vatNumber comes with an unknown tag', async () => {
    const r = await post(saudi, {
      billedTo: { name: 'B', country: 'SA' },
      items: VENDOR_ITEMS.slice(0, 0),
      tags: ['x'],
    });
    expect(fieldsOf(r)).toEqual(['billedBy.vatNumber:INVALID_FIELD_VALUE', 'items:INVALID_ITEMS', 'tags:INVALID_TAG']);
    const ok = await post(saudi, {
      billedTo: { name: 'B', country: 'SA' },
      items: [{ name: 'x', rate: 100, quantity: 1, taxRate: 15 }],
      billedBy: { vatNumber: '300000000000003' },
    });
    expect(ok.status).toBe(201);
  });

  it('3.1.4 AMOUNT_TOO_LARGE and 3.4 TOTAL_BELOW_ZERO come with the other failures, the first leading', async () => {
    const large = await post(india, {
      billedTo: buyer(),
      items: [{ name: 'x', rate: 999999999999, quantity: 2 }],
      terms: [{ label: 'x'.repeat(501), terms: [] }],
    });
    expect(firstError(large).code).toBe('AMOUNT_TOO_LARGE');
    expect(fieldsOf(large)).toEqual(['items[0]:AMOUNT_TOO_LARGE', 'terms[0].label:INVALID_FIELD_VALUE']);
    const below = await post(india, {
      invoiceSubTitle: 'x'.repeat(501),
      billedTo: buyer(),
      items: VENDOR_ITEMS,
      additionalCharges: [{ label: 'd', type: 'FIXED_AMOUNT', amount: 5000, multiplier: -1 }],
    });
    expect(firstError(below).code).toBe('INVALID_FIELD_VALUE');
    expect(fieldsOf(below)).toEqual(['invoiceSubTitle:INVALID_FIELD_VALUE', 'additionalCharges[0]:TOTAL_BELOW_ZERO']);
  });

  it("3.8 a dueDate before the invoice's date comes with the other failures", async () => {
    const r = await post(india, {
      dueDate: '2026-01-01',
      invoiceDate: '2026-02-01',
      billedTo: buyer({ email: 'not an e-mail' }),
      items: VENDOR_ITEMS,
    });
    expect(fieldsOf(r)).toEqual(['dueDate:INVALID_FIELD_VALUE', 'billedTo.email:INVALID_FIELD_VALUE']);
  });

  it('no failure follows from another: a rule reading a refused member is not checked', async () => {
    const gstin = await post(india, {
      billedTo: { name: 'B', country: 'IN', gstin: 'NOT-A-GSTIN' },
      items: VENDOR_ITEMS,
    });
    expect(fieldsOf(gstin)).toEqual(['billedTo.gstin:INVALID_FIELD_VALUE']);
    const rate = await post(india, {
      billedTo: buyer(),
      items: [{ name: 'x', rate: 'ten', quantity: 1 }],
      additionalCharges: [{ label: 'd', type: 'FIXED_AMOUNT', amount: 5, multiplier: -1 }],
    });
    expect(fieldsOf(rate)).toEqual(['items[0].rate:INVALID_FIELD']);
    const dates = await post(india, {
      invoiceDate: '2026-13-01',
      dueDate: '2026-01-01',
      billedTo: buyer(),
      items: VENDOR_ITEMS,
    });
    expect(fieldsOf(dates)).toEqual(['invoiceDate:INVALID_FIELD_VALUE']);
    const client = await post(india, { billedTo: { clientId: 'nobody' }, items: [badItem] });
    expect(fieldsOf(client)).toEqual(['billedTo.clientId:CLIENT_NOT_FOUND', 'items[0].quantity:INVALID_FIELD_VALUE']);
  });

  it('a failed create stores nothing and consumes no number', async () => {
    const before = await createInvoice(ctx(), india);
    await post(india, { billedTo: buyer(), items: [{ name: 'x', rate: 999999999999, quantity: 2 }] });
    await post(bare, { billedTo: buyer(), items: VENDOR_ITEMS });
    const after = await createInvoice(ctx(), india);
    const next = (n: string) => n.replace(/\d+$/, (d) => String(Number(d) + 1).padStart(d.length, '0'));
    expect(after.invoiceNumber).toBe(next(before.invoiceNumber));
  });
});

describeEachStore('4.6 payment checks: 400 (body) → 404 → 409 → 400 PAYMENT_EXCEEDS_DUE', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const pay = (invoiceId: string, body: unknown) =>
    call(ctx().app, 'POST', `${t.invoices}/${invoiceId}/payments`, { token: t.token, body });
  const unknown = 'f'.repeat(24);

  it('what is wrong whatever the invoice is a 400 before the 404', async () => {
    for (const body of [{ amount: 1.0001 }, { amount: 0 }, { amount: 1, tds: 0.0001 }, { amount: 1, notes: 5 }, []]) {
      const r = await pay(unknown, body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    // Three decimals fit a KWD invoice: only the invoice can say, so the unknown one is a 404 ...
    expect((await pay(unknown, { amount: 1.001 })).status).toBe(404);
    // ... and an INR invoice a 400, before its state is looked at.
    const invoice = await createInvoice(ctx(), t);
    const precise = await pay(invoice._id, { amount: 1.001 });
    expect(fieldsOf(precise)).toEqual(['amount:INVALID_FIELD_VALUE']);
  });

  it('409 INVOICE_CANCELED after the body; PAYMENT_EXCEEDS_DUE last, with amountDue', async () => {
    const invoice = await createInvoice(ctx(), t);
    const over = await pay(invoice._id, { amount: 1500, tds: 80, transactionCharge: 0.01 });
    expect([over.status, firstError(over).code, firstError(over).amountDue]).toEqual([
      400,
      'PAYMENT_EXCEEDS_DUE',
      1580,
    ]);
    expect((await pay(invoice._id, { amount: 1500, tds: 80 })).status).toBe(201);
    const after = await pay(invoice._id, { amount: 0.01 });
    expect([firstError(after).code, firstError(after).amountDue]).toEqual(['PAYMENT_EXCEEDS_DUE', 0]);
    const other = await createInvoice(ctx(), t);
    expect((await call(ctx().app, 'POST', `${t.invoices}/${other._id}/cancel`, { token: t.token })).status).toBe(200);
    expect(firstError(await pay(other._id, { amount: -1 })).code).toBe('INVALID_FIELD_VALUE');
    const canceled = await pay(other._id, { amount: 1 });
    expect([canceled.status, canceled.body.name, firstError(canceled).code]).toEqual([
      409,
      'Conflict',
      'INVOICE_CANCELED',
    ]);
  });
});

describeEachStore('4.8 unsupported methods and e-invoicing routes', (ctx) => {
  let t: InvoiceTenant;
  let id: string;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
    id = (await createInvoice(ctx(), t))._id;
  });

  it('every 405 of 4.8 on both paths: the status alone, no error.code, before auth', async () => {
    const routes: [string[], string][] = [
      [['PUT', 'DELETE', 'PATCH'], ''],
      [['PUT', 'DELETE'], '/:id'],
      [['PUT', 'PATCH', 'DELETE'], '/:id/payments'],
      [['POST', 'PUT', 'PATCH', 'DELETE'], '/:id/pdf'],
      [['GET', 'PUT', 'PATCH', 'DELETE'], '/:id/cancel'],
    ];
    for (const base of [t.invoices, t.alias])
      for (const [methods, suffix] of routes)
        for (const method of methods)
          for (const token of [undefined, t.token]) {
            const path = base + suffix.replace(':id', id);
            const r = await call(ctx().app, method as 'PUT', path, { token });
            expect([method, path, r.status]).toEqual([method, path, 405]);
            expect(r.body.data?.error).toBeUndefined();
          }
  });

  it('each e-invoicing route: 401 without a token, 404 for an unknown invoice, else 501 EINVOICING_UNAVAILABLE', async () => {
    const routes = [
      ['POST', 'irn'],
      ['POST', 'ewayBill'],
      ['PATCH', 'ewaybill/vehicle'],
      ['PATCH', 'ewaybill/transporter'],
    ] as const;
    for (const base of [t.invoices, t.alias])
      for (const [method, suffix] of routes) {
        const at = (invoiceId: string) => `${base}/${invoiceId}/${suffix}`;
        expect((await call(ctx().app, method, at(id))).status).toBe(401);
        const missing = await call(ctx().app, method, at('0'.repeat(24)), { token: t.token });
        expect([missing.status, firstError(missing).code]).toEqual([404, 'INVOICE_NOT_FOUND']);
        const r = await call(ctx().app, method, at(id), { token: t.token, body: {} });
        expect([suffix, r.status, r.body.name, firstError(r).code]).toEqual([
          suffix,
          501,
          'NotImplemented',
          'EINVOICING_UNAVAILABLE',
        ]);
      }
  });
});

describeEachStore('8 operator writes are audit-logged with the change, and only then', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const admin = (method: 'POST' | 'DELETE', path: string, body?: unknown) =>
    call(ctx().app, method, `${t.admin}${path}`, { token: t.operator, body });
  const lines = async () => {
    const page = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=100', { token: t.operator });
    return page.body.data.entries
      .filter((e: any) => e.business === t.urlKey && e.action.startsWith('invoice.'))
      .map((e: any) => ({ action: e.action, ...e.detail }))
      .reverse();
  };

  it('one line per change with its ids; none for a refusal, an identical retry or a cancel that changes nothing', async () => {
    const body = { invoiceNumber: 'AUDIT-1', billedTo: buyer(), items: VENDOR_ITEMS };
    const created = (await admin('POST', '/invoices', body)).body.data;
    expect((await admin('POST', '/invoices', body)).body.data.idempotent).toBe(true);
    expect((await admin('POST', '/invoices', { ...body, items: [] })).status).toBe(400);
    const payments = `/invoices/${created._id}/payments`;
    const payment = (await admin('POST', payments, { amount: 100 })).body.data;
    expect((await admin('POST', payments, { amount: 5000 })).status).toBe(400);
    expect((await admin('DELETE', `${payments}/${payment._id}`)).status).toBe(200);
    expect((await admin('DELETE', `${payments}/${'0'.repeat(24)}`)).status).toBe(404);
    expect((await admin('POST', `/invoices/${created._id}/cancel`)).status).toBe(200);
    expect((await admin('POST', `/invoices/${created._id}/cancel`)).status).toBe(200);
    const invoiceId = created._id;
    expect(await lines()).toEqual([
      { action: 'invoice.create', invoiceId, invoiceNumber: 'AUDIT-1' },
      { action: 'invoice.payment.record', invoiceId, paymentId: payment._id },
      { action: 'invoice.payment.remove', invoiceId, paymentId: payment._id },
      { action: 'invoice.cancel', invoiceId },
    ]);
  });
});

describeEachStore('2.1 to 2.3, 4.1, 4.6: members, unknown keys and query parameters', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const post = (body: Record<string, unknown>, query = '') =>
    call(ctx().app, 'POST', `${t.invoices}${query}`, {
      token: t.token,
      body: { billedTo: buyer(), items: VENDOR_ITEMS, ...body },
    });

  it('2.2, 2.3 unknown party and item members are INVALID_FIELD naming them; billedBy.country must be the business’s', async () => {
    const r = await post({
      billedTo: buyer({ nickname: 'A' }),
      shippedTo: { name: 'S', country: 'IN', clientId: 'x' },
      items: [{ ...VENDOR_ITEMS[0], discount: 5 }],
      billedBy: { country: 'AE' },
    });
    expect(fieldsOf(r)).toEqual([
      'billedTo.nickname:INVALID_FIELD',
      'items[0].discount:INVALID_FIELD',
      'shippedTo.clientId:INVALID_FIELD',
      'billedBy.country:INVALID_FIELD_VALUE',
    ]);
    const hsn = await post({
      items: ['1234', '123456', '12345678'].map((code) => ({ ...VENDOR_ITEMS[0], hsn: code })),
    });
    expect(hsn.body.items.map((i: { hsn: string }) => i.hsn)).toEqual(['1234', '123456', '12345678']);
  });

  it('4.1, 4.6 any query parameter on a create or a payment: INVALID_QUERY_FIELD, nothing stored', async () => {
    const name = `Query ${Math.random()}`;
    expect(firstError(await post({ billedTo: buyer({ name }) }, '?dryRun=true')).code).toBe('INVALID_QUERY_FIELD');
    const page = await call(ctx().app, 'GET', `${t.invoices}?$limit=100`, { token: t.token });
    expect(page.body.data.filter((i: any) => i.billedTo.name === name)).toEqual([]);
    const invoice = await createInvoice(ctx(), t);
    const paid = await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/payments?x=1`, {
      token: t.token,
      body: { amount: 1 },
    });
    expect(firstError(paid).code).toBe('INVALID_QUERY_FIELD');
  });

  it('2.1 updatedAt moves on a payment and a cancel only; an identical retry and a read leave it', async () => {
    const body = { invoiceNumber: `U-${Math.random()}` };
    const created = (await post(body)).body;
    expect(created.updatedAt).toBe(created.createdAt);
    await new Promise((r) => setTimeout(r, 5));
    const retried = (await post(body)).body;
    expect([retried.idempotent, retried.updatedAt]).toEqual([true, created.updatedAt]);
    await call(ctx().app, 'POST', `${t.invoices}/${created._id}/payments`, { token: t.token, body: { amount: 1 } });
    const paid = (await call(ctx().app, 'GET', `${t.invoices}/${created._id}`, { token: t.token })).body;
    expect(paid.updatedAt > created.updatedAt).toBe(true);
    expect(paid.createdAt).toBe(created.createdAt);
  });
});
