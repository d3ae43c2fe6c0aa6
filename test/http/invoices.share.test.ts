// @module-tag pooled
import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { readPdf } from '../helpers/poppler.js';

// 2.7, 4.7, 8: the public share page, its PDF, and the operator's revocation, through HTTP on a real store.

const PUBLIC_URL = 'https://billing.example.test';
const tokenOf = (link: string) => link.split('/share/invoices/')[1]!;
const pathOf = (link: string) => link.slice(PUBLIC_URL.length);
/** The page's text as a reader sees it: tags dropped, entities read, whitespace one space. */
const textOf = (html: string) =>
  html
    .replace(/<style>[^<]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
/** What may differ between two answers that are otherwise the same: the request's own id and the clock. */
const comparable = (headers: Record<string, unknown>) => {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
};

describeEachStore(
  '2.7, 4.7, 8 invoice share links',
  (ctx) => {
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

    const get = (path: string, headers: Record<string, string> = {}) =>
      ctx().app.inject({ method: 'GET', url: path, headers });

    it("4.7 the page shows the PDF's content (seller, buyer, number, totals, words), links its PDF from PUBLIC_URL, with the private headers", async () => {
      const invoice = await createInvoice(ctx(), t, {
        billedTo: buyer({
          name: 'Zoë <Traders> & Sons',
          phone: '+919812345678',
          phoneShowInInvoice: true,
          email: 'accounts@zoe.example',
        }),
      });
      expect(invoice.share.link.startsWith(`${PUBLIC_URL}/share/invoices/`)).toBe(true);
      const page = await get(pathOf(invoice.share.link), { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-robots-tag']).toBe('noindex');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      const policy = String(page.headers['content-security-policy']);
      expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(policy).not.toContain('script-src');
      expect(policy).not.toContain('unsafe-inline');
      const html = page.body;
      expect(html).not.toContain('<script');
      expect(html).not.toContain('evil.example');
      expect(html).toContain(`href="${invoice.share.link}/pdf"`);
      expect(html).toContain('Zoë &lt;Traders&gt; &amp; Sons');
      const text = textOf(html);
      for (const shown of [
        'TAX INVOICE',
        invoice.invoiceNumber,
        'Place of Supply',
        'Karnataka (29)',
        'Zoë <Traders> & Sons',
        invoice.billedBy.name,
        '₹1,580.00',
        'Rupees One Thousand Five Hundred Eighty Only',
        'Reverse charge',
        'Authorised Signatory',
        '+919812345678',
        'Download PDF',
      ]) {
        expect(text, shown).toContain(shown);
      }
      expect(text).not.toContain('accounts@zoe.example');
      expect(text).not.toContain('CANCELED');
      const head = await ctx().app.inject({ method: 'HEAD', url: pathOf(invoice.share.link) });
      expect(head.statusCode).toBe(200);
      expect(head.headers['cache-control']).toBe('no-store');
    });

    it('4.7 a canceled invoice is stamped CANCELED; the e-mail shows where its flag says', async () => {
      const invoice = await createInvoice(ctx(), t, {
        billedTo: buyer({ email: 'accounts@zoe.example', emailShowInInvoice: true, phone: '+919812345678' }),
      });
      expect((await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/cancel`, { token: t.token })).status).toBe(
        200,
      );
      const text = textOf((await get(pathOf(invoice.share.link))).body);
      expect(text).toContain('CANCELED');
      expect(text).toContain('accounts@zoe.example');
      expect(text).not.toContain('+919812345678');
    });

    it('4.7 the PDF through the share link is the document, with the same private headers', async () => {
      const invoice = await createInvoice(ctx(), t);
      const response = await get(`${pathOf(invoice.share.link)}/pdf`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.headers['content-disposition']).toMatch(/^inline; filename=/);
      expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');
      const { text } = readPdf(`share-${ctx().storeName}`, response.rawPayload);
      expect(text).toContain(`Invoice No.: ${invoice.invoiceNumber}`);
      expect(text).toContain('Rupees One Thousand Five Hundred Eighty Only');
    });

    it('4.7 unknown, malformed and revoked tokens get one identical 404, byte for byte, headers too; revocation is immediate', async () => {
      const invoice = await createInvoice(ctx(), t);
      const oldPath = pathOf(invoice.share.link);
      expect((await get(oldPath)).statusCode).toBe(200);
      const revoked = await revoke(invoice._id);
      const newPath = pathOf(revoked.body.data.share.link);
      const old = tokenOf(invoice.share.link);
      const answers = await Promise.all(
        [
          oldPath,
          `${oldPath}/pdf`,
          `/share/invoices/${'A'.repeat(43)}`,
          `/share/invoices/${'A'.repeat(43)}/pdf`,
          `/share/invoices/${old.slice(0, 42)}`,
          `/share/invoices/${old}A`,
          `/share/invoices/${old.slice(0, 42)}.`,
          `/share/invoices/${encodeURIComponent(`${old.slice(0, 40)}' or 1=1`)}`,
          '/share/invoices/%00',
          `/share/invoices/${'x'.repeat(600)}`,
          `/share/invoices/${old.toLowerCase() === old ? old.toUpperCase() : old.toLowerCase()}`,
        ].map((path) => get(path)),
      );
      const [first] = answers;
      expect(first!.statusCode).toBe(404);
      expect(first!.headers['cache-control']).toBe('no-store');
      expect(first!.headers['x-robots-tag']).toBe('noindex');
      expect(first!.body).not.toContain(old);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(404);
        expect(answer.rawPayload.equals(first!.rawPayload)).toBe(true);
        expect(comparable(answer.headers)).toEqual(comparable(first!.headers));
      }
      expect((await get(newPath)).statusCode).toBe(200);
      expect((await get(`${newPath}/pdf`)).statusCode).toBe(200);
    });

    it('4.8 methods other than GET and HEAD: 405, the status alone', async () => {
      const invoice = await createInvoice(ctx(), t);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const path of [pathOf(invoice.share.link), `${pathOf(invoice.share.link)}/pdf`]) {
          const refused = await ctx().app.inject({ method, url: path });
          expect(refused.statusCode, `${method} ${path}`).toBe(405);
        }
      }
    });
  },
  { publicUrl: PUBLIC_URL },
);
