import { beforeAll, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { buyer, createInvoice, firstError, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { decodeQr, decodeTlv, readPdf } from '../helpers/poppler.js';

// 4.7 GET …/invoices/:invoiceId/pdf through HTTP on a real store: the bytes read back with pdftotext.

describeEachStore('4.7 GET invoice PDF', (ctx) => {
  let t: InvoiceTenant;
  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });
  const pdfOf = (path: string, token = t.token) =>
    ctx().app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });

  it('9.1 created through the API answers application/pdf, inline, with every particular as text', async () => {
    const invoice = await createInvoice(ctx(), t, {
      billedTo: buyer({
        name: 'Zoë Traders',
        phone: '+919812345678',
        phoneShowInInvoice: true,
        email: 'a@zoe.example',
      }),
    });
    const response = await pdfOf(`${t.invoices}/${invoice._id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="${invoice.invoiceNumber}.pdf"; filename*=UTF-8''${invoice.invoiceNumber}.pdf`,
    );
    const { text } = readPdf(`http-9.1-${ctx().storeName}`, response.rawPayload);
    for (const particular of [
      'TAX INVOICE',
      `Invoice No.: ${invoice.invoiceNumber}`,
      'Place of Supply: Karnataka (29)',
      'Reverse charge: No',
      'Zoë Traders',
      'State: Karnataka, Code: 29',
      '1 one 2 100.00 200.00 9 18.00 9 18.00 236.00',
      'Total (INR) ₹1,580.00',
      'Rupees One Thousand Five Hundred Eighty Only',
      'Authorised Signatory',
      'Phone: +919812345678',
    ]) {
      expect(text, particular).toContain(particular);
    }
    expect(text).not.toContain('a@zoe.example');
    expect(text).not.toContain('CANCELED');
    const alias = await pdfOf(`${t.alias}/${invoice._id}/pdf`);
    expect(alias.statusCode).toBe(200);
    expect(alias.headers['content-type']).toBe('application/pdf');
  });

  it('a canceled invoice stays printable, stamped CANCELED', async () => {
    const invoice = await createInvoice(ctx(), t);
    expect((await call(ctx().app, 'POST', `${t.invoices}/${invoice._id}/cancel`, { token: t.token })).status).toBe(200);
    const response = await pdfOf(`${t.invoices}/${invoice._id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(readPdf(`http-canceled-${ctx().storeName}`, response.rawPayload).text).toContain('CANCELED');
  });

  it('a Saudi invoice carries its zatcaQr as a QR code that decodes from the page', async () => {
    const saudi = await seedInvoiceTenant(
      ctx(),
      { country: 'SA', currency: 'SAR' },
      { name: 'شركة النور للتجارة', vatNumber: '300000000000003' },
    );
    const body = {
      billedTo: { name: 'Red Sea Logistics Co.', country: 'SA' },
      items: [{ name: 'Freight', rate: 500, quantity: 2, taxRate: 15 }],
    };
    const created = await call(ctx().app, 'POST', saudi.invoices, { token: saudi.token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const response = await pdfOf(`${saudi.invoices}/${created.body._id}/pdf`, saudi.token);
    const read = readPdf(`http-saudi-${ctx().storeName}`, response.rawPayload);
    expect(read.logical).toContain('شركة النور للتجارة');
    expect(decodeQr(read.pngs[0] as string)).toBe(created.body.zatcaQr);
    expect(decodeTlv(created.body.zatcaQr).map((record) => record.tag)).toEqual([1, 2, 3, 4, 5]);
  });

  it("4.4 errors: unknown, malformed and another business's ids answer one 404; a query parameter 400; no token 401", async () => {
    const other = await seedInvoiceTenant(ctx());
    const theirs = await createInvoice(ctx(), other);
    const answers = await Promise.all(
      ['0123456789abcdef01234567', 'not-an-id', theirs._id].map((id) =>
        call(ctx().app, 'GET', `${t.invoices}/${id}/pdf`, { token: t.token }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(firstError(answer).code).toBe('INVOICE_NOT_FOUND');
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    const mine = await createInvoice(ctx(), t);
    const query = await call(ctx().app, 'GET', `${t.invoices}/${mine._id}/pdf?download=1`, { token: t.token });
    expect(query.status).toBe(400);
    expect(firstError(query).code).toBe('INVALID_QUERY_FIELD');
    expect((await call(ctx().app, 'GET', `${t.invoices}/${mine._id}/pdf`)).status).toBe(401);
  });

  it('4.8 any method but GET on …/pdf: 405, the status alone', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const answer = await call(ctx().app, method, `${t.invoices}/0123456789abcdef01234567/pdf`);
      expect(answer.status, method).toBe(405);
      expect(answer.body?.data?.error?.code).toBeUndefined();
    }
  });
});
