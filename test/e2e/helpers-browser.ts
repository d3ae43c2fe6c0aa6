import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/deps.js';
import { OperatorsService } from '../../src/operator/operators.service.js';
import { openStore, type Store } from '../../src/storage/store.js';
import type { Config } from '../../src/config.js';
import {
  configFor,
  privatePostgresDatabase,
  TEST_ADMIN,
  type PrivateDatabase,
  type StoreName,
} from '../helpers/stores.js';
import { withMigratedSqlite } from '../helpers/sqlite-template.js';

export { TEST_ADMIN };

export const SCREENSHOT_DIR = '.test-artifacts/screenshots';
export const CHROMIUM = '/usr/bin/chromium';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

/** The real app, in this process, on a random port, over a fresh SQLite data dir (or the test PostgreSQL database). */
export async function startServer(
  storeName: StoreName = 'sqlite',
  overrides: Partial<Config> = {},
): Promise<RunningServer> {
  const config = configFor(storeName, overrides);
  // On the embedded store, from a copy of the run's migrated one: the migrations have their own tests.
  if (storeName === 'sqlite' && overrides.dataDir === undefined) withMigratedSqlite(config.dataDir);
  const store = openStore(config);
  await store.migrate();
  await new OperatorsService(store, systemClock.now, config.passwordHashCost).ensureFirstOperator(
    config.adminEmail,
    config.adminPassword,
  );
  const app = await buildApp({ config, store, clock: systemClock });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    app,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** Debian's chromium, headless, with nothing phoning home; never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects what the page reports as broken: console errors (CSP violations land here) and uncaught exceptions. */
export function watchPageErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/**
 * A page at the size the screenshots are taken at, and the list its breakage is collected in. The browser
 * speaks en-US, whatever the machine's language: a figure drawn in the browser's locale instead of the
 * business's (an Indian business's ₹11,23,000.00) then shows as ₹1,123,000.00 and fails its test.
 */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 }, locale: 'en-US' });
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPageErrors(page) };
}

/**
 * The whole page in one image: the viewport grows to the content height for the shot, so the
 * sticky header and the fixed save bar sit at the edges instead of over the middle of the page.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1360, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 6000) });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  if (height > viewport.height) await page.setViewportSize(viewport);
}

/** JSON over fetch against the running server. */
export async function http(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, body };
}

export interface BrowserSession {
  server: RunningServer;
  browser: Browser;
  page: Page;
  problems: string[];
}

/**
 * One server, one browser and one page for a whole e2e file: starts them before its tests, closes them
 * after. On PostgreSQL the server gets a database of its own, so that pages listing everything (apps,
 * the audit log) show only what the file made, as on a fresh embedded store.
 */
export function browserSession(storeName: StoreName = 'sqlite', overrides: Partial<Config> = {}): BrowserSession {
  const session = {} as BrowserSession;
  let own: PrivateDatabase | undefined;
  beforeAll(async () => {
    if (storeName === 'postgres') own = await privatePostgresDatabase('crmkit_e2e');
    session.server = await startServer(storeName, { ...overrides, ...(own && { databaseUrl: own.url }) });
    session.browser = await launchBrowser();
    Object.assign(session, await openPage(session.browser));
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.server?.close();
    await own?.drop();
  });
  return session;
}
