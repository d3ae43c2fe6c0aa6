// @module-tag pooled
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, seedInvoiceTenant, VENDOR_ITEMS, type InvoiceTenant } from '../helpers/invoices.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const FAST = { webhooksDeliver: true, webhooksAllowPrivate: true, webhooksRetryBaseMs: 50, webhooksPollMs: 50 };
const TYPES = [
  'client.created',
  'invoice.created',
  'invoice.payment_recorded',
  'invoice.paid',
  'invoice.canceled',
  'invoice.payment_removed',
];

describeEachStore(
  '5 invoice events through the outbox',
  (ctx) => {
    const receiver = new WebhookReceiver();
    let t: InvoiceTenant;
    beforeAll(async () => {
      await receiver.start();
      t = await seedInvoiceTenant(ctx());
      const created = await call(ctx().app, 'POST', `${t.admin}/webhooks`, {
        token: t.operator,
        body: { url: receiver.url, eventTypes: TYPES },
      });
      expect(created.status).toBe(201);
      receiver.secrets = [created.body.data.secret];
    });
    afterAll(() => receiver.stop());
    const about = (invoiceId: string) =>
      receiver.received.filter((e) => e.data._id === invoiceId || e.data.invoice?._id === invoiceId);

    it('client.created before invoice.created; payment_recorded then paid; payment_removed; canceled; none for a retry or a refusal', async () => {
      const number = `EV-${Date.now()}`;
      const body = { invoiceNumber: number, billedTo: buyer({ name: `Events ${number}` }), items: VENDOR_ITEMS };
      const invoice = await createInvoice(ctx(), t, body);
      expect((await call(ctx().app, 'POST', t.invoices, { token: t.token, body })).body.idempotent).toBe(true);
      const pay = (amount: number) =>
        call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/payments`, { token: t.token, body: { amount } });
      expect((await pay(2000)).status).toBe(400);
      const first = (await pay(1000)).body;
      expect((await pay(580)).status).toBe(201);
      const removed = await call(ctx().app, 'DELETE', `${t.admin}/invoices/${invoice._id}/payments/${first._id}`, {
        token: t.operator,
      });
      expect(removed.status).toBe(200);
      expect(removed.body.data.invoice).toMatchObject({ status: 'PARTIALLY_PAID', amountPaid: 580 });
      expect(
        (await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/cancel?cancelPayment=true`, { token: t.token }))
          .status,
      ).toBe(200);
      await receiver.until(() => about(invoice._id).some((e) => e.type === 'invoice.canceled'));
      expect(about(invoice._id).map((e) => e.type)).toEqual([
        'invoice.created',
        'invoice.payment_recorded',
        'invoice.payment_recorded',
        'invoice.paid',
        'invoice.payment_removed',
        'invoice.canceled',
      ]);
      const created = about(invoice._id)[0]!;
      expect(created.data).toEqual(invoice);
      const client = receiver.received.find((e) => e.type === 'client.created' && e.data.clientId === invoice.client);
      expect(client?.data).toMatchObject({ source: 'INVOICE', name: `Events ${number}` });
      expect(receiver.received.indexOf(client!)).toBeLessThan(receiver.received.indexOf(created));
      expect(receiver.unverified).toEqual([]);
    });
  },
  FAST,
  { ownDatabase: true },
);

describeEachStore('8 operator: settings, numbering, create, get with payments, audit', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });

  it('a saved numbering starts the series (taken numbers skipped); GET answers the settings; billedBy from a GSTIN', async () => {
    await createInvoice(ctx(), t, { invoiceNumber: 'ACME-00007' });
    const settings = {
      billedBy: { gstin: '29ABCDE1234F1Z5' },
      numbering: { prefix: 'ACME-', padding: 5, nextNumber: 7 },
      defaultTerms: [{ label: 'Payment', terms: ['30 days'] }],
    };
    const put = await call(ctx().app, 'PUT', `${t.admin}/invoice-settings`, { token: t.operator, body: settings });
    expect(put.status).toBe(200);
    expect(put.body.data.billedBy).toMatchObject({
      gstin: '29ABCDE1234F1Z5',
      gstState: '29',
      panNumber: 'ABCDE1234F',
      country: 'IN',
    });
    expect((await call(ctx().app, 'GET', `${t.admin}/invoice-settings`, { token: t.operator })).body.data).toEqual(
      put.body.data,
    );
    const next = await createInvoice(ctx(), t);
    expect(next.invoiceNumber).toBe('ACME-00008');
    expect(next.terms).toEqual([{ label: 'Payment', terms: ['30 days'] }]);
    expect(next.billedBy).toMatchObject({ gstin: '29ABCDE1234F1Z5' });
    expect((await createInvoice(ctx(), t)).invoiceNumber).toBe('ACME-00009');
    const refused = await call(ctx().app, 'PUT', `${t.admin}/invoice-settings`, {
      token: t.operator,
      body: { billedBy: { country: 'AE' }, numbering: { padding: 13 }, defaultTerms: [] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.data.error.errors.map((e: any) => e.field)).toEqual(['billedBy.country', 'numbering.padding']);
  });

  it('operator create, get with every payment (appId null), cancel; each audit-logged', async () => {
    const created = await call(ctx().app, 'POST', `${t.admin}/invoices`, {
      token: t.operator,
      body: { billedTo: buyer(), items: VENDOR_ITEMS },
    });
    expect(created.status).toBe(201);
    const id = created.body.data._id;
    const paid = await call(ctx().app, 'POST', `${t.admin}/invoices/${id}/payments`, {
      token: t.operator,
      body: { amount: 10 },
    });
    expect(paid.body.data.appId).toBeNull();
    const canceled = await call(ctx().app, 'POST', `${t.admin}/invoices/${id}/cancel?cancelPayment=true`, {
      token: t.operator,
    });
    expect(canceled.body.data.status).toBe('CANCELED');
    const read = await call(ctx().app, 'GET', `${t.admin}/invoices/${id}`, { token: t.operator });
    expect(read.body.data.payments.map((p: any) => [p.amount, p.isRemoved])).toEqual([[10, true]]);
    const audit = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=100', { token: t.operator });
    const mine = audit.body.data.entries.filter((e: any) => e.business === t.urlKey).map((e: any) => e.action);
    expect(mine).toEqual(
      expect.arrayContaining(['invoice.create', 'invoice.payment.record', 'invoice.cancel', 'invoice-settings.put']),
    );
    expect(
      (await call(ctx().app, 'GET', `/admin/v1/businesses/nobody-here/invoices/${id}`, { token: t.operator })).status,
    ).toBe(404);
  });
});
