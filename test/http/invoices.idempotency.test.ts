// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, firstError, seedInvoiceTenant, VENDOR_ITEMS, type InvoiceTenant } from '../helpers/invoices.js';

describeEachStore('4.1 idempotency by invoiceNumber: same details, normalised', (ctx) => {
  let t: InvoiceTenant;
  let tags: { id: string; name: string }[];
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
    const saved = await call(ctx().app, 'PUT', `${t.admin}/tags`, {
      token: t.operator,
      body: { tags: [{ name: 'hot' }, { name: 'VIP' }] },
    });
    expect(saved.status).toBe(200);
    tags = saved.body.data[0]?.tags ?? saved.body.data.tags;
  });
  let n = 0;
  const number = () => `IDEM-${Date.now()}-${(n += 1)}`;
  const post = (body: Record<string, unknown>) => call(ctx().app, 'POST', t.invoices, { token: t.token, body });

  it('a date alone equals the instant it denotes; gstRate ≡ taxRate; tags as a set by id or name; email never compared', async () => {
    const invoiceNumber = number();
    const first = await post({
      invoiceNumber,
      invoiceDate: '2026-05-01',
      billedTo: buyer(),
      items: VENDOR_ITEMS,
      tags: ['hot', 'vip'],
      email: { to: { email: 'a@b.example' } },
    });
    expect(first.status).toBe(201);
    expect(first.body.tags).toHaveLength(2);
    const retry = await post({
      invoiceNumber: ` ${invoiceNumber}`,
      invoiceDate: '2026-04-30T18:30:00.000Z',
      billedTo: buyer(),
      tags: [tags.find((x) => x.name === 'VIP')!.id, 'HOT'],
      items: VENDOR_ITEMS.map(({ gstRate, ...item }) => ({ ...item, taxRate: gstRate })),
      invoiceType: 'INVOICE',
      currency: 'inr',
    });
    expect([retry.status, retry.body.idempotent]).toEqual([201, true]);
    expect(retry.body._id).toBe(first.body._id);
  });

  it('members defaulted by time or configuration count as stored when the retry omits them; sent with another value, 409', async () => {
    const invoiceNumber = number();
    const first = await post({
      invoiceNumber,
      billedTo: buyer(),
      items: VENDOR_ITEMS,
      locale: 'en-GB',
      terms: [{ label: 'T', terms: ['x'] }],
    });
    expect(first.status).toBe(201);
    const omitted = await post({ invoiceNumber, billedTo: buyer(), items: VENDOR_ITEMS });
    expect(omitted.body.idempotent).toBe(true);
    const other = await post({ invoiceNumber, billedTo: buyer(), items: VENDOR_ITEMS, locale: 'en-US' });
    expect([other.status, firstError(other).code, firstError(other).existingInvoiceId]).toEqual([
      409,
      'IDEMPOTENCY_CONFLICT',
      first.body._id,
    ]);
  });

  it('a retry naming the linked client may omit what the client filled; a retry of a new buyer creates no second client', async () => {
    const clientId = `idem-${Date.now()}`;
    expect(
      (
        await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
          token: t.token,
          body: { clientId, name: 'Linked', country: 'IN', gstState: '29' },
        })
      ).status,
    ).toBe(201);
    const invoiceNumber = number();
    const first = await post({ invoiceNumber, billedTo: { clientId, phone: '+91 98200 11111' }, items: VENDOR_ITEMS });
    expect(first.status).toBe(201);
    expect(
      (await post({ invoiceNumber, billedTo: { clientId, phone: '+919820011111' }, items: VENDOR_ITEMS })).body
        .idempotent,
    ).toBe(true);
    const newBuyer = number();
    const made = await post({
      invoiceNumber: newBuyer,
      billedTo: buyer({ name: `Fresh ${newBuyer}` }),
      items: VENDOR_ITEMS,
    });
    const again = await post({
      invoiceNumber: newBuyer,
      billedTo: buyer({ name: `Fresh ${newBuyer}` }),
      items: VENDOR_ITEMS,
    });
    expect(again.body.client).toBe(made.body.client);
    expect(
      (await call(ctx().app, 'GET', `${t.invoices}?client=${made.body.client}`, { token: t.token })).body.total,
    ).toBe(1);
  });
});
