import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { http, launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, fits, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39: clients from and to CSV in the dashboard's client list, on each store. A file with
// problems shows each row's problem before anything is written; a good file is previewed, imported,
// and run again (stored once); the searched list downloads as CSV with formula cells neutralised.
const stores = await availableStores();
const ROWS = 200;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function clientsCsv(count: number): Buffer {
  const lines = ['clientId,name,email,phone,city'];
  for (let i = 0; i < count; i++)
    lines.push(`imp-${i},"Buyer ${i}, ""Pvt"" Ltd",buyer${i}@example.com,+91 98450 ${String(10000 + i)},Pune`);
  lines.push('imp-formula,=SUM(A1:A9),,,Pune');
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

describe.each(stores)('client CSV import and export in the dashboard (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  const shots = storeName === 'sqlite';
  const totalIn = async (q: string) =>
    (await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/clients?q=${q}`, { token: biz.operator })).body
      .data[0].total as number;
  const card = () => page.locator('details.csv-import');
  const choose = async (name: string, buffer: Buffer) => {
    await card().getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer });
  };

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP, acceptDownloads: true });
    page.setDefaultTimeout(60_000);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    await logIn(page, server, biz.urlKey);
    await page.goto(`${server.url}/#/client-list`);
    await page.getByRole('heading', { level: 1, name: 'Client list' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('shows each row’s problem before anything is written', async () => {
    await card().locator('summary').click();
    const bad = Buffer.from('clientId,name,email\nok-1,Fine Ltd,a@example.com\nbad-1,Bad Ltd,not-an-email\n');
    await choose('bad.csv', bad);
    await card()
      .getByText('Preview of 2 rows: 1 new, 0 already imported, 1 with a problem. Nothing is written yet.')
      .waitFor();
    const problem = card().getByRole('table', { name: 'Rows with a problem' }).locator('tbody tr');
    expect(await problem.count()).toBe(1);
    expect(await problem.locator('td').allTextContents()).toEqual(['2', 'bad-1', expect.stringContaining('email')]);
    await fits(page, '39-clients-csv-preview', shots);
    expect(await totalIn('ok-1')).toBe(0);
  });

  it('imports the clients, and a second run of the same file stores none again', async () => {
    const file = clientsCsv(ROWS);
    const all = ROWS + 1;
    await choose('clients.csv', file);
    await card()
      .getByText(`Preview of ${all} rows: ${all} new, 0 already imported, 0 with a problem.`, { exact: false })
      .waitFor();
    expect(await totalIn('imp-')).toBe(0);
    await card()
      .getByRole('button', { name: `Import ${all} new clients` })
      .click();
    await card().getByText(`Imported: ${all} new, 0 already there, 0 failed.`).waitFor({ timeout: 120_000 });
    expect(await totalIn('imp-')).toBe(all);
    await page.getByText(`1–20 of ${all}`).waitFor();
    await choose('clients-again.csv', file);
    await card()
      .getByText(`Preview of ${all} rows: 0 new, ${all} already imported, 0 with a problem.`, { exact: false })
      .waitFor();
    expect(await card().getByRole('button', { name: 'Import 0 new clients' }).isDisabled()).toBe(true);
    expect(await totalIn('imp-')).toBe(all);
  }, 240_000);

  it('exports the searched list as CSV: every client once, formulas neutralised', async () => {
    await page.getByLabel('Search clients').fill('imp-');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText(`1–20 of ${ROWS + 1}`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`clients-${biz.urlKey}.csv`);
    const [header, ...rows] = parse(await readFile((await download.path())!)) as string[][];
    expect(rows.length).toBe(ROWS + 1);
    const at = (name: string) => header!.indexOf(name);
    const formula = rows.find((r) => r[at('clientId')] === 'imp-formula')!;
    expect(formula[at('name')]).toBe("'=SUM(A1:A9)");
    expect(rows.find((r) => r[at('clientId')] === 'imp-3')![at('phone')]).toMatch(/^'\+91/);
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems).toEqual([]);
  });
});
