// @module-tag dates
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

/** ZATCA phase-1 TLV written here independently of src/invoices/zatca.ts: tag, length, UTF-8 value. */
function tlv(values: string[]): string {
  return Buffer.concat(
    values.flatMap((value, i) => {
      const bytes = Buffer.from(value, 'utf8');
      return [Buffer.from([i + 1, bytes.length]), bytes];
    }),
  ).toString('base64');
}

describeEachStore('2.3 to 3.8: regimes, charges, limits and dates', (ctx) => {
  let india: InvoiceTenant;
  let uae: InvoiceTenant;
  let saudi: InvoiceTenant;
  beforeAll(async () => {
    india = await seedInvoiceTenant(ctx());
    uae = await seedInvoiceTenant(ctx(), { country: 'AE' }, {});
    saudi = await seedInvoiceTenant(ctx(), { country: 'SA' }, { name: 'Saudi Seller', vatNumber: '300000000000003' });
  });
  const post = (t: InvoiceTenant, body: Record<string, unknown>) =>
    call(ctx().app, 'POST', t.invoices, { token: t.token, body: { billedTo: buyer(), items: VENDOR_ITEMS, ...body } });

  it('a body nested 10,000 deep is a 400 naming the field, never a 5xx (with and without an Idempotency-Key)', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const rawBody = JSON.stringify({ billedTo: buyer(), items: VENDOR_ITEMS, terms: 0 }).replace(
      '"terms":0',
      `"terms":${deep}`,
    );
    for (const headers of [{}, { 'idempotency-key': `deep-${Math.random()}` }] as Record<string, string>[]) {
      const answer = await call(ctx().app, 'POST', india.invoices, {
        token: india.token,
        headers: { ...headers, 'content-type': 'application/json' },
        rawBody,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.data.error.errors[0].field).toMatch(/^terms/);
    }
  });

  it('9.3 UAE: tax after items, a percentage discount on the running total, a fixed charge; the VAT stays', async () => {
    const invoice = await createInvoice(ctx(), uae, {
      billedTo: { name: 'Dubai Buyer', country: 'AE' },
      items: [
        { name: 'a', rate: 1250, quantity: 3, taxRate: 5 },
        { name: 'b', rate: 400, quantity: 1, taxRate: 0 },
      ],
      additionalCharges: [
        { label: 'Early payment', type: 'PERCENTAGE', amount: 2, multiplier: -1 },
        { label: 'Courier', type: 'FIXED_AMOUNT', amount: 25, multiplier: 1 },
      ],
    });
    expect(invoice).toMatchObject({ taxType: 'UAE', currency: 'AED' });
    expect(invoice).not.toHaveProperty('igst');
    expect(invoice.items[0]).toMatchObject({ taxRate: 5, subTotal: 3750, tax: 187.5, total: 3937.5 });
    expect(invoice.items[0]).not.toHaveProperty('gstRate');
    expect(invoice.finalTotal).toEqual({
      subTotal: 4150,
      amount: 4150,
      tax: 187.5,
      discount: 86.75,
      charges: 25,
      total: 4275.75,
    });
    expect(invoice.additionalCharges.map((c: any) => c.appliedAmount)).toEqual([-86.75, 25]);
  });

  it('3.3 Saudi: a tax invoice carries zatcaQr (TLV of seller, VAT number, date, total, tax); a rate outside {0, 15} is refused', async () => {
    const invoice = await createInvoice(ctx(), saudi, {
      billedTo: { name: 'Riyadh Buyer', country: 'SA' },
      invoiceDate: '2026-03-01T09:30:00Z',
      items: [{ name: 'x', rate: 1000, quantity: 1, taxRate: 15 }],
    });
    expect(invoice.finalTotal).toMatchObject({ tax: 150, total: 1150 });
    expect(invoice.zatcaQr).toBe(tlv(['Saudi Seller', '300000000000003', '2026-03-01T09:30:00Z', '1150.00', '150.00']));
    const bos = await createInvoice(ctx(), saudi, {
      billedTo: { name: 'Riyadh Buyer', country: 'SA' },
      invoiceType: 'BOS',
      items: [{ name: 'x', rate: 10, quantity: 1 }],
    });
    expect(bos).toMatchObject({ billType: 'BOS', invoiceTitle: 'Bill of Supply' });
    expect(bos).not.toHaveProperty('zatcaQr');
    const refused = await post(saudi, {
      billedTo: { name: 'B', country: 'SA' },
      items: [{ name: 'x', rate: 1, quantity: 1, taxRate: 5 }],
    });
    expect([refused.status, firstError(refused).code, firstError(refused).errors![0]!.field]).toEqual([
      400,
      'INVALID_TAX_RATE',
      'items[0].taxRate',
    ]);
  });

  it("2.3 rates: gstRate and taxRate with different values, a non-zero rate on a BOS, a rate outside GST's set", async () => {
    const fields = async (items: unknown[], extra: Record<string, unknown> = {}) =>
      firstError(await post(india, { items, ...extra })).errors!.map((e) => `${e.field}:${e.code}`);
    expect(await fields([{ name: 'x', rate: 1, quantity: 1, gstRate: 18, taxRate: 12 }])).toEqual([
      'items[0].gstRate:INVALID_TAX_RATE',
    ]);
    expect(await fields([{ name: 'x', rate: 1, quantity: 1, gstRate: 5 }], { invoiceType: 'BOS' })).toEqual([
      'items[0].gstRate:INVALID_TAX_RATE',
    ]);
    expect(
      await fields([
        { name: 'x', rate: 1, quantity: 1, gstRate: 0.1 },
        { name: 'y', rate: 1, quantity: 1, gstRate: 19 },
      ]),
    ).toEqual(['items[1].gstRate:INVALID_TAX_RATE']);
  });

  it('3.1, 3.4, 7: limits of items, numbers and computed money', async () => {
    const code = async (body: Record<string, unknown>) => {
      const r = await post(india, body);
      return `${r.status} ${firstError(r).code} ${firstError(r).errors?.[0]?.field}`;
    };
    expect(await code({ items: [] })).toBe('400 INVALID_ITEMS items');
    expect(await code({ items: Array.from({ length: 501 }, () => ({ name: 'x', rate: 1, quantity: 1 })) })).toBe(
      '400 INVALID_ITEMS items',
    );
    expect(await code({ items: [{ name: 'x', rate: 999999999999, quantity: 2 }] })).toBe(
      '400 AMOUNT_TOO_LARGE items[0]',
    );
    expect(
      await code({ additionalCharges: [{ label: 'd', type: 'FIXED_AMOUNT', amount: 2000, multiplier: -1 }] }),
    ).toBe('400 TOTAL_BELOW_ZERO additionalCharges[0]');
    expect(await code({ items: [{ name: 'x', rate: 1.0000001, quantity: 1 }] })).toBe(
      '400 INVALID_FIELD_VALUE items[0].rate',
    );
    expect(await code({ items: [{ name: 'x', rate: 1, quantity: 0 }] })).toBe(
      '400 INVALID_FIELD_VALUE items[0].quantity',
    );
    expect(await code({ items: [{ name: 'x', rate: 1, quantity: 1, hsn: '12345' }] })).toBe(
      '400 INVALID_FIELD_VALUE items[0].hsn',
    );
    expect(await code({ additionalCharges: [{ label: 'p', type: 'PERCENTAGE', amount: 100.5, multiplier: 1 }] })).toBe(
      '400 INVALID_FIELD_VALUE additionalCharges[0].amount',
    );
    expect(
      await code({ additionalCharges: [{ label: 'f', type: 'FIXED_AMOUNT', amount: 0.001, multiplier: 1 }] }),
    ).toBe('400 INVALID_FIELD_VALUE additionalCharges[0].amount');
    expect(await code({ invoiceNumber: 'x'.repeat(65) })).toBe('400 INVALID_FIELD_VALUE invoiceNumber');
    expect(await code({ discount: { value: 5 } })).toBe('400 INVALID_FIELD discount');
    expect(await code({ status: 'PAID' })).toBe('400 INVALID_FIELD status');
  });

  it('3.2 India: the seller needs a gstState, an Indian buyer too; an SEZ buyer in the same state is inter-state; an export is inter-state', async () => {
    const bare = await seedInvoiceTenant(ctx(), {}, {});
    const refused = await post(bare, {});
    expect([refused.status, firstError(refused).errors![0]!.field]).toEqual([400, 'billedBy.gstState']);
    const noState = await post(india, { billedTo: { name: 'No state', country: 'IN' } });
    expect(firstError(noState).errors![0]!.field).toBe('billedTo.gstState');
    expect(
      (await createInvoice(ctx(), india, { billedTo: buyer({ name: 'Zone Co', taxPayerType: 'SEZ' }) })).igst,
    ).toBe(true);
    expect((await createInvoice(ctx(), india, { billedTo: { name: 'Abroad', country: 'US' } })).igst).toBe(true);
    const fromGstin = await createInvoice(ctx(), india, {
      billedTo: { name: 'Gstin Co', country: 'in', gstin: '29aapfu0939f1zv' },
    });
    expect(fromGstin.billedTo).toMatchObject({
      gstin: '29AAPFU0939F1ZV',
      gstState: '29',
      panNumber: 'AAPFU0939F',
      country: 'IN',
    });
    expect(fromGstin.igst).toBe(false);
  });

  it("3.8 dates: a date is midnight in the business's zone; dueDate may not precede the invoice date; bad dates refused; default now to the second", async () => {
    const invoice = await createInvoice(ctx(), india, {
      invoiceDate: '2026-06-18',
      dueDate: '2026-06-18T20:00:00+05:30',
    });
    expect([invoice.invoiceDate, invoice.dueDate]).toEqual(['2026-06-17T18:30:00.000Z', '2026-06-18T14:30:00.000Z']);
    expect(firstError(await post(india, { invoiceDate: '2026-06-18', dueDate: '2026-06-17' })).errors![0]!.field).toBe(
      'dueDate',
    );
    expect(firstError(await post(india, { invoiceDate: '1969-12-31' })).errors![0]!.field).toBe('invoiceDate');
    expect(firstError(await post(india, { invoiceDate: '2026-02-30' })).errors![0]!.field).toBe('invoiceDate');
    const now = await createInvoice(ctx(), india);
    expect(now.invoiceDate).toMatch(/\.000Z$/);
    expect(now).not.toHaveProperty('dueDate');
  });

  it('4.1 parties, transport, contact, tags, currency and locale as sent or defaulted', async () => {
    const invoice = await createInvoice(ctx(), india, {
      currency: 'jpy',
      locale: 'en-GB',
      invoiceTitle: 'Tax Invoice',
      invoiceSubTitle: 'Original',
      shippedTo: { name: 'Warehouse', country: 'IN', city: 'Pune' },
      transportDetails: { vehicleNumber: 'MH12AB1234', transportMode: 'ROAD', transporter: { name: 'Fast' } },
      contact: { phone: '+91 98200 00000', email: 'Sales@Example.com' },
      billedTo: buyer({ email: 'Buyer@Example.COM', phoneShowInInvoice: true }),
      items: [{ name: 'yen', rate: 100.4, quantity: 1, gstRate: 18 }],
    });
    expect(
      firstError(
        await post(india, {
          currency: 'JPY',
          items: [{ name: 'yen', rate: 100.4, quantity: 1, additionalCharges: 1 }],
        }),
      ).code,
    ).toBe('INVALID_FIELD');
    expect(invoice).toMatchObject({
      currency: 'JPY',
      locale: 'en-GB',
      invoiceTitle: 'Tax Invoice',
      invoiceSubTitle: 'Original',
      tags: [],
      terms: [],
      attachments: [],
      isExpenditure: false,
      discount: { discountType: 'PERCENTAGE' },
    });
    expect(invoice.items[0]).toMatchObject({ subTotal: 100, igst: 18, cgst: 9, total: 118 });
    expect(invoice.shippedTo).toEqual({
      name: 'Warehouse',
      city: 'Pune',
      country: 'IN',
      phoneShowInInvoice: false,
      emailShowInInvoice: false,
    });
    expect(invoice.transportDetails).toEqual({
      vehicleNumber: 'MH12AB1234',
      transportMode: 'ROAD',
      transporter: { name: 'Fast' },
    });
    expect(invoice.contact).toEqual({ phone: '+919820000000', email: 'sales@example.com' });
    expect(invoice.billedTo).toMatchObject({ email: 'buyer@example.com', phoneShowInInvoice: true });
    expect(firstError(await post(india, { currency: 'XAU' })).errors![0]!.field).toBe('currency');
    expect(firstError(await post(india, { tags: ['no-such-tag'] })).code).toBe('INVALID_TAG');
    expect((await createInvoice(ctx(), india)).locale).toBe('en-IN');
  });
});
