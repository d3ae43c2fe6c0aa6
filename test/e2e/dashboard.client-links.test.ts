import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { http, launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 38 item 3: the client page is reachable from the client list, from a lead's customer and from an
// invoice's buyer, and shows that client's leads and invoices (each a link back).
const stores = await availableStores();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)('the client page, reached three ways (issue 38) [%s]', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  let leadId = '';
  let invoiceId = '';
  const problems: string[] = [];
  const clientHeading = () => page.getByRole('heading', { level: 1, name: /^Asha Traders/ });
  /** On the client page: its leads and invoices are listed, each a link. */
  const showsLeadAndInvoice = async () => {
    await clientHeading().waitFor();
    expect(page.url()).toContain('#/client-list/C-7');
    await page
      .getByRole('region', { name: 'Leads' })
      .getByRole('link', { name: /Pumps for the plant/ })
      .waitFor();
    await page.getByRole('region', { name: 'Invoices' }).getByRole('link', { name: 'INV-0001' }).waitFor();
  };

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    const client = await http(server.url, 'POST', `/api/v1/businesses/${biz.urlKey}/clients`, {
      token: biz.appToken,
      body: { clientId: 'C-7', name: 'Asha Traders', gstState: '29' },
    });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    leadId = await biz.createLead('L-7', 'New', { subject: 'Pumps for the plant', customer: { clientId: 'C-7' } });
    const invoice = await http(server.url, 'POST', `/admin/v1/businesses/${biz.urlKey}/invoices`, {
      token: biz.operator,
      body: {
        billedBy: { gstState: '29' },
        billedTo: { clientId: 'C-7' },
        items: [{ name: 'pump', rate: 100, quantity: 1, gstRate: 0 }],
      },
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    invoiceId = invoice.body.data._id;
    await logIn(page, server, biz.urlKey);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('from the client list', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Client list', exact: true })
      .click();
    await page.getByRole('link', { name: 'Asha Traders' }).click();
    await showsLeadAndInvoice();
  });

  it("from a lead's customer, and back to the lead", async () => {
    await page.goto(`${server.url}/#/leads/${encodeURIComponent(leadId)}`);
    await page.getByRole('heading', { level: 1, name: /Pumps for the plant/ }).waitFor();
    await page.getByRole('link', { name: 'Asha Traders' }).click();
    await showsLeadAndInvoice();
    await page
      .getByRole('region', { name: 'Leads' })
      .getByRole('link', { name: /Pumps for the plant/ })
      .click();
    await page.getByRole('heading', { level: 1, name: /Pumps for the plant/ }).waitFor();
  });

  it("from an invoice's buyer, and back to the invoice", async () => {
    await page.goto(`${server.url}/#/invoices/${encodeURIComponent(invoiceId)}`);
    await page.getByRole('heading', { level: 1, name: /Invoice INV-0001/ }).waitFor();
    await page.getByRole('link', { name: 'Asha Traders' }).click();
    await showsLeadAndInvoice();
    await page.getByRole('region', { name: 'Invoices' }).getByRole('link', { name: 'INV-0001' }).click();
    await page.getByRole('heading', { level: 1, name: /Invoice INV-0001/ }).waitFor();
    expect(problems).toEqual([]);
  });
});
