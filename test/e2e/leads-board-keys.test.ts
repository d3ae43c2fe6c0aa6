import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableStores } from '../helpers/stores.js';
import { launchBrowser, screenshot, startServer, type RunningServer } from './helpers-browser.js';
import { inBatches, logIn, seedListBusiness, type ListBusiness } from './helpers-leads-list.js';

// Issue 39 defect 10: long columns scrolled the page (taking their count and sum out of view), and
// keyboard users had two tab stops per card and no way to jump between columns. Now a column scrolls
// on its own under a sticky head, each card is one tab stop, and the arrow keys move between cards
// (up, down) and columns (left, right); M opens the focused card's Move dialog.
const stores = await availableStores();
const NEW = 14;
/** A short window, so that the New column is longer than it. */
const SHORT = { width: 1280, height: 640 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(stores)('leads board by keyboard (%s)', (storeName) => {
  let server: RunningServer;
  let page: Page;
  let biz: ListBusiness;
  const problems: string[] = [];
  const column = (name: string) => page.getByRole('region', { name, exact: true });
  const cardIds = (col: Locator) =>
    col.locator('.lead-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.leadId));
  /** The lead whose card holds the focus, and the stage of its column. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return {
        lead: (el?.closest('.lead-card') as HTMLElement | null)?.dataset.leadId ?? null,
        stage: (el?.closest('.column') as HTMLElement | null)?.dataset.stage ?? null,
      };
    });
  const press = async (key: string) => {
    await page.keyboard.press(key);
    await page.evaluate(() => new Promise(requestAnimationFrame));
  };

  beforeAll(async () => {
    server = await startServer(storeName);
    page = await browser.newPage({ viewport: SHORT });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    biz = await seedListBusiness(server);
    await inBatches(NEW, (i) => biz.createLead(`key-new-${i}`, 'New', { subject: `New lead ${i}` }));
    for (const i of [0, 1]) await biz.createLead(`key-q-${i}`, 'Qualified', { subject: `Qualified lead ${i}` });
    await biz.createLead('key-lost-0', 'Lost', { subject: 'Lost lead 0', stageReasons: ['Too expensive'] });
    await logIn(page, server, biz.urlKey);
    await page.goto(`${server.url}/#/leads`);
    await column('New')
      .locator('.lead-card')
      .nth(NEW - 1)
      .waitFor();
  }, 90_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('each card is one tab stop: Tab goes from card to card, not to its Move button', async () => {
    const stops = await page
      .locator('.board')
      .evaluate((board) =>
        [...board.querySelectorAll<HTMLElement>('a, button, input, select, [tabindex]')]
          .filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.checkVisibility())
          .map((el) => (el.closest('.lead-card') as HTMLElement | null)?.dataset.leadId ?? el.className),
      );
    const perCard = new Map<string, number>();
    for (const id of stops) perCard.set(id, (perCard.get(id) ?? 0) + 1);
    expect(perCard.size).toBe(NEW + 3);
    expect([...perCard.values()].every((n) => n === 1)).toBe(true);

    const ids = await cardIds(column('New'));
    await column('New').locator('.lead-card').first().locator('a').focus();
    await press('Tab');
    expect(await focused()).toEqual({ lead: ids[1], stage: 'New' });
  });

  it('arrow keys move between the cards of a column and across columns, skipping empty ones', async () => {
    const news = await cardIds(column('New'));
    const qualified = await cardIds(column('Qualified'));
    const lost = await cardIds(column('Lost'));
    await column('New').locator('.lead-card').first().locator('a').focus();
    await press('ArrowDown');
    await press('ArrowDown');
    expect(await focused()).toEqual({ lead: news[2], stage: 'New' });
    await press('ArrowUp');
    expect(await focused()).toEqual({ lead: news[1], stage: 'New' });
    await press('ArrowRight');
    expect(await focused()).toEqual({ lead: qualified[1], stage: 'Qualified' });
    await press('ArrowDown');
    expect(await focused()).toEqual({ lead: qualified[1], stage: 'Qualified' });
    // Won has no card: the next column with one is Lost.
    await press('ArrowRight');
    expect(await focused()).toEqual({ lead: lost[0], stage: 'Lost' });
    await press('ArrowLeft');
    expect(await focused()).toEqual({ lead: qualified[0], stage: 'Qualified' });
    await press('ArrowLeft');
    expect(await focused()).toEqual({ lead: news[0], stage: 'New' });
  });

  it('a long column scrolls on its own to the focused card, its head (count) in view', async () => {
    const news = await cardIds(column('New'));
    await column('New').locator('.lead-card').first().locator('a').focus();
    for (let i = 1; i < NEW; i++) await press('ArrowDown');
    expect(await focused()).toEqual({ lead: news[NEW - 1], stage: 'New' });
    const view = await column('New').evaluate((el) => {
      const head = el.querySelector('.column-head')!.getBoundingClientRect();
      const card = document.activeElement!.closest('.lead-card')!.getBoundingClientRect();
      const topbar = document.querySelector('.topbar')!.getBoundingClientRect().bottom;
      return {
        scrolled: el.scrollTop,
        headTop: head.top - el.getBoundingClientRect().top,
        headInWindow: head.top >= topbar - 1 && head.bottom <= innerHeight,
        cardBelowHead: card.top >= head.bottom - 1,
        cardInWindow: card.bottom <= innerHeight + 1,
        page: scrollY,
        column: el.scrollHeight,
      };
    });
    expect(view.scrolled).toBeGreaterThan(0);
    expect(Math.abs(view.headTop)).toBeLessThanOrEqual(3);
    expect(view.headInWindow).toBe(true);
    expect(view.cardBelowHead).toBe(true);
    expect(view.cardInWindow).toBe(true);
    // The column scrolled most of the way; the page at most what the column reaches below the window.
    expect(view.page).toBeLessThan(view.scrolled);
    expect(await column('New').locator('.column-head .count').textContent()).toBe(String(NEW));
    if (storeName === 'sqlite') await screenshot(page, 'leads-board-keys');
  });

  it("M opens the focused card's Move dialog; Escape brings the focus back to the card", async () => {
    const first = column('Qualified').locator('.lead-card').first();
    await first.locator('a').focus();
    await press('m');
    const chooser = page.getByRole('dialog', { name: 'Move to stage' });
    await chooser.waitFor();
    await press('Escape');
    await chooser.waitFor({ state: 'hidden' });
    expect((await focused()).lead).toBe(await first.getAttribute('data-lead-id'));
  });

  it('ran without script errors', () => {
    expect(problems).toEqual([]);
  });
});
