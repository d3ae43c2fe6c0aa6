import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPublicDir } from '../../src/operator/dashboard/dashboard.routes.js';
import {
  http,
  launchBrowser,
  openPage,
  screenshot,
  startServer,
  TEST_ADMIN,
  type RunningServer,
} from './helpers-browser.js';
import { buildPipelines, EXPECTED_ALL, EXPECTED_LIVE, stripIds } from './helpers-pipelines.js';

// One browser session walks through the dashboard the way an operator would; each step relies on
// the one before (the business, the app and its secret), so the steps run in order in one suite.
describe('operator dashboard in headless chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const urlKey = `e2e-${randomBytes(4).toString('hex')}`;
  const appName = `Storefront ${randomBytes(2).toString('hex')}`;
  let appId = '';
  let appSecret = '';
  let appToken = '';
  const started = Date.now();

  beforeAll(async () => {
    server = await startServer();
    // One clear failure instead of a dozen timeouts when the app factory does not serve the page.
    const page0 = await fetch(`${server.url}/`);
    if (page0.status !== 200)
      throw new Error(
        `GET / answered ${page0.status}: buildApp (src/app.ts) does not register the dashboard (dashboardFeature)`,
      );
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    console.log(`dashboard e2e: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  const appRow = () => page.getByRole('table', { name: 'Apps' }).getByRole('row').filter({ hasText: appName });

  it('serves the page and its assets with the right types, and nothing outside them', async () => {
    const index = await fetch(`${server.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    const types: Record<string, RegExp> = {
      'app.js': /^text\/javascript/,
      'styles.css': /^text\/css/,
      'favicon.svg': /^image\/svg\+xml/,
    };
    for (const [file, type] of Object.entries(types)) {
      const response = await fetch(`${server.url}/assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toMatch(type);
    }
    for (const path of [
      '/assets/missing.js',
      '/assets/../package.json',
      '/assets/%2e%2e/package.json',
      '/assets/..%2fdashboard.routes.ts',
      '/assets/',
    ]) {
      const response = await http(server.url, 'GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body.data.error.code, path).toBe('NOT_FOUND');
    }
  });

  it('finds the page files from the source tree and from the built dist/ tree', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const expected = join(root, 'src', 'operator', 'dashboard', 'public');
    expect(dashboardPublicDir(pathToFileURL(join(root, 'src/operator/dashboard/dashboard.routes.ts')).href)).toBe(
      expected,
    );
    expect(dashboardPublicDir(pathToFileURL(join(root, 'dist/operator/dashboard/dashboard.routes.js')).href)).toBe(
      expected,
    );
  });

  it('refuses a wrong password, then logs in', async () => {
    await page.goto(server.url);
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).waitFor();
    await screenshot(page, '01-login');
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Businesses');
  });

  it('creates a business and switches to it', async () => {
    await page.getByLabel('Business name').fill('Asha Textiles');
    await page.getByLabel('Country', { exact: true }).selectOption('IN');
    await page.getByLabel('URL key (optional)').fill(urlKey);
    await page.getByRole('button', { name: 'Create business' }).click();
    await page.getByRole('cell', { name: urlKey }).waitFor();
    expect(await page.getByLabel('Business', { exact: true }).inputValue()).toBe(urlKey);
    await screenshot(page, '02-businesses');
  });

  it('creates an app, shows its secret and key once, and attaches it', async () => {
    await nav('Apps');
    await heading('Apps');
    await page.getByLabel('New app name').fill(appName);
    await page.getByRole('button', { name: 'Create app' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You will not see this again.').waitFor();
    appId = await dialog.getByLabel('App ID', { exact: true }).inputValue();
    appSecret = await dialog.getByLabel('App secret', { exact: true }).inputValue();
    expect(await dialog.getByLabel('Private key (PEM)', { exact: true }).inputValue()).toContain(
      '-----BEGIN PRIVATE KEY-----',
    );
    expect(await dialog.getByRole('button', { name: 'Copy app secret' }).isVisible()).toBe(true);
    await screenshot(page, '03-app-created');
    await dialog.getByRole('button', { name: 'I have saved it, close' }).click();
    await appRow().getByRole('button', { name: 'Attach' }).click();
    await appRow().getByRole('button', { name: 'Detach' }).waitFor();
    expect(await appRow().textContent()).toContain(urlKey);
    await screenshot(page, '04-apps');
  });

  it('rotates the secret: the new one is shown once and the old one stops working', async () => {
    await appRow().getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'New secret' });
    await dialog.getByText('You will not see this again.').waitFor();
    const rotated = await dialog.getByLabel('App secret', { exact: true }).inputValue();
    await dialog.getByRole('button', { name: 'I have saved it, close' }).click();
    const old = await http(server.url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId, appSecret },
    });
    expect(old.status).toBe(401);
    appSecret = rotated;
    const issued = await http(server.url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId, appSecret },
    });
    expect(issued.status).toBe(200);
    appToken = issued.body.accessToken;
  });

  it('shows a validation error next to the field it names', async () => {
    await nav('Pipelines');
    await heading('Pipelines');
    await page.getByRole('button', { name: '+ Add pipeline' }).click();
    const stage = page
      .getByRole('group', { name: 'Pipeline 1', exact: true })
      .getByRole('group', { name: 'Stage 1', exact: true });
    await stage.getByLabel('Stage name').fill('New lead');
    await stage.getByLabel('Closure %').fill('150');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const closureField = stage.locator('.field').filter({ has: page.getByLabel('Closure %') });
    await closureField.locator('.field-error').waitFor();
    expect(await closureField.locator('.field-error').textContent()).not.toContain('pipelines[0]');
    expect(await stage.getByLabel('Closure %').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('alert').first().waitFor();
    await screenshot(page, '05-pipelines-error');
    await stage.getByLabel('Closure %').fill('');
  });

  it('builds a two-pipeline configuration that apps then read exactly as built', async () => {
    await buildPipelines(page);
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Pipeline configuration saved.').waitFor();
    expect(await page.locator('.save-status').textContent()).toBe('All changes saved');
    await screenshot(page, '06-pipelines');

    const all = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines?includeArchived=true`, {
      token: appToken,
    });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(1);
    expect(stripIds(all.body.data[0])).toEqual(EXPECTED_ALL);
    const live = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines`, { token: appToken });
    expect(stripIds(live.body.data[0])).toEqual(EXPECTED_LIVE);

    // A reload shows what the server stored, with every saved entry now carrying an id.
    await page.reload();
    await heading('Pipelines');
    expect(
      await page.getByRole('group', { name: 'Pipeline 2', exact: true }).getByLabel('Pipeline name').inputValue(),
    ).toBe('Partnerships');
    expect(await page.getByText('Not saved yet').count()).toBe(0);
  });

  it('edits custom fields', async () => {
    await nav('Custom fields');
    await heading('Custom fields');
    await page.getByRole('button', { name: '+ Add field' }).click();
    const first = page.getByRole('group', { name: 'Custom field 1', exact: true });
    await first.getByLabel('Field name').fill('Loyalty tier');
    await first.getByLabel('Type').selectOption('SELECT');
    await first.getByLabel('Options').fill('Gold, Silver');
    await page.getByRole('button', { name: '+ Add field' }).click();
    const second = page.getByRole('group', { name: 'Custom field 2', exact: true });
    await second.getByLabel('Field name').fill('Anniversary');
    await second.getByLabel('Type').selectOption('DATE');
    await page.getByRole('button', { name: '+ Add field' }).click();
    const duplicate = page.getByRole('group', { name: 'Custom field 3', exact: true });
    await duplicate.getByLabel('Field name').fill('LOYALTY TIER');
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    await duplicate.locator('.field-error').waitFor();
    expect(await duplicate.getByLabel('Field name').getAttribute('aria-invalid')).toBe('true');
    await duplicate.getByRole('button', { name: 'Remove field' }).click();
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    await page.getByText('Custom fields saved.').waitFor();
    await screenshot(page, '07-custom-fields');
    const operatorToken = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('crmkit.session') ?? '{}').token as string,
    );
    const stored = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/custom-fields`, {
      token: operatorToken,
    });
    expect(stored.body.data.map((f: any) => [f.name, f.type, f.options ?? null])).toEqual([
      ['Loyalty tier', 'SELECT', ['Gold', 'Silver']],
      ['Anniversary', 'DATE', null],
    ]);
  });

  it('asks before leaving a page with unsaved edits', async () => {
    const first = page.getByRole('group', { name: 'Custom field 1', exact: true });
    await first.getByLabel('Field name').fill('Loyalty level');
    await nav('Clients');
    const leave = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(await first.getByLabel('Field name').inputValue()).toBe('Loyalty level');
    expect(page.url()).toMatch(/#\/custom-fields$/);
    await nav('Clients');
    await leave.getByRole('button', { name: 'Discard changes' }).click();
    await heading('Clients');
  });

  it('looks up a client, shows its record and balance, archives it, and apps then get 404', async () => {
    const clientId = 'CUST/42 ü?';
    const created = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/clients`, {
      token: appToken,
      body: {
        clientId,
        name: 'Meera Handlooms',
        email: 'accounts@meera.example',
        phone: '+91 98200 12345',
        city: 'Jaipur',
      },
    });
    expect(created.status).toBe(201);
    await nav('Clients');
    await heading('Clients');
    await page.getByLabel('Client ID').fill(clientId);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: 'Meera Handlooms' }).waitFor();
    await page.getByText('Status: active').waitFor();
    expect(await page.getByRole('table', { name: 'Balance' }).getByRole('row').count()).toBe(11);
    await page.getByText('Full record (JSON)').click();
    expect(await page.locator('details pre').textContent()).toContain('"clientId": "CUST/42 ü?"');
    await page.getByText('Full record (JSON)').click();
    await screenshot(page, '08-client');
    await page.getByRole('button', { name: 'Archive client' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive client' }).click();
    await page.getByText('Status: archived').waitFor();
    await screenshot(page, '09-client-archived');
    const gone = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/clients/${encodeURIComponent(clientId)}`, {
      token: appToken,
    });
    expect(gone.status).toBe(404);
    expect(gone.body.data.error.code).toBe('CLIENT_NOT_FOUND');
  });

  it('deletes a client', async () => {
    const clientId = `del-${randomBytes(3).toString('hex')}`;
    expect(
      (
        await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/clients`, {
          token: appToken,
          body: { clientId, name: 'Short-lived' },
        })
      ).status,
    ).toBe(201);
    await page.getByLabel('Client ID').fill(clientId);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: 'Short-lived' }).waitFor();
    await page.getByRole('button', { name: 'Delete client' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete client' }).click();
    await page.getByText('Status: deleted').waitFor();
    expect(
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/clients/${clientId}`, { token: appToken })).status,
    ).toBe(404);
  });

  it('detaches the app: its token is refused on the business', async () => {
    await nav('Apps');
    await appRow().getByRole('button', { name: 'Detach' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Detach' }).click();
    await appRow().getByRole('button', { name: 'Attach' }).waitFor();
    const refused = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/pipelines`, { token: appToken });
    expect(refused.status).toBe(403);
  });

  it('sends the operator back to log in when the session is no longer valid', async () => {
    await page.evaluate(
      (email) => sessionStorage.setItem('crmkit.session', JSON.stringify({ token: 'expired.token.value', email })),
      TEST_ADMIN.email,
    );
    await nav('Businesses');
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(TEST_ADMIN.email);
    await screenshot(page, '10-session-expired');
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Businesses');
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
  });
});
