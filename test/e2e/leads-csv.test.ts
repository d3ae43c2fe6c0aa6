import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { http, launchBrowser, startServer, type RunningServer } from './helpers-browser.js';
import { DESKTOP, fits, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39: leads from and to CSV in the dashboard, on each store. A file of 1,000 leads is previewed
// (nothing written), imported, and run again: 1,000 stored, not 2,000. A file with problems shows each
// row's problem before anything is written. The list's filtered leads download as CSV.
const stores = await availableStores();
const ROWS = 1000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A CSV file as a spreadsheet writes it: quoted cells with commas, quotes and line breaks. */
function leadsCsv(count: number, stage = 'New'): Buffer {
  const lines = ['externalId,pipeline,stage,subject,customerName,contactName,contactEmail,budgetAmount'];
  for (let i = 0; i < count; i++)
    lines.push(
      `imp-${i},Sales,${stage},"Order ${i}, ""rush""\nsecond line",Buyer ${i % 37} Pvt Ltd,Asha,asha${i}@example.com,${1000 + i}.25`,
    );
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

describe.each(stores)('lead CSV import and export in the dashboard (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  const shots = storeName === 'sqlite';
  const totalIn = async (query: string) =>
    (await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/leads?${query}`, { token: biz.operator })).body
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
    await page.goto(`${server.url}/#/lead-list?pipeline=Sales&stage=New`);
    await page.getByRole('heading', { level: 1, name: 'Lead list' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('shows each row’s problem before anything is written', async () => {
    await card().locator('summary').click();
    const bad = Buffer.from(
      'externalId,pipeline,stage,subject,customerName,contactName\nok-1,Sales,New,Fine,A Ltd,A\nbad-1,Sales,Nowhere,Bad,B Ltd,B\n',
    );
    await choose('bad.csv', bad);
    await card()
      .getByText('Preview of 2 rows: 1 new, 0 already imported, 1 with a problem. Nothing is written yet.')
      .waitFor();
    const problem = card().getByRole('table', { name: 'Rows with a problem' }).locator('tbody tr');
    expect(await problem.count()).toBe(1);
    expect(await problem.locator('td').allTextContents()).toEqual(['2', 'bad-1', expect.stringContaining('Nowhere')]);
    await fits(page, '39-csv-preview', shots);
    expect(await totalIn('externalId=ok-1')).toBe(0);
  });

  it('imports 1,000 leads, and a second run of the same file stores none again', async () => {
    const file = leadsCsv(ROWS);
    await choose('leads.csv', file);
    await card()
      .getByText(`Preview of ${ROWS} rows: ${ROWS} new, 0 already imported, 0 with a problem.`, { exact: false })
      .waitFor();
    expect(await totalIn('pipeline=Sales&stage=New')).toBe(0);
    await card()
      .getByRole('button', { name: `Import ${ROWS} new leads` })
      .click();
    await card().getByText(`Imported: ${ROWS} new, 0 already there, 0 failed.`).waitFor({ timeout: 240_000 });
    expect(await totalIn('pipeline=Sales&stage=New')).toBe(ROWS);
    // The same file again: the preview finds every externalId imported, and a write adds nothing.
    await choose('leads-again.csv', file);
    await card()
      .getByText(`Preview of ${ROWS} rows: 0 new, ${ROWS} already imported, 0 with a problem.`, { exact: false })
      .waitFor();
    expect(await card().getByRole('button', { name: 'Import 0 new leads' }).isDisabled()).toBe(true);
    const again = await http(server.url, 'POST', `/admin/v1/businesses/${biz.urlKey}/lead-imports`, {
      token: biz.operator,
      body: { csv: file.toString() },
    });
    expect(again.body.data).toMatchObject({ rows: ROWS, created: 0, unchanged: ROWS, failed: 0 });
    expect(await totalIn('pipeline=Sales&stage=New')).toBe(ROWS);
    const one = (
      await http(server.url, 'GET', `/admin/v1/businesses/${biz.urlKey}/leads?externalId=imp-7`, {
        token: biz.operator,
      })
    ).body.data[0].items[0];
    expect(one).toMatchObject({ subject: 'Order 7, "rush"\nsecond line', budget: { amount: 1007.25 } });
  }, 300_000);

  it('exports the filtered list as CSV: every lead of the filter, once', async () => {
    await page.reload();
    await page.getByRole('table', { name: 'Leads' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const [header, ...rows] = parse(await readFile((await download.path())!)) as string[][];
    expect(rows.length).toBe(ROWS);
    const externalId = header!.indexOf('externalId');
    expect(new Set(rows.map((r) => r[externalId]))).toEqual(
      new Set(Array.from({ length: ROWS }, (_, i) => `imp-${i}`)),
    );
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems).toEqual([]);
  });
});
