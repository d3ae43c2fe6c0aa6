import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, launchBrowser, openPage, screenshot, startServer, TEST_ADMIN, type RunningServer } from './helpers-browser.js';

// The API reference page in headless chromium, under the service's real CSP: it renders every
// operation of /openapi.json, and "Try it" sends a real request with the token typed at the top.
describe('API reference page /docs in headless chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders every operation of the document, its errors and examples, with no console error or CSP violation', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    await page.goto(`${server.url}/docs`);
    await page.getByRole('heading', { level: 1, name: 'crmkit API' }).waitFor();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const rendered = await page.locator('.op').evaluateAll((sections) => sections.map((s) => s.id));
    expect(rendered.sort()).toEqual(ids.sort());
    const create = page.locator('#createClient');
    await create.getByText('IDEMPOTENCY_CONFLICT', { exact: false }).first().waitFor();
    expect(await create.locator('summary', { hasText: /^409/ }).count()).toBe(1);
    await screenshot(page, 'docs-01-reference');
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.locator('#createClient').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '.test-artifacts/screenshots/docs-02-create-client.png' });
    expect(problems).toEqual([]);
  });

  it('"Try it" sends a request with the token typed once and shows the answer', async () => {
    const login = await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } });
    await page.getByLabel('Bearer token for “Try it”').fill(login.body.accessToken);
    const list = page.locator('#listBusinesses');
    await list.getByText('Try it').click();
    await list.getByRole('button', { name: 'Send' }).click();
    await list.locator('.try-output').filter({ hasText: '200' }).waitFor();
    expect(await list.locator('.try-output').textContent()).toContain('"success": true');
    expect(problems).toEqual([]);
  });
});
