import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSession, http, screenshot, SCREENSHOT_DIR, TEST_ADMIN } from './helpers-browser.js';
import { DESKTOP, fitsPhone, PHONE } from './helpers-layout.js';

// The API reference page in headless chromium, under the service's real CSP: it renders every
// operation of /openapi.json, and "Try it" sends a real request with the token typed at the top.
// Every step here waits on a page that draws a 1.1 MB document: each relayout of it (a resize, a long
// answer shown) took 3-8 s on an idle machine and over 10 s on a loaded CI line, where three different
// steps timed out at the browser helper's 10 s in turn. So the page's waits and the tests' own are set for
// the file, not one call at a time.
describe('API reference page /docs in headless chromium', { timeout: 120_000 }, () => {
  const s = browserSession();
  beforeAll(() => s.page.setDefaultTimeout(60_000));

  it('renders every operation of the document, its errors and examples, with no console error or CSP violation', async () => {
    const doc = (await http(s.server.url, 'GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    await s.page.goto(`${s.server.url}/docs`);
    await s.page.getByRole('heading', { level: 1, name: 'crmkit API' }).waitFor();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const rendered = await s.page.locator('.op').evaluateAll((sections) => sections.map((s) => s.id));
    expect(rendered.sort()).toEqual(ids.sort());
    const create = s.page.locator('#createClient');
    await create.getByText('IDEMPOTENCY_CONFLICT', { exact: false }).first().waitFor();
    expect(await create.locator('summary', { hasText: /^409/ }).count()).toBe(1);
    await screenshot(s.page, 'docs-01-reference');
    await s.page.setViewportSize({ width: 1360, height: 900 });
    await s.page.locator('#createClient').scrollIntoViewIfNeeded();
    await s.page.screenshot({ path: '.test-artifacts/screenshots/docs-02-create-client.png' });
    expect(s.problems).toEqual([]);
  });

  it('"Try it" sends a request with the token typed once and shows the answer', async () => {
    const login = await http(s.server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } });
    await s.page.getByLabel('Bearer token for “Try it”').fill(login.body.accessToken);
    const list = s.page.locator('#listBusinesses');
    await list.getByText('Try it').click();
    await list.getByRole('button', { name: 'Send' }).click();
    await list.locator('.try-output').filter({ hasText: '200' }).waitFor();
    expect(await list.locator('.try-output').textContent()).toContain('"success": true');
    expect(s.problems).toEqual([]);
  });

  it('10: a sign-in answered by "Try it" offers its token for the Bearer field; a long answer does not widen the page', async () => {
    await s.page.getByLabel('Bearer token for “Try it”').fill('');
    const auth = s.page.locator('#authenticate');
    await auth.getByText('Try it').click();
    await auth.getByLabel('Request body (JSON)').fill(JSON.stringify({ strategy: 'local', ...TEST_ADMIN }));
    await auth.getByRole('button', { name: 'Send' }).click();
    await auth.locator('.try-output').filter({ hasText: '200' }).waitFor();
    await auth.getByRole('button', { name: 'Use this token for “Try it”' }).click();
    const token = JSON.parse((await auth.locator('.try-output').textContent())!.split('\n\n')[1]!).accessToken;
    expect(await s.page.getByLabel('Bearer token for “Try it”').inputValue()).toBe(token);
    const list = s.page.locator('#listBusinesses');
    await list.getByRole('button', { name: 'Send' }).click();
    await list.locator('.try-output').filter({ hasText: /^200/ }).waitFor();
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('10: an empty path value is refused in the form instead of being sent as "//"', async () => {
    const get = s.page.locator('#getBusiness');
    await get.getByText('Try it').click();
    const sent: string[] = [];
    s.page.on('request', (request) => {
      if (request.url().includes('/admin/v1/businesses/')) sent.push(request.url());
    });
    await get.getByRole('button', { name: 'Send' }).click();
    await get.locator('.try-output').filter({ hasText: 'Not sent: fill in urlKey, part of the path.' }).waitFor();
    expect(await get.locator('input[name="urlKey"]').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('10: operations answered 405 are listed apart and marked; the text quotes no internal section numbers', async () => {
    const clientsNav = s.page.locator('.nav-group').filter({ hasText: 'Clients' }).first();
    const items = await clientsNav
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => [li.className, li.textContent ?? '']));
    const refused = items.filter(([cls]) => cls === 'nav-refused');
    expect(refused.length).toBeGreaterThan(0);
    for (const [, text] of refused) expect(text).toContain('not supported, 405');
    // Real operations first, refused ones after.
    expect(items.findIndex(([cls]) => cls === 'nav-refused')).toBe(items.length - refused.length);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(), the text as rendered, not the DOM property.
    const text = await s.page.locator('main').innerText();
    expect(text).not.toMatch(
      /service-interface|operator-interface|leads-interface|[Ss]ection \d|\(\d\.\d|see \d\.\d|decisions\.md/,
    );
  });

  it('the operations list keeps, as one types in its filter, the entries holding every word (method, path, summary, id)', async () => {
    const visible = () =>
      s.page
        .locator('#nav li')
        .evaluateAll((lis) => lis.filter((li) => li.checkVisibility()).map((li) => li.querySelector('a')!.hash));
    const all = await visible();
    expect(all.length).toBeGreaterThan(100);
    const filter = s.page.getByLabel('Filter operations');
    await filter.fill('Create CLIENT');
    const found = await visible();
    expect(found).toContain('#createClient');
    expect(found.length).toBeLessThan(5);
    expect(await s.page.locator('.nav-count').textContent()).toBe(`${found.length} of ${all.length} operations`);
    // A tag with no entry left goes too.
    expect(await s.page.locator('.nav-group').filter({ hasText: 'Pipelines' }).first().isVisible()).toBe(false);
    await filter.fill('zz-none');
    expect(await visible()).toEqual([]);
    await filter.fill('');
    expect(await visible()).toEqual(all);
    expect(s.problems).toEqual([]);
  });

  it('3: the reference fits a 390 px screen and opens there on the introduction; an operation picked from the folded list is not under the header', async () => {
    // Viewport shots, and one resize each way: the reference is long and every relayout of it costs.
    await s.page.evaluate(() => window.scrollTo(0, 0));
    await s.page.screenshot({ path: join(SCREENSHOT_DIR, 'docs-desktop.png') });
    const fold = s.page.locator('#nav-fold');
    expect(await fold.evaluate((el: HTMLDetailsElement) => el.open)).toBe(true);
    await s.page.setViewportSize(PHONE);
    // The ~200 operation links fold behind "Operations": the introduction starts on the first screen.
    expect(await fold.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
    const introTop = await s.page
      .getByRole('heading', { level: 1, name: 'crmkit API' })
      .evaluate((h) => h.getBoundingClientRect().top);
    expect(introTop).toBeLessThan(PHONE.height / 2);
    await s.page.screenshot({ path: join(SCREENSHOT_DIR, 'docs-phone.png') });
    await fold.locator('summary').click();
    expect(await fitsPhone(s.page)).toEqual([]);
    await s.page.locator('#nav a[href="#createClient"]').click();
    await s.page.waitForFunction(() => location.hash === '#createClient');
    expect(await fold.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
    const [headingTop, headerBottom] = await s.page.evaluate(() => [
      document.querySelector('#createClient h3')!.getBoundingClientRect().top,
      document.querySelector('.top')!.getBoundingClientRect().bottom,
    ]);
    expect(headingTop).toBeGreaterThanOrEqual(headerBottom!);
    expect(headingTop).toBeLessThan(PHONE.height / 2);
    await s.page.setViewportSize(DESKTOP);
    expect(await fold.evaluate((el: HTMLDetailsElement) => el.open)).toBe(true);
    expect(s.problems).toEqual([]);
  }, 90_000);
});
