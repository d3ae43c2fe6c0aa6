import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, fits, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39 "Field history" and defect 9: an edit made on the lead's page shows in its timeline as what
// changed, and the audit log says it in words with the lead's id as a link back to the lead.
const stores = await availableStores();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)("a lead's field history in the dashboard (issue 39) [%s]", (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  let leadId = '';
  const problems: string[] = [];
  const budgetChange = /Budget: \D*100\.00 → \D*200\.00/;

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    leadId = await biz.createLead('H-1', 'New', { subject: 'Valves for the depot', budget: { amount: 100 } });
    await logIn(page, server, biz.urlKey);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it("the timeline shows an edit made on the lead's page: the field, its old and new value", async () => {
    await page.goto(`${server.url}/#/leads/${encodeURIComponent(leadId)}`);
    await page.getByRole('heading', { level: 1, name: /Valves for the depot/ }).waitFor();
    await page.getByLabel('Budget amount').fill('200');
    await page.getByRole('button', { name: 'Save lead' }).click();
    const timeline = page.getByRole('list', { name: 'Activity' });
    const edited = timeline.getByRole('listitem').filter({ hasText: 'Edited' });
    await edited.getByText(budgetChange).waitFor();
    expect(await edited.count()).toBe(1);
    expect(await timeline.getByText('Created').count()).toBe(1);
    await fits(page, `lead-history-timeline-${storeName}`, true);
  });

  it('the audit log says what the edit changed, and the lead id is a link to the lead', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit log' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Lead edited:' }).first();
    await row.getByText(budgetChange).waitFor();
    expect(await row.textContent()).not.toContain('lead.edit lead.edit');
    await fits(page, `lead-history-audit-${storeName}`, true);
    await row.getByRole('link', { name: leadId }).click();
    await page.getByRole('heading', { level: 1, name: /Valves for the depot/ }).waitFor();
    expect(page.url()).toContain(`#/leads/${leadId}`);
    expect(problems).toEqual([]);
  });
});
