import { beforeAll, expect, it } from 'vitest';
import { createClient, CrmkitError, type CrmkitClient } from '../../client/src/index.js';
import { describeEachStore } from '../helpers/app.js';
import { buyer, seedInvoiceTenant, VENDOR_ITEMS, type InvoiceTenant } from '../helpers/invoices.js';

// The TypeScript client's invoice methods against a real listening server: the README's integration.

describeEachStore('TypeScript client: invoices and payments', (ctx) => {
  let t: InvoiceTenant;
  let crm: CrmkitClient;
  beforeAll(async () => {
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    t = await seedInvoiceTenant(ctx());
    crm = createClient({ baseUrl, urlKey: t.urlKey, appId: t.appId, appSecret: t.appSecret, retryDelayMs: 1 });
  });

  it("create an invoice for a client, record a payment, read the client's balance; find, list, cancel", async () => {
    await crm.clients.create({ clientId: 'acme', name: 'Acme Traders', country: 'IN', gstState: '29' });
    const invoice = await crm.invoices.create({ billedTo: { clientId: 'acme' }, items: VENDOR_ITEMS });
    expect(invoice).toMatchObject({ client: 'acme', status: 'UNPAID', finalTotal: { total: 1580 } });
    const payment = await crm.payments.add(invoice._id, { amount: 580, paymentMethod: 'UPI' });
    expect(payment).toMatchObject({ amount: 580, invoice: invoice._id, payerBusiness: 'acme' });
    expect((await crm.clients.get('acme')).balance).toMatchObject({ invoice: 1580, invoicePayment: 580 });
    expect((await crm.invoices.get(invoice._id)).status).toBe('PARTIALLY_PAID');
    expect((await crm.invoices.find({ client: 'acme' })).data.map((i) => i._id)).toEqual([invoice._id]);
    expect((await crm.payments.list(invoice._id)).payments.map((p) => p._id)).toEqual([payment._id]);
    const refused = await crm.invoices.cancel(invoice._id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CrmkitError);
    expect((refused as CrmkitError).code).toBe('INVOICE_HAS_PAYMENTS');
    expect((await crm.invoices.cancel(invoice._id, { cancelPayment: true })).status).toBe('CANCELED');
    expect((await crm.clients.get('acme')).balance).toMatchObject({ invoice: 0, invoicePayment: 0 });
    expect(
      (await crm.invoices.create({ billedTo: buyer(), items: VENDOR_ITEMS }, { idempotencyKey: 'k-1' })).status,
    ).toBe('UNPAID');
    // On PostgreSQL a sync page waits behind transactions still open anywhere in the cluster: walked again until both came.
    let synced: string[] = [];
    for (const deadline = Date.now() + 20_000; synced.length < 2 && Date.now() < deadline; ) {
      synced = [];
      for await (const page of crm.invoices.sync({ updatedAtFrom: '2000-01-01', $limit: '1' }))
        synced.push(...page.data.map((i) => i._id));
    }
    expect(synced).toHaveLength(2);
    expect(synced).toContain(invoice._id);
  });
});
