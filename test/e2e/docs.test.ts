import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, launchBrowser, openPage, screenshot, startServer, TEST_ADMIN, type RunningServer } from './helpers-browser.js';
import { fitsPhone, shootBoth } from './helpers-layout.js';

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

  it('10: a sign-in answered by "Try it" offers its token for the Bearer field; a long answer does not widen the page', async () => {
    await page.getByLabel('Bearer token for “Try it”').fill('');
    const auth = page.locator('#authenticate');
    await auth.getByText('Try it').click();
    await auth.getByLabel('Request body (JSON)').fill(JSON.stringify({ strategy: 'local', ...TEST_ADMIN }));
    await auth.getByRole('button', { name: 'Send' }).click();
    await auth.locator('.try-output').filter({ hasText: '200' }).waitFor();
    await auth.getByRole('button', { name: 'Use this token for “Try it”' }).click();
    const token = JSON.parse((await auth.locator('.try-output').textContent())!.split('\n\n')[1]!).accessToken;
    expect(await page.getByLabel('Bearer token for “Try it”').inputValue()).toBe(token);
    const list = page.locator('#listBusinesses');
    await list.getByRole('button', { name: 'Send' }).click();
    await list.locator('.try-output').filter({ hasText: /^200/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('10: an empty path value is refused in the form instead of being sent as "//"', async () => {
    const get = page.locator('#getBusiness');
    await get.getByText('Try it').click();
    const sent: string[] = [];
    page.on('request', (request) => { if (request.url().includes('/admin/v1/businesses/')) sent.push(request.url()); });
    await get.getByRole('button', { name: 'Send' }).click();
    await get.locator('.try-output').filter({ hasText: 'Not sent: fill in urlKey, part of the path.' }).waitFor();
    expect(await get.locator('input[name="urlKey"]').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('10: operations answered 405 are listed apart and marked; the text quotes no internal section numbers', async () => {
    const clientsNav = page.locator('.nav-group').filter({ hasText: 'Clients' }).first();
    const items = await clientsNav.locator('li').evaluateAll((lis) => lis.map((li) => [li.className, li.textContent ?? '']));
    const refused = items.filter(([cls]) => cls === 'nav-refused');
    expect(refused.length).toBeGreaterThan(0);
    for (const [, text] of refused) expect(text).toContain('not supported, 405');
    // Real operations first, refused ones after.
    expect(items.findIndex(([cls]) => cls === 'nav-refused')).toBe(items.length - refused.length);
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/service-interface|operator-interface|[Ss]ection \d|\(\d\.\d|see \d\.\d|decisions\.md/);
  });

  it('3: the reference fits a 390 px screen; desktop and phone screenshots', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fitsPhone(page)).toEqual([]);
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.locator('#tag-clients').scrollIntoViewIfNeeded();
    await shootBoth(page, 'docs');
    expect(problems).toEqual([]);
  });
});
