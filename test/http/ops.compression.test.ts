import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES } from '../../src/http/compression.js';
import { call, describeEachStore } from '../helpers/app.js';
import { createInvoice, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { createLead, seedLeadTenant } from '../helpers/leads.js';

const decode: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

/**
 * Answers compressed per Accept-Encoding (docs/decisions.md "Compression"): br or gzip from
 * COMPRESS_THRESHOLD_BYTES up, each decoding to the bytes an identity answer carries; identity without
 * the header; 304 as before; short JSON answers and PDFs as they are; one-record reads (`compress: false`,
 * docs/decisions.md "Compression off for one-record reads") as they are whatever their length.
 */
describeEachStore('ops: answers compressed per Accept-Encoding', (ctx) => {
  let t: InvoiceTenant;
  const get = (url: string, headers: Record<string, string> = {}, token?: string) =>
    ctx().app.inject({
      method: 'GET',
      url,
      headers: { ...headers, ...(token && { authorization: `Bearer ${token}` }) },
    });
  /** The answer in each encoding, each checked to decode to the identity answer's bytes. */
  async function expectCompressed(url: string, token?: string): Promise<LightMyRequestResponse> {
    const plain = await get(url, {}, token);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    for (const encoding of ['br', 'gzip']) {
      const packed = await get(url, { 'accept-encoding': encoding }, token);
      expect(packed.statusCode).toBe(200);
      expect(packed.headers['content-encoding'], url).toBe(encoding);
      expect(packed.headers.vary).toContain('accept-encoding');
      expect(packed.headers['content-type']).toBe(plain.headers['content-type']);
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decode[encoding]!(packed.rawPayload).equals(plain.rawPayload), url).toBe(true);
    }
    return plain;
  }

  beforeAll(async () => {
    t = await seedInvoiceTenant(ctx());
  });

  it('/openapi.json in br and gzip, a browser header picking br; no Accept-Encoding gets identity', async () => {
    const plain = await expectCompressed('/openapi.json');
    const browser = await get('/openapi.json', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(browser.headers['content-encoding']).toBe('br');
    expect(browser.headers.etag).toBe(plain.headers.etag);
    const refused = await get('/openapi.json', { 'accept-encoding': 'identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('304 on If-None-Match whatever the encoding asked for, with no body', async () => {
    const { etag } = (await get('/openapi.json')).headers;
    for (const encoding of [undefined, 'br', 'gzip']) {
      const again = await get('/openapi.json', {
        'if-none-match': String(etag),
        ...(encoding && { 'accept-encoding': encoding }),
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers['content-encoding']).toBeUndefined();
    }
  });

  it("the reference page's and the dashboard's scripts and styles", async () => {
    for (const url of ['/docs/docs.js', '/docs/docs.css', '/assets/app.js', '/assets/styles.css'])
      await expectCompressed(url);
  });

  it('a JSON answer above the threshold is compressed; one below it goes as it is', async () => {
    let invoice: any;
    for (let i = 0; i < 4; i++) invoice = await createInvoice(ctx(), t);
    const list = await expectCompressed(t.invoices, t.token);
    expect(list.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    for (const url of [`${t.invoices}/${invoice._id}`, '/healthz']) {
      const small = await get(url, { 'accept-encoding': 'br, gzip' }, t.token);
      expect(small.statusCode).toBe(200);
      expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(Number(small.headers['content-length'])).toBe(small.rawPayload.length);
      expect(JSON.parse(small.body)).toBeTruthy();
    }
  });

  it('the PDF goes as it is (compressed inside already)', async () => {
    const invoice = await createInvoice(ctx(), t);
    const pdf = await get(`${t.invoices}/${invoice._id}/pdf`, { 'accept-encoding': 'br, gzip' }, t.token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('the CSV export streams compressed, decoding to the identity file', async () => {
    for (const encoding of ['br', 'gzip']) {
      const url = `/admin/v1/businesses/${t.urlKey}/client-export`;
      const plain = await get(url, {}, t.operator);
      const packed = await get(url, { 'accept-encoding': encoding }, t.operator);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(plain.body.split('\r\n')[0]).toContain('clientId');
      expect(decode[encoding]!(packed.rawPayload).toString()).toBe(plain.body);
    }
  });

  /** What a caller that accepts br and gzip gets: the identity bytes, above the threshold all the same. */
  async function expectIdentity(url: string, token: string): Promise<void> {
    const answer = await get(url, { 'accept-encoding': 'gzip, deflate, br' }, token);
    expect(answer.statusCode, url).toBe(200);
    expect(answer.headers['content-encoding'], url).toBeUndefined();
    expect(answer.rawPayload.length, url).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(String(answer.headers.vary ?? ''), url).not.toContain('accept-encoding');
    expect(Number(answer.headers['content-length']), url).toBe(answer.rawPayload.length);
    expect(answer.rawPayload.equals((await get(url, {}, token)).rawPayload), url).toBe(true);
  }

  it('one-record reads go as they are even above the threshold (compress: false): an invoice, public, alias and operator', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({
      name: `item ${i} ${'x'.repeat(200)}`,
      rate: 100,
      quantity: 1,
    }));
    const invoice = await createInvoice(ctx(), t, { items: items.map((item) => ({ ...item, gstRate: 18 })) });
    for (const url of [`${t.invoices}/${invoice._id}`, `${t.alias}/${invoice._id}`]) await expectIdentity(url, t.token);
    await expectIdentity(`${t.admin}/invoices/${invoice._id}`, t.operator);
    // The list that holds it keeps its compression.
    await expectCompressed(t.invoices, t.token);
  });

  it('one-record reads go as they are even above the threshold: a client, public and operator', async () => {
    const long = (c: string) => c.repeat(500);
    const clientId = `big-${Date.now()}`;
    const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: {
        clientId,
        name: 'Asha Traders',
        alias: long('a'),
        street: long('s'),
        building: long('b'),
        city: long('c'),
        district: long('d'),
        shippingDetails: [
          { city: long('p'), country: 'IN' },
          { city: long('q'), country: 'IN' },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await expectIdentity(`/api/v1/businesses/${t.urlKey}/clients/${clientId}`, t.token);
    await expectIdentity(`${t.admin}/clients/${clientId}`, t.operator);
  });

  it('one-record reads go as they are even above the threshold: a lead, public and operator; the lead list is compressed', async () => {
    const l = await seedLeadTenant(ctx());
    const lead = await createLead(ctx(), l, { details: 'd'.repeat(6000) });
    await expectIdentity(`${l.leads}/${lead.leadId}`, l.token);
    await expectIdentity(`${l.admin}/${lead.leadId}`, l.operator);
    await expectCompressed(l.leads, l.token);
  });
});
