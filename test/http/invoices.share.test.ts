// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';

// 2.7, 4.7, 8: the public share page, its PDF, and the operator's revocation, through HTTP on a real store.

const tokenOf = (link: string) => link.split('/share/invoices/')[1]!;

describeEachStore('2.7, 4.7, 8 invoice share links', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const revoke = (id: string, urlKey = t.urlKey, body?: unknown) =>
    call(ctx().app, 'POST', `/admin/v1/businesses/${urlKey}/invoices/${id}/share-link/revoke`, {
      token: t.operator,
      ...(body !== undefined && { body }),
    });

  it('8 revoke gives the invoice a new 256-bit token, answers the operator invoice, and is audit-logged', async () => {
    const invoice = await createInvoice(ctx(), t);
    const revoked = await revoke(invoice._id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.success).toBe(true);
    const after = revoked.body.data;
    expect(after).toMatchObject({ _id: invoice._id, invoiceNumber: invoice.invoiceNumber, status: 'UNPAID' });
    expect(after.share.pdf).toBe(invoice.share.pdf);
    expect(tokenOf(after.share.link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after.share.link).not.toBe(invoice.share.link);
    expect(after.share.link.replace(tokenOf(after.share.link), '')).toBe(
      invoice.share.link.replace(tokenOf(invoice.share.link), ''),
    );
    const read = await call(ctx().app, 'GET', `${t.invoices}/${invoice._id}`, { token: t.token });
    expect(read.body.share.link).toBe(after.share.link);
    expect(read.body.updatedAt >= invoice.updatedAt).toBe(true);
    const audit = await call(ctx().app, 'GET', '/admin/v1/audit?pageSize=100', { token: t.operator });
    const entry = audit.body.data.entries.find(
      (e: any) => e.business === t.urlKey && e.action === 'invoice.share-link.revoke',
    );
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).toContain(invoice._id);
  });

  it('8 revoke: an empty body or {} only; unknown invoice, another business, no session', async () => {
    const invoice = await createInvoice(ctx(), t);
    expect((await revoke(invoice._id, t.urlKey, {})).status).toBe(200);
    const withBody = await revoke(invoice._id, t.urlKey, { token: 'mine' });
    expect(withBody.status).toBe(400);
    const unknown = await revoke('0'.repeat(24));
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).code).toBe('INVOICE_NOT_FOUND');
    const other = await seedInvoiceTenant(ctx());
    const elsewhere = await revoke(invoice._id, other.urlKey);
    expect(elsewhere.status).toBe(404);
    expect(firstError(elsewhere).code).toBe('INVOICE_NOT_FOUND');
    expect(firstError(await revoke(invoice._id, 'nobody-here')).code).toBe('BUSINESS_NOT_FOUND');
    const anonymous = await call(
      ctx().app,
      'POST',
      `/admin/v1/businesses/${t.urlKey}/invoices/${invoice._id}/share-link/revoke`,
    );
    expect(anonymous.status).toBe(401);
    const appToken = await call(
      ctx().app,
      'POST',
      `/admin/v1/businesses/${t.urlKey}/invoices/${invoice._id}/share-link/revoke`,
      { token: t.token },
    );
    expect(appToken.status).toBe(401);
  });
});
