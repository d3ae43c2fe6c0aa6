// @module-tag dates
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore, type Store } from '../../src/storage/store.js';
import type { FastifyInstance } from 'fastify';
import { call } from '../helpers/app.js';
import { appSecretToken, operatorToken, seedTenant, type Tenant } from '../helpers/seed.js';
import { availableStores, configFor, privatePostgresDatabase, type PrivateDatabase } from '../helpers/stores.js';
import { withMigratedSqlite } from '../helpers/sqlite-template.js';
import { REPORTS_NOW, REPORTS_PIPELINES, seedReportHistory, seedReportInvoices } from '../helpers/reports.js';
import { launchBrowser, openPage, screenshot, TEST_ADMIN } from './helpers-browser.js';
import { DESKTOP, fitsPhone, PHONE } from './helpers-layout.js';

/**
 * Issue 38 item 4: the Reports page on the history of test/helpers/reports.ts (whose figures
 * test/http/reports.test.ts works out by hand), read back from the tables under the charts, in the
 * business's locale (en-IN: ₹, lakh grouping, "20 Nov 2026"). The server's clock stands at that
 * history's "now", 2026-11-20 11:30 in Kolkata.
 */
const stores = await availableStores();

describe.each(stores)('dashboard: reports (issue 38 item 4) [%s]', (storeName) => {
  const clock = { at: Date.parse('2026-08-15T06:00:00Z'), now: () => clock.at };
  let own: PrivateDatabase | undefined;
  let store: Store;
  let app: FastifyInstance;
  let url = '';
  let browser: Browser;
  let page: Page;
  let problems: string[] = [];
  let tenant: Tenant;

  beforeAll(async () => {
    if (storeName === 'postgres') own = await privatePostgresDatabase('crmkit_reports');
    const config = configFor(storeName, own ? { databaseUrl: own.url } : {});
    if (storeName === 'sqlite') withMigratedSqlite(config.dataDir);
    store = openStore(config);
    await store.migrate();
    await new OperatorsService(store, clock.now, config.passwordHashCost).ensureFirstOperator(
      config.adminEmail,
      config.adminPassword,
    );
    app = await buildApp({ config, store, clock });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await seedTenant(app);
    const put = await call(app, 'PUT', `/admin/v1/businesses/${tenant.urlKey}/pipelines`, {
      token: tenant.operator,
      body: REPORTS_PIPELINES,
    });
    expect(put.status).toBe(200);
    await seedReportHistory(app, tenant, clock);
    clock.at = REPORTS_NOW;
    tenant.token = await appSecretToken(app, tenant.appId, tenant.appSecret);
    tenant.operator = await operatorToken(app);
    await seedReportInvoices(app, tenant);
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await store?.close();
    await own?.drop();
  });

  /** A report's table as text: one array of cell texts per body row. */
  const table = (id: string) =>
    page
      .locator(`#${id}-table tbody tr`)
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
      );

  it('shows every report with the known figures, in the business locale', async () => {
    await page.goto(url);
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Businesses' }).waitFor();
    await page.locator('#business-switcher').selectOption(tenant.urlKey);
    // The page's first load (the default 12 months) is held until the chosen 3 months have been drawn,
    // then answers: a slower earlier answer must not replace the chosen period's figures (it did, in a
    // CI run where the first load happened to finish last).
    const staleOutcomes = /\/reports\/lead-outcomes\?.*months=12/;
    let releaseStale = () => {};
    const staleHeld = new Promise<void>((resolve) => (releaseStale = resolve));
    await page.route(staleOutcomes, async (route) => {
      await staleHeld;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Reports', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    await page.locator('#report-months').selectOption('3');
    await page.locator('#report-receivables-table').waitFor();
    const staleAnswered = page.waitForResponse(staleOutcomes);
    releaseStale();
    await staleAnswered;
    // The stale load's other answers came long ago: it would draw within a task of this one.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    await page.unroute(staleOutcomes);
    // Every chart was drawn on its canvas by the library served from the project.
    expect(await page.locator('.report-chart canvas').count()).toBe(7);
    expect(await page.evaluate(() => typeof (window as unknown as { Chart?: unknown }).Chart)).toBe('function');

    expect(await table('report-pipeline-value')).toEqual([
      ['New', '12.5%', '1', '₹0.20', '₹0.025'],
      ['Qualified', '40%', '1', '₹300.00', '₹120.00'],
      ['Proposal', '—', '2', '₹999.99', '—'],
      ['Old step', '—', '0', '—', '—'],
      ['Won', '100%', '2', '₹1,000.50 · $2,500.00', '₹1,000.50 · $2,500.00'],
      ['Lost', '0%', '2', '₹0.10', '₹0.00'],
      ['Rejected', '—', '1', '—', '—'],
    ]);
    expect(await page.locator('#report-pipeline-value .report-note').textContent()).toBe(
      'Sales · forecast ₹1,120.525 · $2,500.00 of ₹2,300.79 · $2,500.00',
    );
    const months = await page.evaluate(() =>
      ['2026-09', '2026-10', '2026-11'].map((m) =>
        new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
          Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5)) - 1, 1),
        ),
      ),
    );
    expect(await table('report-outcomes')).toEqual([
      [months[0], '1', '0'],
      [months[1], '1', '1'],
      [months[2], '0', '2'],
    ]);
    expect(await table('report-lost-reasons')).toEqual([
      ['Price', '2'],
      ['Too late', '1'],
      ['No reason', '1'],
    ]);
    expect(await table('report-conversion')).toEqual([
      ['New', '6', '1', '16.7%'],
      ['Qualified', '5', '2', '40%'],
      ['Proposal', '2', '0', '0%'],
      ['Old step', '0', '0', '—'],
      ['Won', '2', '2', '100%'],
      ['Lost', '2', '0', '0%'],
      ['Rejected', '1', '0', '0%'],
    ]);
    expect((await table('report-stage-days')).slice(0, 3)).toEqual([
      ['New', '6', '2.5'],
      ['Qualified', '4', '9.5'],
      ['Proposal', '0', '—'],
    ]);
    expect(await table('report-invoicing')).toEqual([
      [months[0], '₹1,000.10', '₹400.10'],
      [months[1], '₹250.05', '₹650.05'],
      [months[2], '₹500.20', '—'],
    ]);
    expect(await table('report-receivables')).toEqual([
      ['Not yet due', '₹500.00', '1'],
      ['0–30 days', '₹0.20', '1'],
      ['31–60 days', '₹200.00', '1'],
      ['61–90 days', '₹70.00', '1'],
      ['Over 90 days', '₹99.99', '1'],
    ]);
    expect(await page.locator('#report-receivables .report-note').textContent()).toBe('As of 20 Nov 2026');
    expect(problems).toEqual([]);
  });

  /** Charts redraw to their new box on resize (the library's ResizeObserver): each canvas as wide as its box. */
  const chartsFitTheirBoxes = () =>
    page.waitForFunction(() =>
      [...document.querySelectorAll('.report-chart canvas')].every((canvas) => {
        const box = canvas.parentElement?.getBoundingClientRect().width ?? 0;
        return box > 0 && Math.abs(canvas.getBoundingClientRect().width - box) <= 1;
      }),
    );

  it('fits a 390 px phone without horizontal scrolling; screenshots at 1280 and 390 px', async () => {
    await page.setViewportSize(PHONE);
    await chartsFitTheirBoxes();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    expect(await fitsPhone(page)).toEqual([]);
    await screenshot(page, 'reports-390');
    await page.setViewportSize({ width: 1280, height: DESKTOP.height });
    await chartsFitTheirBoxes();
    await screenshot(page, 'reports-1280');
    expect(problems).toEqual([]);
  });
});
