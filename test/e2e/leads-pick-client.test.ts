import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { http, launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, fits, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39 defect 5: "+ New lead" made a new client every time. Now the form searches the clients
// (by name or clientId) and links one; a name that is an existing client's once normalised is offered
// as that client before a new one is made; a new client is made only on purpose.
const stores = await availableStores();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)('pick a client for a new lead (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  const shots = storeName === 'sqlite';
  const form = () => page.locator('form.new-lead');
  const customer = () => form().getByLabel('Customer name (search by name or clientId)');
  const clientsNamed = async (q: string) =>
    (
      await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/clients?q=${encodeURIComponent(q)}`, {
        token: biz.operator,
      })
    ).body.data[0].items;
  const leadBySubject = async (subject: string) =>
    (
      await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/leads?subject=${encodeURIComponent(subject)}`, {
        token: biz.operator,
      })
    ).body.data[0].items[0];
  async function openForm(subject: string) {
    await page.getByRole('button', { name: '+ New lead' }).click();
    await form().getByLabel('Subject').fill(subject);
    await form().getByLabel('Contact name').fill('Meera');
  }

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    const created = await http(server.url, 'POST', `/api/v1/businesses/${biz.urlKey}/clients`, {
      token: biz.appToken,
      body: { clientId: 'C-100', name: 'Same Name Pvt Ltd' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await logIn(page, server, biz.urlKey);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByRole('button', { name: '+ New lead' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('finds a client by clientId and links the new lead to it', async () => {
    await openForm('Picked by id');
    await customer().fill('C-10');
    await form().getByRole('button', { name: 'Use Same Name Pvt Ltd (C-100)' }).click();
    await form().getByText('Linked to the existing client Same Name Pvt Ltd (C-100).').waitFor();
    await fits(page, '39-new-lead-picked', shots);
    await form().getByRole('button', { name: 'Create lead' }).click();
    await page.getByText('Lead “Picked by id” created.').waitFor();
    expect((await leadBySubject('Picked by id')).customer.clientId).toBe('C-100');
    expect((await clientsNamed('Same Name')).length).toBe(1);
  });

  it('offers the same-named client before making a new one, and links it when chosen', async () => {
    await openForm('Typed the name');
    await customer().fill('same-name pvt. ltd.');
    await form().getByRole('button', { name: 'Create lead' }).click();
    const offer = form()
      .getByRole('alert')
      .filter({ hasText: 'A client named “Same Name Pvt Ltd” already exists (C-100).' });
    await offer.waitFor();
    if (shots) await page.screenshot({ path: '.test-artifacts/screenshots/39-new-lead-duplicate-1280.png' });
    await offer.getByRole('button', { name: 'Use the existing client' }).click();
    await form().getByText('Linked to the existing client Same Name Pvt Ltd (C-100).').waitFor();
    await form().getByRole('button', { name: 'Create lead' }).click();
    await page.getByText('Lead “Typed the name” created.').waitFor();
    expect((await leadBySubject('Typed the name')).customer.clientId).toBe('C-100');
    expect((await clientsNamed('Same Name')).length).toBe(1);
  });

  it('makes a new client only on purpose', async () => {
    await openForm('A second client');
    await customer().fill('Same Name Pvt Ltd');
    await form().getByRole('button', { name: 'Create lead' }).click();
    await form().getByRole('button', { name: 'Create a new client anyway' }).click();
    await page.getByText('Lead “A second client” created.').waitFor();
    const lead = await leadBySubject('A second client');
    expect(lead.customer.clientId).not.toBe('C-100');
    expect((await clientsNamed('Same Name')).length).toBe(2);
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems).toEqual([]);
  });
});
