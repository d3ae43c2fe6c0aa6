// @module-tag dates
// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant } from '../helpers/seed.js';
import {
  buyer,
  createInvoice,
  firstError,
  seedInvoiceTenant,
  VENDOR_ITEMS,
  type InvoiceTenant,
} from '../helpers/invoices.js';

describeEachStore('4.1 POST invoices', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const post = (body: unknown, path = t.invoices) => call(ctx().app, 'POST', path, { token: t.token, body });

  it("9.1 the vendor's intra-state example: items, finalTotal 1580, igst false, a new client, GET answers the same", async () => {
    const invoice = await createInvoice(ctx(), t);
    expect(invoice._id).toMatch(/^[0-9a-f]{24}$/);
    expect(invoice).toMatchObject({
      billType: 'INVOICE',
      taxType: 'INDIA',
      igst: false,
      currency: 'INR',
      status: 'UNPAID',
      invoiceTitle: 'Invoice',
      amountPaid: 0,
      amountDue: 1580,
    });
    expect(invoice.finalTotal).toEqual({
      subTotal: 1400,
      amount: 1400,
      igst: 180,
      cgst: 90,
      sgst: 90,
      discount: 0,
      charges: 0,
      total: 1580,
    });
    expect(invoice.items[0]).toMatchObject({
      name: 'one',
      rate: 100,
      quantity: 2,
      gstRate: 18,
      subTotal: 200,
      amount: 200,
      igst: 36,
      cgst: 18,
      sgst: 18,
      total: 236,
    });
    expect(invoice.items[1]).toMatchObject({ subTotal: 1200, igst: 144, cgst: 72, sgst: 72, total: 1344 });
    expect(invoice.items[0]).not.toHaveProperty('tax');
    expect(invoice.client).toBe(`invoice-${invoice._id}`);
    expect(invoice.share.link).toMatch(/\/share\/invoices\/[A-Za-z0-9_-]{43}$/);
    expect(invoice.share.pdf).toBe(
      `${ctx().config.publicUrl ?? `http://${ctx().config.host}:${ctx().config.port}`}${t.invoices}/${invoice._id}/pdf`,
    );
    const read = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}`, { token: t.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(invoice);
    const client = await call(ctx().app, 'GET', `/api/v1/businesses/${t.urlKey}/clients/${invoice.client}`, {
      token: t.token,
    });
    expect(client.status).toBe(200);
    expect(client.body.data).toMatchObject({ name: 'Asha Traders', country: 'IN', source: 'INVOICE', gstState: '29' });
    expect(client.body.data.balance).toMatchObject({ invoice: 1580, invoicePayment: 0 });
  });

  it('9.2 inter-state (buyer gstState 27): igst true, same item members, total 1580', async () => {
    const invoice = await createInvoice(ctx(), t, { billedTo: buyer({ gstState: '27' }) });
    expect(invoice.igst).toBe(true);
    expect(invoice.items.map((i: any) => i.total)).toEqual([236, 1344]);
    expect(invoice.finalTotal.total).toBe(1580);
  });

  it('9.4 rounding: exact decimals, R once per member, cgst from T / 2', async () => {
    const items = [
      { name: 'A', rate: 0.1, quantity: 3, gstRate: 18 },
      { name: 'B', rate: 1.005, quantity: 1, gstRate: 18 },
      { name: 'C', rate: 13.25, quantity: 1, gstRate: 18 },
    ];
    const intra = await createInvoice(ctx(), t, { items });
    expect(intra.items.map((i: any) => [i.subTotal, i.igst, i.cgst, i.total])).toEqual([
      [0.3, 0.05, 0.03, 0.36],
      [1.01, 0.18, 0.09, 1.19],
      [13.25, 2.39, 1.19, 15.63],
    ]);
    expect(intra.finalTotal).toMatchObject({ subTotal: 14.56, igst: 2.62, cgst: 1.31, sgst: 1.31, total: 17.18 });
    const inter = await createInvoice(ctx(), t, { items, billedTo: buyer({ gstState: '27' }) });
    expect(inter.items.map((i: any) => i.total)).toEqual([0.35, 1.19, 15.64]);
    expect(inter.finalTotal.total).toBe(17.18);
  });

  it('3.5 numbers: INV-0001 first, continued by the last run of digits; a failed create consumes none', async () => {
    const own = await seedInvoiceTenant(ctx());
    const first = await createInvoice(ctx(), own);
    expect(first.invoiceNumber).toBe('INV-0001');
    const bad = await call(ctx().app, 'POST', own.invoices, {
      token: own.token,
      body: { billedTo: buyer(), items: [] },
    });
    expect(bad.status).toBe(400);
    expect((await createInvoice(ctx(), own)).invoiceNumber).toBe('INV-0002');
    expect((await createInvoice(ctx(), own, { invoiceNumber: ' 2024/ABC-07/X ' })).invoiceNumber).toBe('2024/ABC-07/X');
    expect((await createInvoice(ctx(), own)).invoiceNumber).toBe('2024/ABC-08/X');
    await createInvoice(ctx(), own, { invoiceNumber: 'DRAFT' });
    expect((await createInvoice(ctx(), own)).invoiceNumber).toBe('DRAFT-1');
  });

  it('4.1 the same number with the same details is idempotent; other details 409 with existingInvoiceId; an invalid body 400', async () => {
    const number = `N-${Date.now()}`;
    const first = await createInvoice(ctx(), t, { invoiceNumber: number });
    const again = await post({
      invoiceNumber: number,
      billedTo: buyer({ name: ' Asha Traders ' }),
      items: VENDOR_ITEMS.map((i) => ({ ...i, taxRate: i.gstRate, gstRate: undefined })),
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...first, idempotent: true });
    const other = await post({ invoiceNumber: number, billedTo: buyer(), items: [VENDOR_ITEMS[0]] });
    expect(other.status).toBe(409);
    expect(firstError(other)).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', existingInvoiceId: first._id });
    const invalid = await post({ invoiceNumber: number, billedTo: buyer(), items: [] });
    expect(invalid.status).toBe(400);
  });

  it('3.6 a buyer sent again links the client its first invoice made; clientId links an existing client', async () => {
    const name = `Buyer ${Date.now()}`;
    const a = await createInvoice(ctx(), t, { billedTo: buyer({ name }) });
    const b = await createInvoice(ctx(), t, { billedTo: buyer({ name: `  ${name.toUpperCase()} ` }) });
    expect(b.client).toBe(a.client);
    const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId: `c-${name}`, name: 'Client One', country: 'IN', gstState: '27', dueInDays: 10 },
    });
    expect(made.status).toBe(201);
    const linked = await createInvoice(ctx(), t, { billedTo: { clientId: `c-${name}` }, invoiceDate: '2026-01-05' });
    expect(linked).toMatchObject({
      client: `c-${name}`,
      igst: true,
      invoiceDate: '2026-01-04T18:30:00.000Z',
      dueDate: '2026-01-14T18:30:00.000Z',
    });
    expect(linked.billedTo).toMatchObject({ name: 'Client One', gstState: '27' });
    const missing = await post({ billedTo: { clientId: 'nobody' }, items: VENDOR_ITEMS });
    expect(missing.status).toBe(400);
    expect(firstError(missing)).toMatchObject({ code: 'CLIENT_NOT_FOUND' });
  });

  it('4.1 every failure in one 400, first in body order leading', async () => {
    const r = await post({
      items: [{ name: 'x', rate: 1, quantity: 1, gstRate: 17, discount: 5 }],
      billedTo: { country: 'IN' },
      currency: 'XAU',
      nickname: 1,
    });
    expect(r.status).toBe(400);
    const fields = firstError(r).errors!.map((e) => `${e.field}:${e.code}`);
    expect(fields).toEqual([
      'items[0].discount:INVALID_FIELD',
      'items[0].gstRate:INVALID_TAX_RATE',
      'billedTo.name:INVALID_FIELD_VALUE',
      'currency:INVALID_FIELD_VALUE',
      'nickname:INVALID_FIELD',
    ]);
    expect(firstError(r).code).toBe('INVALID_FIELD');
  });

  // GET invoice reads with the reads of its turn (PostgreSQL: one statement for all; SQLite: one read
  // transaction): each answer must be its own invoice's, and a read of another business's invoice or of
  // no invoice must stay a 404 however many reads share the statement.
  it("4.4 reads sent together: each its own invoice, byte for byte; another business's and unknown ids 404", async () => {
    const other = await seedInvoiceTenant(ctx());
    const mine = await Promise.all(
      [1, 2, 3, 4].map((k) => createInvoice(ctx(), t, { invoiceNumber: `TOGETHER-${Date.now()}-${k}` })),
    );
    const theirs = await createInvoice(ctx(), other);
    const raw = (path: string) =>
      ctx().app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${t.token}` } });
    const alone = await Promise.all(mine.map((m) => raw(`${t.invoices}/${m._id}`)));
    const paths = [...mine.map((m) => m._id), theirs._id, 'f'.repeat(24), mine[0]!._id].map(
      (id) => `${t.invoices}/${id}`,
    );
    const together = await Promise.all(paths.map(raw));
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 404, 404, 200]);
    for (const [k, m] of mine.entries()) {
      expect(JSON.parse(together[k]!.body)).toEqual(m);
      expect(together[k]!.body).toBe(alone[k]!.body);
    }
    expect(together[6]!.body).toBe(alone[0]!.body);
    expect(JSON.parse(together[4]!.body).data.error.code).toBe('INVOICE_NOT_FOUND');
  });

  // A given number for a named client settles without reading the series first; a business that
  // never saved invoice settings has no series row, so that settle inserts nothing and the create must
  // run again the locking way, which makes the row (src/storage/invoices.store.ts, insertInvoice).
  it('3.5 a given number for a named client in a business without saved settings: created once, then idempotent', async () => {
    const bare = await seedTenant(ctx().app);
    const invoices = `/api/v1/businesses/${bare.urlKey}/invoices`;
    const clients = `/api/v1/businesses/${bare.urlKey}/clients`;
    const client = { clientId: 'named', name: 'Named', country: 'IN', gstState: '29' };
    expect((await call(ctx().app, 'POST', clients, { token: bare.token, body: client })).status).toBe(201);
    const body = {
      invoiceNumber: 'GIVEN-1',
      billedBy: { gstState: '29' },
      billedTo: { clientId: 'named' },
      items: VENDOR_ITEMS,
    };
    const first = await call(ctx().app, 'POST', invoices, { token: bare.token, body });
    expect([first.status, first.body.invoiceNumber, first.body.client, first.body.idempotent]).toEqual([
      201,
      'GIVEN-1',
      'named',
      undefined,
    ]);
    const again = await call(ctx().app, 'POST', invoices, { token: bare.token, body });
    expect([again.status, again.body._id, again.body.idempotent]).toEqual([201, first.body._id, true]);
    const next = await call(ctx().app, 'POST', invoices, {
      token: bare.token,
      body: { ...body, invoiceNumber: undefined },
    });
    expect([next.status, next.body.invoiceNumber]).toEqual([201, 'GIVEN-2']);
    const read = await call(ctx().app, 'GET', `${clients}/named`, { token: bare.token });
    expect(read.body.data.balance.invoice).toBe(2 * 1580);
  });

  it('aliases: the unprefixed path creates and reads the same invoices', async () => {
    const r = await post({ billedTo: buyer(), items: VENDOR_ITEMS }, t.alias);
    expect(r.status).toBe(201);
    const read = await call(ctx().app, 'GET', `${t.invoices}/${r.body._id}`, { token: t.token });
    expect(read.body._id).toBe(r.body._id);
  });
});
