import { randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
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

// The leads side of the dashboard, walked through as an operator would, on each store: lead settings
// (each page's field errors), a pipeline built on the page, leads created through the public API and
// worked on the board (drag and drop, keyboard with reasons), the lead page, the client list, and
// every page at a phone's 390 px. One browser for the file; the steps of a store run in order.
const stores = await availableStores();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 900 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)('leads in the dashboard (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let problems: string[];
  let operator = '';
  let appToken = '';
  const urlKey = `lb-${randomBytes(4).toString('hex')}`;
  const leadIds: Record<string, string> = {};
  const shots = storeName === 'sqlite';

  beforeAll(async () => {
    server = await startServer(storeName);
    ({ page, problems } = await openPage(browser));
    operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } })).body
      .accessToken;
    expect(
      (
        await http(server.url, 'POST', '/admin/v1/businesses', {
          token: operator,
          body: { name: 'Asha Spices', country: 'IN', urlKey },
        })
      ).status,
    ).toBe(201);
    const app = (await http(server.url, 'POST', '/admin/v1/apps', { token: operator, body: { name: `Web ${urlKey}` } }))
      .body.data;
    expect(
      (await http(server.url, 'PUT', `/admin/v1/apps/${app.appId}/businesses/${urlKey}`, { token: operator })).status,
    ).toBe(200);
    appToken = (
      await http(server.url, 'POST', '/authentication', {
        body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
      })
    ).body.accessToken;
  });
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  const tab = (name: string) =>
    page.getByRole('group', { name: 'Lead settings sections' }).getByRole('button', { name, exact: true }).click();
  const group = (scope: Page | Locator, name: string) => scope.getByRole('group', { name, exact: true });
  /** The page at desktop width and at 390 px; at 390 px nothing may stick out sideways. */
  async function both(name: string): Promise<void> {
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    if (shots) await screenshot(page, `${name}`);
    await page.setViewportSize(PHONE);
    // Nothing sticks out sideways: not the page, not a control. The board's columns scroll inside
    // the board (one column and the edge of the next on screen), so controls in it are exempt.
    const outside = await page.evaluate(() => {
      const width = window.innerWidth;
      const out: string[] = [];
      if (document.documentElement.scrollWidth > width)
        out.push(`document is ${document.documentElement.scrollWidth}px wide`);
      for (const el of document.querySelectorAll('button, input, select, textarea, a, code')) {
        const rect = el.getBoundingClientRect();
        if (rect.width === 0 || el.closest('.board')) continue;
        if (rect.left < -1 || rect.right > width + 1)
          out.push(
            `${el.tagName} “${(el.textContent ?? '').trim().slice(0, 30)}” spans ${Math.round(rect.left)}-${Math.round(rect.right)}px`,
          );
      }
      return out;
    });
    expect(outside, name).toEqual([]);
    if (shots) await screenshot(page, `${name}-390`);
    await page.setViewportSize(DESKTOP);
  }
  /** Saves, and expects the error next to the control labelled `label` inside `row`. */
  async function expectFieldError(row: Locator, label: string, save: string): Promise<void> {
    await page.getByRole('button', { name: save }).click();
    const control = row.getByLabel(label, { exact: true });
    await row
      .locator('.field')
      .filter({ has: page.getByLabel(label, { exact: true }) })
      .locator('.field-error')
      .waitFor();
    expect(await control.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('alert').first().waitFor();
  }

  it('logs in and opens the lead settings', async () => {
    await page.goto(server.url);
    await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Businesses');
    await page.getByLabel('Business', { exact: true }).selectOption(urlKey);
    await nav('Lead settings');
    await heading('Lead settings');
    await page.getByRole('group', { name: 'Source 7', exact: true }).waitFor();
  });

  it('lead sources: a duplicate key is shown on its field, then a new source is saved', async () => {
    await page.getByRole('button', { name: '+ Add source' }).click();
    const added = group(page, 'Source 8');
    await added.getByLabel('Label').fill('Trade fair');
    await added.getByLabel('Key').fill('website');
    await expectFieldError(added, 'Key', 'Save sources');
    if (shots) await screenshot(page, '20-lead-sources-error');
    await added.getByLabel('Key').fill('TRADE_FAIR');
    await page.getByRole('button', { name: 'Save sources' }).click();
    await page.getByText('Lead sources saved.').waitFor();
    expect(await group(page, 'Source 8').getByLabel('Key').getAttribute('readonly')).not.toBeNull();
    await both('21-lead-sources');
  });

  it('tags: a name twice is shown on its field, then the tags are saved', async () => {
    await tab('Tags');
    await page.getByText('No tag yet.').waitFor();
    for (const name of ['VIP', 'vip']) {
      await page.getByRole('button', { name: '+ Add tag' }).click();
      await page.locator('.list-row').last().getByLabel('Tag name').fill(name);
    }
    await expectFieldError(group(page, 'Tag 2'), 'Tag name', 'Save tags');
    await group(page, 'Tag 2').getByLabel('Tag name').fill('Export');
    await page.getByRole('button', { name: 'Save tags' }).click();
    await page.getByText('Tags saved.').waitFor();
    await both('22-tags');
  });

  it('members: an address that is not one is shown on its field, then the members are saved', async () => {
    await tab('Members');
    await page.getByRole('button', { name: '+ Add member' }).click();
    await group(page, 'Member 1').getByLabel('Name').fill('Ravi Kumar');
    await group(page, 'Member 1').getByLabel('E-mail').fill('ravi.example.com');
    await expectFieldError(group(page, 'Member 1'), 'E-mail', 'Save members');
    await group(page, 'Member 1').getByLabel('E-mail').fill('ravi@example.com');
    await page.getByRole('button', { name: '+ Add member' }).click();
    await group(page, 'Member 2').getByLabel('Name').fill('Priya Shah');
    await group(page, 'Member 2').getByLabel('E-mail').fill('priya@example.com');
    await page.getByRole('button', { name: 'Save members' }).click();
    await page.getByText('Members saved.').waitFor();
    await both('23-members');
  });

  it('lead custom fields: a choice without options is shown on its field, then saved', async () => {
    await tab('Lead custom fields');
    await page.getByRole('button', { name: 'Enable custom fields' }).click();
    // The shell re-renders with the business re-read: wait for the new page, not the old one.
    await page.getByRole('button', { name: 'Enable custom fields' }).waitFor({ state: 'detached' });
    await page.getByText('No lead custom field yet.').waitFor();
    await page.getByRole('button', { name: '+ Add field' }).click();
    const row = group(page, 'Field 1');
    await row.getByLabel('Field name').fill('Product line');
    await row.getByLabel('Type').selectOption('SELECT');
    await expectFieldError(row, 'Options', 'Save fields');
    await row.getByLabel('Options').fill('Spices, Textiles');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await page.getByText('Lead custom fields saved.').waitFor();
    const stored = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/lead-custom-fields`, {
      token: operator,
    });
    expect(stored.body.data.map((f: any) => [f.name, f.type, f.options])).toEqual([
      ['Product line', 'SELECT', ['Spices', 'Textiles']],
    ]);
    await both('24-lead-custom-fields');
  });

  it('time zone: a name that is no IANA zone is shown on its field, then the zone is saved', async () => {
    await tab('Time zone');
    const zone = page.getByLabel('Time zone (IANA name)');
    expect(await zone.inputValue()).toBe('Asia/Kolkata');
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.locator('.field').filter({ has: zone }).locator('.field-error').waitFor();
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    if (shots) await screenshot(page, '25-time-zone-error');
    await zone.fill('Asia/Dubai');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Time zone saved.').waitFor();
    expect(
      (await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}`, { token: operator })).body.data.timeZone,
    ).toBe('Asia/Dubai');
  });

  it('builds a pipeline on the page: four live stages, reasons on "Lost", one archived stage', async () => {
    await nav('Leads');
    await page.getByRole('link', { name: 'Set up a pipeline' }).click();
    await heading('Pipelines');
    for (const label of ['Too expensive', 'No budget']) {
      await page.getByRole('button', { name: '+ Add reason' }).click();
      await page.locator('.reason-row').last().getByLabel('Label').fill(label);
    }
    await page.getByRole('button', { name: '+ Add pipeline' }).click();
    const sales = group(page, 'Pipeline 1');
    await sales.getByLabel('Pipeline name').fill('Sales');
    const stages: [string, string, string[]][] = [
      ['New lead', 'NEW', []],
      ['Qualified', 'OPEN', []],
      ['Won', 'CLOSED', []],
      ['Lost', 'DROPPED', ['Too expensive', 'No budget']],
      ['Old review', 'OPEN', []],
    ];
    for (const [i, [name, state, reasons]] of stages.entries()) {
      if (i > 0) await sales.getByRole('button', { name: '+ Add stage' }).click();
      const stage = group(sales, `Stage ${i + 1}`);
      await stage.getByLabel('Stage name').fill(name);
      await stage.getByLabel('State', { exact: true }).selectOption(state);
      for (const reason of reasons) await stage.getByRole('checkbox', { name: reason, exact: true }).check();
    }
    await group(sales, 'Stage 5').getByRole('button', { name: 'Archive stage' }).click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Pipeline configuration saved.').waitFor();
  });

  it('shows leads created through the public API on the board, with counts and budget sums', async () => {
    const create = async (externalId: string, body: Record<string, unknown>) => {
      const r = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/leads`, {
        token: appToken,
        body: { externalId, pipeline: 'Sales', stage: 'New lead', contact: { name: 'Buyer' }, ...body },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      leadIds[externalId] = r.body.data.leadId;
    };
    await create('L-1', {
      customer: { name: 'Meera Handlooms' },
      subject: 'Saffron for Diwali',
      budget: { amount: 120000 },
      assignedTo: 'ravi@example.com',
      tags: ['VIP'],
      leadSource: 'TRADE_FAIR',
    });
    await create('L-2', { customer: { name: 'Kiran Stores' }, budget: { amount: 30000 }, tags: ['Export'] });
    await create('L-3', {
      customer: { name: 'Anil Traders' },
      subject: 'Cardamom, 200 kg',
      stage: 'Qualified',
      assignedTo: 'priya@example.com',
      budget: { amount: 5000 },
    });
    // A follow-up date cannot be set in the past: the day passing is simulated in the store.
    await create('L-4', {
      customer: { name: 'Old Mill' },
      subject: 'Chilli samples',
      followUpDate: new Date(Date.now() + 86_400_000 * 3).toISOString().slice(0, 10),
    });
    await server.store.leads.db
      .updateTable('leads')
      .set({ follow_up_date: '2020-01-15' })
      .where('lead_id', '=', leadIds['L-4']!)
      .execute();

    await nav('Leads');
    await heading('Leads');
    const column = (name: string) =>
      page.getByRole('region', { name: 'Leads board' }).getByRole('region', { name, exact: true });
    await column('New lead').getByRole('article', { name: 'Saffron for Diwali' }).waitFor();
    expect(await page.locator('.column-head h2').allTextContents()).toEqual(['New lead', 'Qualified', 'Won', 'Lost']);
    expect(await column('New lead').locator('.count').textContent()).toBe('3');
    expect(await column('New lead').locator('.sum').textContent()).toMatch(/1,?50,000/);
    const saffron = column('New lead').getByRole('article', { name: 'Saffron for Diwali' });
    expect(await saffron.textContent()).toContain('Meera Handlooms');
    expect(await saffron.textContent()).toContain('Ravi Kumar');
    expect(await saffron.textContent()).toContain('VIP');
    expect(await column('New lead').getByRole('article', { name: 'Kiran Stores' }).count()).toBe(1);
    expect(
      await column('New lead').getByRole('article', { name: 'Chilli samples' }).locator('.badge-danger').textContent(),
    ).toContain('Overdue');
    await page.getByLabel('Show archived stages').check();
    await page.locator('.column.is-archived .column-head h2', { hasText: 'Old review' }).waitFor();
    await page.getByLabel('Show archived stages').uncheck();
    await page.locator('.column-head h2', { hasText: 'Old review' }).waitFor({ state: 'detached' });
    await both('26-leads-board');
  });

  it('filters the board by assignee, tag and text', async () => {
    const cards = () => page.locator('.lead-card').allTextContents();
    await page.getByLabel('Assignee', { exact: true }).selectOption('priya@example.com');
    await page.locator('.lead-card').first().waitFor();
    await expect.poll(async () => (await cards()).length, { timeout: 10_000 }).toBe(1);
    expect((await cards())[0]).toContain('Cardamom');
    await page.getByLabel('Assignee', { exact: true }).selectOption('');
    await page.getByLabel('Tag', { exact: true }).selectOption('Export');
    await expect.poll(async () => (await cards()).join('|'), { timeout: 10_000 }).toMatch(/^[^|]*Kiran Stores[^|]*$/);
    await page.getByLabel('Tag', { exact: true }).selectOption('');
    await page.getByLabel('Search').fill('saffron');
    await expect
      .poll(async () => (await cards()).join('|'), { timeout: 10_000 })
      .toMatch(/^[^|]*Saffron for Diwali[^|]*$/);
    await page.getByLabel('Search').fill('');
    await expect.poll(async () => (await cards()).length, { timeout: 10_000 }).toBe(4);
  });

  it('moves a lead by drag and drop', async () => {
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    await column('New lead').getByRole('article', { name: 'Kiran Stores' }).dragTo(column('Qualified'));
    await page.getByText('“Kiran Stores” moved to Qualified.').waitFor();
    await column('Qualified').getByRole('article', { name: 'Kiran Stores' }).waitFor();
    const stored = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${leadIds['L-2']}`, {
      token: appToken,
    });
    expect(stored.body.data).toMatchObject({ stage: 'Qualified', status: 'OPEN' });
  });

  it('moves a lead with the keyboard alone, into a stage that asks for reasons', async () => {
    const move = page.getByRole('button', { name: 'Move Saffron for Diwali' });
    await move.focus();
    await page.keyboard.press('Enter');
    const chooser = page.getByRole('dialog', { name: 'Move to stage' });
    await chooser.waitFor();
    expect(await chooser.getByRole('radio', { name: /New lead/ }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
    expect(await chooser.getByRole('radio', { name: /Lost/ }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const reasons = page.getByRole('dialog', { name: 'Reasons for Lost' });
    await reasons.waitFor();
    if (shots) await screenshot(page, '27-move-reasons');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('“Saffron for Diwali” moved to Lost.').waitFor();
    const stored = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${leadIds['L-1']}`, {
      token: appToken,
    });
    expect(stored.body.data).toMatchObject({
      stage: 'Lost',
      status: 'DROPPED',
      stageReasons: ['Too expensive', 'No budget'],
    });
    // Focus comes back to the moved card's menu, so keyboard work goes on from there.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 10_000 })
      .toBe('Move Saffron for Diwali');
  });

  it('edits a lead on its page and shows the activity entries', async () => {
    await page.getByRole('link', { name: 'Cardamom, 200 kg' }).click();
    await heading('Cardamom, 200 kg');
    await page.getByRole('listitem').filter({ hasText: 'Created' }).first().waitFor();
    await page.getByLabel('Budget amount').fill('-5');
    await page.getByRole('button', { name: 'Save lead' }).click();
    await page
      .locator('.field')
      .filter({ has: page.getByLabel('Budget amount') })
      .locator('.field-error')
      .waitFor();
    await page.getByLabel('Budget amount').fill('7500');
    await page.getByLabel('Subject').fill('Cardamom, 300 kg');
    // A stage that offers reasons lists them as boxes to tick (they were once written out as text:
    // "null[object HTMLLabelElement],[object HTMLLabelElement]").
    await page.getByLabel('Stage', { exact: true }).selectOption('Lost');
    const reasons = page.locator('.lead-form [data-field="stageReasons"]');
    expect(await reasons.getByRole('checkbox').count()).toBe(2);
    expect((await reasons.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Stage reasons Too expensive No budget');
    await page.getByLabel('Stage', { exact: true }).selectOption('Won');
    await page.getByLabel('Product line').selectOption('Spices');
    await page.getByRole('button', { name: 'Save lead' }).click();
    await page.getByText('Lead saved.').waitFor();
    await heading('Cardamom, 300 kg');
    expect(await page.locator('.timeline .activity-stage_change').textContent()).toContain('Qualified → Won');
    await page.getByLabel('Comment or note', { exact: true }).fill('Sent the quote by e-mail.');
    await page.getByLabel('Kind', { exact: true }).selectOption('addInternalNotes');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.timeline').getByText('Sent the quote by e-mail.').waitFor();
    const stored = await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${leadIds['L-3']}`, {
      token: appToken,
    });
    expect(stored.body.data).toMatchObject({
      subject: 'Cardamom, 300 kg',
      stage: 'Won',
      budget: { amount: 7500 },
      customFields: { 'Product line': 'Spices' },
    });
    await both('28-lead-detail');
  });

  it("lists the clients, searches them, and shows a client's leads", async () => {
    await nav('Client list');
    await heading('Client list');
    await page.locator('.client-row').first().waitFor();
    expect(await page.locator('.client-row').count()).toBe(4);
    await page.getByLabel('Search clients').fill('meera');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('.client-row').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Leads of Meera Handlooms' }).click();
    await page
      .getByRole('list', { name: 'Leads of Meera Handlooms' })
      .getByRole('link', { name: 'Saffron for Diwali' })
      .waitFor();
    await both('29-client-list');
    await page.getByLabel('Search clients').fill('nobody-like-this');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No client matches “nobody-like-this”.').waitFor();
  });

  it('removes a lead after a confirmation', async () => {
    await page.goto(`${server.url}/#/leads/${encodeURIComponent(leadIds['L-4']!)}`);
    await heading('Chilli samples');
    await page.getByRole('button', { name: 'Remove lead' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove lead' }).click();
    await heading('Leads');
    expect(
      (await http(server.url, 'GET', `/api/v1/businesses/${urlKey}/leads/${leadIds['L-4']}`, { token: appToken }))
        .status,
    ).toBe(404);
  });

  it('creates a lead on the board: a missing customer is shown on its field, then the lead appears', async () => {
    await page.getByRole('button', { name: '+ New lead' }).click();
    const form = page.getByRole('form', { name: 'New lead in Sales' });
    await form.getByLabel('Subject').fill('Turmeric, trial order');
    await form.getByLabel('Contact name').fill('Sunita');
    await form.getByLabel('Stage').selectOption('Qualified');
    await form.getByLabel('Budget amount (optional)').fill('2500');
    await form.getByLabel('Assigned to').selectOption('ravi@example.com');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await form
      .locator('.field')
      .filter({ has: page.getByLabel('Customer name') })
      .locator('.field-error')
      .waitFor();
    if (shots) await screenshot(page, '30-new-lead-error');
    await form.getByLabel('Customer name').fill('Lakshmi Foods');
    await form.getByRole('button', { name: 'Create lead' }).click();
    await page
      .getByRole('region', { name: 'Qualified', exact: true })
      .getByRole('article', { name: 'Turmeric, trial order' })
      .waitFor();
    const listed = await http(server.url, 'GET', `/admin/v1/businesses/${urlKey}/leads?q=turmeric`, {
      token: operator,
    });
    expect(listed.body.data[0].items).toEqual([
      expect.objectContaining({
        source: 'DASHBOARD',
        stage: 'Qualified',
        assignedTo: 'ravi@example.com',
        budget: { amount: 2500, currency: 'INR' },
      }),
    ]);
    expect(listed.body.data[0].items[0].externalId).toBeUndefined();
  });

  it("draws amounts and dates in the business's locale (en-IN), not the browser's (en-US)", async () => {
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    const followUp = new Date(Date.now() + 86_400_000 * 5).toISOString().slice(0, 10);
    const created = await http(server.url, 'POST', `/api/v1/businesses/${urlKey}/leads`, {
      token: appToken,
      body: {
        externalId: 'L-big',
        pipeline: 'Sales',
        stage: 'New lead',
        customer: { name: 'Meera Handlooms' },
        contact: { name: 'Buyer' },
        subject: 'Saffron, bulk order',
        budget: { amount: 1123000 },
        followUpDate: followUp,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Intl en-IN, as the business writes dates: the follow-up day, and today in the reader's clock.
    const followUpText = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${followUp}T00:00:00Z`),
    );
    const today = await page.evaluate(() =>
      new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' }).format(new Date()),
    );
    expect(today).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);

    await page.reload();
    await heading('Leads');
    const card = page
      .getByRole('region', { name: 'Leads board' })
      .getByRole('region', { name: 'New lead', exact: true })
      .getByRole('article', { name: 'Saffron, bulk order' });
    expect(await card.locator('.card-budget').textContent()).toBe('₹11,23,000.00');
    expect(await card.locator('.card-tags').textContent()).toContain(`Follow up ${followUpText}`);

    await card.getByRole('link', { name: 'Saffron, bulk order' }).click();
    await heading('Saffron, bulk order');
    const subtitle = await page.locator('main .subtitle').textContent();
    expect(subtitle).toContain('₹11,23,000.00');
    expect(subtitle).toContain(`Follow up ${followUpText}`);
    expect(await page.locator('main p.muted.small-text').first().textContent()).toContain(`created ${today}, `);
    // The follow-up field keeps the browser's picker (drawn in en-US) and writes the day under it in en-IN.
    await expect.poll(() => page.locator('[data-date-echo="followUpDate"]').textContent()).toBe(followUpText);
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(problems.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
  });
});
