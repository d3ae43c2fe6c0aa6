import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore } from '../../src/storage/store.js';
import { withMigratedSqlite } from '../helpers/sqlite-template.js';
import { configFor } from '../helpers/stores.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { http, launchBrowser, openPage, screenshot, TEST_ADMIN, type RunningServer } from './helpers-browser.js';

/** The real app on a random port, allowed to deliver to the test's local receiver. */
async function startServer(): Promise<RunningServer> {
  const config = configFor('sqlite', {
    webhooksDeliver: true,
    webhooksAllowPrivate: true,
    webhooksPollMs: 50,
    webhooksRetryBaseMs: 50,
  });
  withMigratedSqlite(config.dataDir);
  const store = openStore(config);
  await store.migrate();
  await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  const app = await buildApp({ config, store, clock: systemClock });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

describe('dashboard: webhooks view in headless chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const receiver = new WebhookReceiver();
  const urlKey = `e2e-hooks-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    await receiver.start();
    server = await startServer();
    const operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
      .body.accessToken;
    await http(server.url, 'POST', '/admin/v1/businesses', {
      token: operator,
      body: { name: 'Hooked Traders', country: 'IN', urlKey },
    });
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver.stop();
  });

  it('adds an endpoint (secret shown once), sends a test event that verifies, shows the log, disables it', async () => {
    await page.goto(`${server.url}/#/webhooks`);
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Webhooks', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();

    await page.getByLabel('URL', { exact: true }).fill(receiver.url);
    await page.getByLabel('Description').fill('Our ERP');
    for (const type of ['client.created', 'lead.stage_changed'])
      await page.getByRole('checkbox', { name: type }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets = [secret];
    await screenshot(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'I have saved it, close' }).click();

    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    await row.getByText('Enabled').waitFor();
    await row.getByRole('button', { name: 'Send test event' }).click();
    const got = await receiver.until((r) => r.length > 0);
    expect(got[0]).toMatchObject({ type: 'webhook.test', verifiedWith: [secret] });

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('webhook.test').waitFor();
    expect(await log.getByRole('row').nth(1).locator('td[data-label="Status"]').textContent()).toBe('204');
    await screenshot(page, 'webhooks-log');

    await row.getByRole('button', { name: 'Disable' }).click();
    await page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url })
      .getByText('Disabled')
      .waitFor();
    expect(problems).toEqual([]);
  }, 60_000);
});
