import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { http, screenshot, TEST_ADMIN, type RunningServer } from './helpers-browser.js';

/** What the list-view e2e files share: a business with a pipeline and an app, logged in as its operator. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export interface ListBusiness {
  urlKey: string;
  operator: string;
  appToken: string;
  /** Creates a lead through the public API; resolves its leadId. */
  createLead(externalId: string, stage: string, body?: Record<string, unknown>): Promise<string>;
}

export async function seedListBusiness(server: RunningServer): Promise<ListBusiness> {
  const urlKey = `ll-${randomBytes(4).toString('hex')}`;
  const operator = (await http(server.url, 'POST', '/authentication', { body: { strategy: 'local', ...TEST_ADMIN } }))
    .body.accessToken;
  const created = await http(server.url, 'POST', '/admin/v1/businesses', {
    token: operator,
    body: { name: 'List Traders', country: 'IN', urlKey },
  });
  expect(created.status).toBe(201);
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
            { name: 'Lost', state: 'DROPPED', reasons: ['price'], requiresReason: true },
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
  const appToken = (
    await http(server.url, 'POST', '/authentication', {
      body: { strategy: 'app-secret', appId: app.appId, appSecret: app.appSecret },
    })
  ).body.accessToken;
  const createLead = async (externalId: string, stage: string, body: Record<string, unknown> = {}) => {
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
  return { urlKey, operator, appToken, createLead };
}

/** Runs `make(i)` for 0 ≤ i < count, 25 at a time; resolves the results in order. */
export async function inBatches<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += 25)
    out.push(...(await Promise.all(Array.from({ length: Math.min(25, count - start) }, (_, j) => make(start + j)))));
  return out;
}

export async function logIn(page: Page, server: RunningServer, urlKey: string): Promise<void> {
  await page.goto(server.url);
  await page.getByLabel('E-mail').fill(TEST_ADMIN.email);
  await page.getByLabel('Password').fill(TEST_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Businesses' }).waitFor();
  // Below 640 px the business switcher is in the folded menu.
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.getByLabel('Business', { exact: true }).selectOption(urlKey);
}

/** At 1280 and 390 px the document is no wider than the window; a screenshot of each when `shots`. */
export async function fits(page: Page, name: string, shots: boolean): Promise<void> {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.evaluate(() => {
      scrollTo(0, 0);
      return new Promise(requestAnimationFrame);
    });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
        .slice(-5)
        .map((el) => `${el.tagName}.${el.className}`),
    );
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} at ${size.width} px: ${wide.join(', ')}`).toBeLessThanOrEqual(size.width);
    if (shots) await screenshot(page, `${name}-${size.width}`);
  }
  await page.setViewportSize(DESKTOP);
}
