import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { launchBrowser, screenshot, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39 defect 7: messages in API words ("must have clientId or name", "followUpDate: must not be
// before today", "eventTypes must hold at least 1 entry" in a banner instead of next to the
// checkboxes), and stale messages under fields the operator has since filled. Now each message is in
// the operator's words, next to the field it is about, and goes when that field is changed.
const stores = await availableStores();
/** Words of the API that an operator should never read in a message. */
const API_WORDS = /clientId|followUpDate|eventTypes|must have|must hold|entry\b|\bentries\b/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The messages under one field (its `.field` box, or the fieldset/section that holds it). */
const errorsIn = (box: Locator) => box.locator('.field-error');
const texts = async (locator: Locator) => (await locator.allTextContents()).map((t) => t.trim());

describe.each(stores)('operator words in messages (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  const shots = storeName === 'sqlite';

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    await logIn(page, server, biz.urlKey);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('new lead without a customer: the message under Customer says what to do, and goes once it is typed', async () => {
    await page.goto(`${server.url}/#/leads`);
    await page.getByRole('button', { name: '+ New lead' }).click();
    const form = page.locator('form.new-lead');
    await form.getByLabel('Subject').fill('Saffron, first order');
    await form.getByLabel('Contact name').fill('Meera');
    await form.getByRole('button', { name: 'Create lead' }).click();
    const customerBox = form.locator('.field').filter({ has: page.getByLabel('Customer name', { exact: false }) });
    await errorsIn(customerBox).first().waitFor();
    const shown = await texts(errorsIn(customerBox));
    expect(shown).toEqual([expect.stringMatching(/customer/i)]);
    expect(shown[0]).not.toMatch(API_WORDS);
    const banner = (await form.getByRole('alert').allTextContents()).join(' ');
    expect(banner).not.toMatch(API_WORDS);
    if (shots) await screenshot(page, 'operator-words-new-lead');
    // Typing into the field takes its message away before the next attempt.
    await form.getByLabel('Customer name', { exact: false }).fill('Saffron House');
    await expect.poll(() => errorsIn(customerBox).count()).toBe(0);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it("a lead's follow-up date in the past: the message is under Follow-up date in words, and goes when changed", async () => {
    const leadId = await biz.createLead(`ow-${storeName}`, 'New');
    await page.goto(`${server.url}/#/leads/${leadId}`);
    const followUp = page.getByLabel('Follow-up date');
    await followUp.fill('2020-01-01');
    await page.getByRole('button', { name: 'Save lead' }).click();
    const box = page.locator('.field').filter({ has: followUp });
    await errorsIn(box).first().waitFor();
    const shown = await texts(errorsIn(box));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/today|past/i);
    expect(shown[0]).not.toMatch(API_WORDS);
    const banner = (await page.getByRole('alert').allTextContents()).join(' ');
    expect(banner).not.toMatch(API_WORDS);
    if (shots) await screenshot(page, 'operator-words-follow-up');
    await followUp.fill('2099-01-01');
    await expect.poll(() => errorsIn(box).count()).toBe(0);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByLabel('Follow-up date').inputValue()).toBe('');
  });

  it('a webhook endpoint without event types: the message is beside the checkboxes, not in a banner, and goes on a tick', async () => {
    await page.goto(`${server.url}/#/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.example.com/crm');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const types = page.getByRole('group', { name: 'Event types' });
    await errorsIn(types).first().waitFor();
    const shown = await texts(errorsIn(types));
    expect(shown).toEqual([expect.stringMatching(/event type/i)]);
    expect(shown[0]).not.toMatch(API_WORDS);
    const alerts = (await page.getByRole('alert').allTextContents()).join(' ');
    expect(alerts).not.toMatch(API_WORDS);
    if (shots) await screenshot(page, 'operator-words-webhooks');
    await types.getByRole('checkbox', { name: 'client.created' }).check();
    await expect.poll(() => errorsIn(types).count()).toBe(0);
  });

  it('ran without script errors', () => {
    expect(problems).toEqual([]);
  });
});
