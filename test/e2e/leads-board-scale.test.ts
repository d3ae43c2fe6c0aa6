import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import {
  http,
  launchBrowser,
  openPage,
  screenshot,
  startServer,
  TEST_ADMIN,
  type RunningServer,
} from './helpers-browser.js';
import { openMenu } from './helpers-layout.js';

// Issue 39: the leads board at a real team's scale, on each store. A stage of 300 leads is reachable
// card by card ("Load more"), its count and value are the API's (the value an exact sum of what was
// sent), the column scrolls on its own under a sticky head, a move shows as pending until the server
// answers and goes back with a message when it fails, and the pages touched fit 390 px.
const stores = await availableStores();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const WON = 300;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The independent reference: decimal strings summed as BigInt ten-thousandths, back to a decimal string. */
function exactSum(amounts: string[]): string {
  const units = amounts.reduce((sum, text) => {
    const [w, f = ''] = text.split('.');
    return sum + BigInt(w!) * 10000n + BigInt(`${f}0000`.slice(0, 4));
  }, 0n);
  const fraction = (units % 10000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${units / 10000n}${fraction ? `.${fraction}` : ''}`;
}

describe.each(stores)('the leads board at scale (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let problems: string[];
  let operator = '';
  let appToken = '';
  const urlKey = `bs-${randomBytes(4).toString('hex')}`;
  const wonIds: string[] = [];
  const wonAmounts: string[] = [];
  const ids: Record<string, string> = {};
  const shots = storeName === 'sqlite';

  const column = (name: string) =>
    page.getByRole('region', { name: 'Leads board' }).getByRole('region', { name, exact: true });
  const documentWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  /** What reaches past the window's right edge (the deepest elements), to name in a failure. */
  const sticksOut = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > innerWidth + 1 &&
            ![...el.children].some((child) => child.getBoundingClientRect().right > innerWidth + 1),
        )
        .slice(0, 5)
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
    );
  /** At 1280 and at 390 px the document is no wider than the window; a screenshot of each when on SQLite. */
  async function fits(name: string): Promise<void> {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.evaluate(() => {
        scrollTo(0, 0);
        return new Promise(requestAnimationFrame);
      });
      expect(
        await documentWidth(),
        `${name} at ${size.width} px: ${(await sticksOut()).join(', ')}`,
      ).toBeLessThanOrEqual(size.width);
      if (shots) await screenshot(page, `${name}-${size.width}`);
    }
    await page.setViewportSize(DESKTOP);
  }

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    void openPage;
    operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
      .accessToken;
    expect(
      (
        await http(server.url, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: 'Scale Traders', country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const pipelines = await http(server.url, 'PUT', `/admin/v1/businesses/${urlKey}/pipelines`, {
      token: operator,
      body: {
        pipelines: [
          {
            name: 'Sales',
            isPrimary: true,
            stages: [
              { name: 'New', state: 'NEW' },
              { name: 'Qualified', state: 'OPEN' },
              { name: 'Won', state: 'CLOSED' },
              { name: 'Lost', state: 'DROPPED', reasons: ['price'] },
            ],
          },
        ],
        stageReasons: [{ key: 'price', label: 'Too expensive' }],
      },
    });
    expect(pipelines.status, JSON.stringify(pipelines.body)).toBe(200);
    const app = (await http(server.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: `Web ${urlKey}` } }))
      .body.data;
    await http(server.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator });
    appToken = (
      await http(server.url, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
    const create = async (externalId: string, stage: string, body: Record<string, unknown>) => {
      const r = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/leads`, {
        token: appToken,
        body: {
          externalId,
          pipeline: 'Sales',
          stage,
          customer: { name: `Customer ${externalId}` },
          contact: { name: 'Buyer' },
          ...body,
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.leadId as string;
    };
    // Amounts with decimals whose float sum drifts: the column must show the exact one.
    for (let start = 0; start < WON; start += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, WON - start) }, async (_, j) => {
          const i = start + j;
          const amount = `${1000 + i * 37}.${String(i % 100).padStart(2, '0')}`;
          const leadId = await create(`W-${i}`, 'Won', { subject: `Order ${i}`, budget: { amount: Number(amount) } });
          wonIds.push(leadId);
          wonAmounts.push(String(Number(amount)));
        }),
      );
    }
    ids.slow = await create('N-1', 'New', { subject: 'Slow network lead', budget: { amount: 100 } });
    ids.gone = await create('N-2', 'New', { subject: 'Removed meanwhile' });
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('opens the board', async () => {
    await page.goto(server.url);
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Businesses' }).waitFor();
    await page.getByLabel('Business', { exact: true }).selectOption(urlKey);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leads', exact: true }).click();
    await column('Won').locator('.lead-card').first().waitFor();
  });

  it("shows the whole stage's count and value, equal to the API's and to an exact sum of the budgets", async () => {
    const totals = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/lead-stage-totals?pipeline=Sales`, {
      token: operator,
    });
    const won = totals.body.data[0].stages.find((s: any) => s.name === 'Won');
    expect(won).toMatchObject({ count: WON, budgets: [{ currency: 'INR', amount: exactSum(wonAmounts) }] });
    const list = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/leads?pipeline=Sales&stage=Won`, {
      token: operator,
    });
    expect(list.body.data[0].total).toBe(WON);
    expect(await column('Won').locator('.column-head .count').textContent()).toBe(String(WON));
    const expected = await page.evaluate(
      (amount) =>
        new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', currencyDisplay: 'narrowSymbol' }).format(
          amount as never,
        ),
      won.budgets[0].amount,
    );
    expect(await column('Won').locator('.column-head .sum').textContent()).toBe(` · ${expected}`);
  });

  it('reaches every lead of a 300-lead stage, in a column that scrolls on its own under a sticky head', async () => {
    const won = column('Won');
    expect(await won.locator('.lead-card').count()).toBe(50);
    expect(await won.locator('.column-shown').textContent()).toBe(`50 of ${WON} shown`);
    const more = won.getByRole('button', { name: 'Load more' });
    while (await more.isVisible()) {
      const before = await won.locator('.lead-card').count();
      await more.click();
      await expect.poll(() => won.locator('.lead-card').count()).toBeGreaterThan(before);
    }
    const shown = await won
      .locator('.lead-card')
      .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.leadId));
    expect(shown.length).toBe(WON);
    expect(new Set(shown)).toEqual(new Set(wonIds));
    // The column scrolls, not the page: the page stays about one screen tall.
    const sizes = await won.evaluate((el) => ({
      scroll: el.scrollHeight,
      client: el.clientHeight,
      page: document.documentElement.scrollHeight,
      window: innerHeight,
    }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client * 5);
    expect(sizes.page).toBeLessThan(sizes.window * 1.6);
    await won.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const head = await won.evaluate(
      (el) => el.querySelector('.column-head')!.getBoundingClientRect().top - el.getBoundingClientRect().top,
    );
    expect(Math.abs(head)).toBeLessThanOrEqual(3);
    expect(await won.locator('.column-head .count').isVisible()).toBe(true);
    if (shots) await screenshot(page, '39-board-won-scrolled-1280');
    await won.evaluate((el) => {
      el.scrollTop = 0;
    });
    await fits('39-leads-board');
  });

  it('shows a move as pending until the server answers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/admin/v1/businesses/*/leads/*', async (route) => {
      if (route.request().method() === 'PATCH') await gate;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Move Slow network lead' }).click();
    const chooser = page.getByRole('dialog', { name: 'Move to stage' });
    await chooser.getByRole('radio', { name: /Qualified/ }).check();
    await chooser.getByRole('button', { name: 'Move', exact: true }).click();
    const card = column('Qualified').getByRole('article', { name: 'Slow network lead' });
    await card.locator('.card-pending').waitFor();
    expect(await card.getAttribute('aria-busy')).toBe('true');
    expect(await card.getByRole('button', { name: 'Move Slow network lead' }).isDisabled()).toBe(true);
    expect(await card.locator('.card-pending').textContent()).toBe('Moving to Qualified…');
    if (shots) await screenshot(page, '39-move-pending-1280');
    release();
    await page.getByText('“Slow network lead” moved to Qualified.').waitFor();
    await column('Qualified')
      .getByRole('article', { name: 'Slow network lead' })
      .locator('.card-pending')
      .waitFor({ state: 'detached' });
    expect(await column('Qualified').getByRole('button', { name: 'Move Slow network lead' }).isEnabled()).toBe(true);
    await page.unroute('**/admin/v1/businesses/*/leads/*');
    const stored = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${ids.slow}`, { token: appToken });
    expect(stored.body.data.stage).toBe('Qualified');
  });

  it('puts a card whose move fails back where it was, with the reason', async () => {
    expect(
      (await http(server.url, 'DELETE', `/admin/v1/businesses/${urlKey}/leads/${ids.gone}`, { token: operator }))
        .status,
    ).toBe(200);
    await page.getByRole('button', { name: 'Move Removed meanwhile' }).click();
    const chooser = page.getByRole('dialog', { name: 'Move to stage' });
    await chooser.getByRole('radio', { name: /Won/ }).check();
    await chooser.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: '“Removed meanwhile” was not moved' }).waitFor();
    const card = column('New').getByRole('article', { name: 'Removed meanwhile' });
    await card.waitFor();
    expect(await card.locator('.card-pending').count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Move Removed meanwhile' }).isEnabled()).toBe(true);
    expect(await column('Won').getByRole('article', { name: 'Removed meanwhile' }).count()).toBe(0);
  });

  it('a stage set to require a reason refuses a move without one, in the dialog and through the API', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Pipelines', exact: true })
      .click();
    const lost = page
      .getByRole('group', { name: 'Pipeline 1', exact: true })
      .getByRole('group', { name: 'Stage 4', exact: true });
    await lost.getByLabel('Require at least one reason for leads in this stage').check();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Pipeline configuration saved.').waitFor();
    await fits('39-pipelines');
    const stored = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/pipelines`, { token: operator });
    expect(stored.body.data[0].pipelines[0].stages.map((s: any) => s.requiresReason)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    const refused = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/leads`, {
      token: appToken,
      body: {
        externalId: 'R-1',
        pipeline: 'Sales',
        stage: 'Lost',
        customer: { name: 'No reason Ltd' },
        contact: { name: 'Buyer' },
      },
    });
    expect([refused.status, refused.body.data.error.code, refused.body.data.error.errors[0].field]).toEqual([
      400,
      'STAGE_REASON_REQUIRED',
      'stageReasons',
    ]);

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByRole('button', { name: 'Move Slow network lead' }).click();
    const chooser = page.getByRole('dialog', { name: 'Move to stage' });
    await chooser.getByRole('radio', { name: /Lost/ }).check();
    await chooser.getByRole('button', { name: 'Move', exact: true }).click();
    const reasons = page.getByRole('dialog', { name: 'Reasons for Lost' });
    await reasons.getByRole('button', { name: 'Move with these reasons' }).click();
    const message = reasons.getByRole('group', { name: 'Reasons (at least one)' }).locator('.field-error');
    await message.waitFor();
    expect(await message.textContent()).toBe('“Lost” needs at least one reason: choose the reasons that apply.');
    if (shots) await screenshot(page, '39-required-reason-1280');
    expect(
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${ids.slow}`, { token: appToken })).body.data
        .stage,
    ).toBe('Qualified');
    await reasons.getByRole('checkbox', { name: 'Too expensive' }).check();
    await reasons.getByRole('button', { name: 'Move with these reasons' }).click();
    await page.getByText('“Slow network lead” moved to Lost.').waitFor();
    const moved = (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${ids.slow}`, { token: appToken }))
      .body.data;
    expect([moved.stage, moved.stageReasons]).toEqual(['Lost', ['Too expensive']]);

    // The lead's page: the server's refusal is shown beside the stage reasons.
    await page.goto(`${server.url}/#/leads/${encodeURIComponent(wonIds[0]!)}`);
    await page.getByRole('button', { name: 'Save lead' }).waitFor();
    await page.getByLabel('Stage', { exact: true }).selectOption('Lost');
    await page.getByRole('button', { name: 'Save lead' }).click();
    await page.locator('[data-field="stageReasons"] .field-error').waitFor();
    expect(await page.locator('[data-field="stageReasons"] .field-error').textContent()).toContain(
      'requires at least one reason',
    );
    expect(
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${wonIds[0]}`, { token: appToken })).body.data
        .stage,
    ).toBe('Won');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leads', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Discard unsaved changes?' })
      .getByRole('button', { name: 'Discard changes' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
  });

  it('the webhooks page fits 390 and 1280 px, endpoints and their actions included', async () => {
    for (const n of [1, 2]) {
      const r = await http(server.url, 'POST', `/admin/v1/businesses/${urlKey}/webhooks`, {
        token: operator,
        body: {
          url: `https://erp-${n}.example.com/crmkit/incoming/events/with/a/rather/long/path/${'x'.repeat(40)}`,
          description: 'Our ERP',
          eventTypes: ['client.created', 'lead.created', 'lead.updated', 'lead.stage_changed'],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Webhooks', exact: true })
      .click();
    await page.getByRole('table', { name: 'Webhook endpoints' }).waitFor();
    await page.getByRole('button', { name: 'Delivery log' }).first().click();
    await page
      .getByText(/No delivery attempt yet|Delivery log:/)
      .first()
      .waitFor();
    await fits('39-webhooks');
    await page.setViewportSize(PHONE);
    await openMenu(page);
    for (const name of ['Log out', 'Send test event']) {
      const box = (await page.getByRole('button', { name }).first().boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(PHONE.width);
    }
    await page.setViewportSize(DESKTOP);
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems).toEqual([]);
  });
});
