// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { readPdf } from '../helpers/poppler.js';

// The dashboard's invoice endpoints (docs/decisions.md "Dashboard invoice pages") through HTTP on both stores.
describeEachStore('dashboard invoice previews, totals and the operator PDF', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const asOperator = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    call(ctx().app, method, `${t.admin}${path}`, { token: t.operator, body });

  it('preview computes what create would store (9.1 totals) and stores nothing, not even a number', async () => {
    const body = { billedTo: buyer(), items: [{ name: 'one', rate: 100, quantity: 2, gstRate: 18 }] };
    const before = (await asOperator('GET', '/invoices?$limit=0')).body.data.total;
    const first = await asOperator('POST', '/invoices/preview', body);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      invoiceNumber: expect.any(String),
      status: 'UNPAID',
      igst: false,
      finalTotal: { subTotal: 200, amount: 200, cgst: 18, sgst: 18, igst: 36, total: 236 },
    });
    expect(first.body.data.items[0]).toMatchObject({ cgst: 18, sgst: 18, total: 236 });
    const again = await asOperator('POST', '/invoices/preview', body);
    expect(again.body.data.invoiceNumber).toBe(first.body.data.invoiceNumber);
    expect((await asOperator('GET', '/invoices?$limit=0')).body.data.total).toBe(before);
    const created = await asOperator('POST', '/invoices', body);
    expect(created.body.data.invoiceNumber).toBe(first.body.data.invoiceNumber);
  });

  it('preview answers the create’s field errors, all in one 400 (rate, quantity, tax rate)', async () => {
    const bad = await asOperator('POST', '/invoices/preview', {
      billedTo: buyer(),
      items: [{ name: 'x', rate: -1, quantity: 0, gstRate: 17 }],
    });
    expect(bad.status).toBe(400);
    const fields = firstError(bad).errors!.map((e) => `${e.field} ${e.code}`);
    expect(fields).toEqual(
      expect.arrayContaining(['items[0].rate INVALID_FIELD_VALUE', 'items[0].gstRate INVALID_TAX_RATE']),
    );
    expect(fields.some((f) => f.startsWith('items[0].quantity'))).toBe(true);
  });

  it('numbering preview: prefix + padded nextNumber, taken numbers skipped, PUT’s field errors; nothing saved', async () => {
    const own = await seedInvoiceTenant(ctx());
    const preview = (numbering: unknown) =>
      call(ctx().app, 'POST', `${own.admin}/invoice-settings/numbering-preview`, {
        token: own.operator,
        body: { numbering },
      });
    expect((await preview({ prefix: 'ACME/', padding: 5, nextNumber: 42 })).body.data).toEqual({
      nextInvoiceNumber: 'ACME/00042',
    });
    expect((await preview({})).body.data.nextInvoiceNumber).toBe('INV-0001');
    await createInvoice(ctx(), own, { invoiceNumber: 'ACME/00042' });
    expect((await preview({ prefix: 'ACME/', padding: 5, nextNumber: 42 })).body.data.nextInvoiceNumber).toBe(
      'ACME/00043',
    );
    const bad = await preview({ prefix: 'x'.repeat(41), padding: 13, nextNumber: 0 });
    expect(bad.status).toBe(400);
    expect(firstError(bad).errors!.map((e) => e.field)).toEqual([
      'numbering.prefix',
      'numbering.padding',
      'numbering.nextNumber',
    ]);
    const settings = await call(ctx().app, 'GET', `${own.admin}/invoice-settings`, { token: own.operator });
    expect(settings.body.data.numbering).toEqual({ prefix: 'INV-', padding: 4, nextNumber: 1 });
  });

  it('totals: per currency, of what the filters select; canceled invoices owe nothing; exact decimal text', async () => {
    const own = await seedInvoiceTenant(ctx());
    const a = await createInvoice(ctx(), own); // 1580
    const b = await createInvoice(ctx(), own, { items: [{ name: 'tiny', rate: 0.1, quantity: 3, gstRate: 0 }] });
    const c = await createInvoice(ctx(), own);
    const usd = await createInvoice(ctx(), own, {
      billedTo: buyer({ name: 'Dollar Buyer' }),
      currency: 'USD',
      items: [{ name: 'u', rate: 10.05, quantity: 1 }],
    });
    const pay = (id: string, amount: number) =>
      call(ctx().app, 'POST', `${own.admin}/invoices/${id}/payments`, { token: own.operator, body: { amount } });
    expect((await pay(a._id, 500.1)).status).toBe(201);
    expect((await pay(b._id, 0.3)).status).toBe(201);
    expect(
      (await call(ctx().app, 'POST', `${own.admin}/invoices/${c._id}/cancel`, { token: own.operator })).status,
    ).toBe(200);
    const totals = (query: string) =>
      call(ctx().app, 'GET', `${own.admin}/invoice-totals${query}`, { token: own.operator });
    expect((await totals('')).body.data).toEqual({
      locale: 'en-IN',
      currencies: [
        { currency: 'INR', count: 3, invoiced: '1580.30', collected: '500.40', due: '1079.90' },
        { currency: 'USD', count: 1, invoiced: '10.05', collected: '0.00', due: '10.05' },
      ],
    });
    expect((await totals('?status=PARTIALLY_PAID,CANCELED')).body.data.currencies).toEqual([
      { currency: 'INR', count: 2, invoiced: '1580.00', collected: '500.10', due: '1079.90' },
    ]);
    expect((await totals(`?client=${usd.client}`)).body.data.currencies).toHaveLength(1);
    expect((await totals('?invoiceDate[$lte]=2000-01-01')).body.data.currencies).toEqual([]);
    const paged = await totals('?$limit=5');
    expect(paged.status).toBe(400);
    expect(firstError(paged).code).toBe('INVALID_QUERY_FIELD');
    expect(firstError(await totals('?status=LOST')).code).toBe('INVALID_QUERY_VALUE');
  });

  it('the operator PDF is the app’s rendering; another business’s invoice is 404; an app token is refused', async () => {
    const invoice = await createInvoice(ctx(), t);
    const url = `${t.admin}/invoices/${invoice._id}/pdf`;
    const response = await ctx().app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.operator}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(readPdf(`http-operator-${ctx().storeName}`, response.rawPayload).text).toContain(invoice.invoiceNumber);
    const other = await seedInvoiceTenant(ctx());
    const foreign = await call(ctx().app, 'GET', `${other.admin}/invoices/${invoice._id}/pdf`, {
      token: other.operator,
    });
    expect(foreign.status).toBe(404);
    expect(firstError(foreign).code).toBe('INVOICE_NOT_FOUND');
    expect((await call(ctx().app, 'GET', url, { token: t.token })).status).toBe(401);
  });
});
