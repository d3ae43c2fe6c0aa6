import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { http, launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39 defect 12: a new lead source's key is made from its label (unique within the business,
// editable before saving), and a business's country is chosen from the server's ISO countries.
const stores = await availableStores();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)('lead source keys and business countries (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  // The new group, once drawn: `.last()` alone is resolved when used, and may still find the list's
  // former last source (a saved one, whose key stays) if the page has not drawn the new one yet.
  const newSource = async () => {
    const groups = page.getByRole('group', { name: /^Source \d+$/ });
    const before = await groups.count();
    await page.getByRole('button', { name: '+ Add source' }).click();
    await groups.nth(before).waitFor();
    return groups.nth(before);
  };

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    await logIn(page, server, biz.urlKey);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('offers Add and Save only once the saved sources are drawn (Save on the empty list before would remove them all)', async () => {
    const sources = `**/admin/v1/businesses/${biz.urlKey}/lead-sources`;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(sources, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await page.goto(`${server.url}/#/lead-settings`);
    await page.getByText('Loading sources…').waitFor();
    expect(await page.getByRole('button', { name: '+ Add source' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save sources' }).isDisabled()).toBe(true);
    release();
    await page.getByRole('button', { name: 'Save sources', disabled: false }).waitFor();
    expect(await page.getByRole('group', { name: /^Source \d+$/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: '+ Add source' }).isDisabled()).toBe(false);
    await page.unroute(sources);
  });

  it('derives a new source’s key from its label, unique in the list, and keeps a key typed by hand', async () => {
    await page.goto(`${server.url}/#/lead-settings`);
    await page.getByRole('heading', { level: 1, name: 'Lead settings' }).waitFor();
    // Enabled once the saved sources are drawn: counting them before would count none.
    await page.getByRole('button', { name: '+ Add source', disabled: false }).waitFor();
    const first = await newSource();
    await first.getByLabel('Label').fill('Trade fair — Mumbai 2026');
    expect(await first.getByLabel('Key').inputValue()).toBe('TRADE_FAIR_MUMBAI_2026');
    const second = await newSource();
    await second.getByLabel('Label').fill('Trade fair, Mumbai 2026');
    expect(await second.getByLabel('Key').inputValue()).toBe('TRADE_FAIR_MUMBAI_2026_2');
    await second.getByLabel('Key').fill('EXPO');
    await second.getByLabel('Label').fill('Expo Mumbai');
    expect(await second.getByLabel('Key').inputValue()).toBe('EXPO');
    await page.getByRole('button', { name: 'Save sources' }).click();
    await page.getByText('Lead sources saved.').waitFor();
    const stored = await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/lead-sources`, {
      token: biz.operator,
    });
    const sources = stored.body.data.sources.map((s: any) => [s.key, s.label]);
    expect(sources).toEqual(
      expect.arrayContaining([
        ['TRADE_FAIR_MUMBAI_2026', 'Trade fair — Mumbai 2026'],
        ['EXPO', 'Expo Mumbai'],
      ]),
    );
  });

  it('creates a business in a country picked from the ISO list', async () => {
    await page.goto(`${server.url}/#/businesses`);
    const country = page.getByLabel('Country', { exact: true });
    await country.locator('option[value="AE"]').waitFor({ state: 'attached' });
    expect(await country.locator('option').count()).toBeGreaterThan(240);
    expect(await country.locator('option[value="AE"]').textContent()).toBe('United Arab Emirates (AE)');
    const urlKey = `${biz.urlKey}-ae`;
    await page.getByLabel('Business name').fill('Gulf Traders');
    await country.selectOption('AE');
    await page.getByLabel('URL key (optional)').fill(urlKey);
    await page.getByRole('button', { name: 'Create business' }).click();
    await page.getByRole('cell', { name: urlKey }).waitFor();
    const list = await http(server.url, 'GET', '/admin/v1/businesses', { token: biz.operator });
    expect(list.body.data.find((b: any) => b.urlKey === urlKey)?.country).toBe('AE');
  });

  it('ran without script errors', () => {
    expect(problems).toEqual([]);
  });
});
