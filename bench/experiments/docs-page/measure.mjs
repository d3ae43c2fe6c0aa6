// node measure.mjs <variant> <baseUrl> [runs]: cold loads of one /docs variant in Debian's chromium (setup.sh
// starts the servers). JSON on stdout: time to the first operation heading, bytes received (CDP encodedDataLength),
// main-thread time, search, deep links, schema text, 390 px width; viewport screenshots in $SHOTS.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const SHOTS = process.env.SHOTS ?? '/tmp/docs-page-compare/shots';
mkdirSync(SHOTS, { recursive: true });
const [, , variant, base, runsArg] = process.argv;
const RUNS = Number(runsArg ?? 3);
const V = {
  hand: {
    first: (p) => p.locator('#authenticate h3'),
    create: '#createClient',
    far: '#referenceAsset',
    createHead: (p) => p.locator('#createClient h3'),
    farHead: (p) => p.locator('#referenceAsset h3'),
    search: null,
  },
  redoc2: {
    first: (p) => p.getByRole('heading', { name: 'Create or validate a token' }),
    create: '#operation/createClient',
    far: '#operation/referenceAsset',
    createHead: (p) => p.getByRole('heading', { name: 'Create a client (idempotent by clientId)' }),
    farHead: (p) => p.getByRole('heading', { name: 'A file of the API reference page' }),
    search: (p) => p.getByPlaceholder('Search...'),
  },
  redoc3: {
    first: (p) => p.getByText('/authentication', { exact: true }),
    create: '#/clients/createclient',
    far: '#/reference/referenceasset',
    createHead: (p) => p.getByRole('heading', { name: 'Create a client (idempotent by clientId)' }),
    farHead: (p) => p.getByRole('heading', { name: 'A file of the API reference page' }),
    search: (p) => p.locator('[data-testid="search-trigger"]'),
  },
  scalar: {
    first: (p) => p.getByRole('heading', { name: 'Create or validate a token' }),
    create: '#tag/clients/POST/api/v1/businesses/{urlKey}/clients',
    far: '#tag/reference/GET/docs/{file}',
    createHead: (p) => p.getByRole('heading', { name: 'Create a client (idempotent by clientId)' }),
    farHead: (p) => p.getByRole('heading', { name: 'A file of the API reference page' }),
    search: (p) => p.getByRole('button', { name: /Search/ }).first(),
  },
}[variant.replace(/-.*/, '')];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
const out = { variant, loads: [], problems: [] };

async function open(viewport, hash = '') {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  const urls = new Map();
  const bytes = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text().slice(0, 160));
  });
  page.on('pageerror', (e) => problems.push(`pageerror ${e.message.slice(0, 160)}`));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'))
      problems.push(`outside ${u.slice(0, 100)}`);
  });
  const t0 = Date.now();
  await page.goto(`${base}/docs${hash}`);
  const total = async () => {
    let sum = 0;
    const per = {};
    for (const [id, b] of bytes) {
      sum += b;
      const u = urls.get(id).replace(base, '');
      per[u] = (per[u] ?? 0) + b;
    }
    return { sum, per };
  };
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics
        .filter((m) => ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'JSHeapUsedSize', 'Nodes'].includes(m.name))
        .map((m) => [m.name, m.value]),
    );
  return { context, page, t0, total, metrics, problems };
}
const inView = (loc) =>
  loc.first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= -2 && r.top < window.innerHeight && r.height > 0;
  });
const fits = (page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

// Cold loads at 1280 (each in a fresh context: empty cache).
for (let i = 0; i < RUNS; i++) {
  const s = await open({ width: 1280, height: 800 });
  await V.first(s.page).first().waitFor({ state: 'visible', timeout: 120_000 });
  const firstOp = Date.now() - s.t0;
  await s.page.waitForLoadState('networkidle');
  await s.page.waitForTimeout(2000);
  const { sum, per } = await s.total();
  out.loads.push({ width: 1280, firstOpMs: firstOp, bytes: sum, ...(await s.metrics()) });
  if (i === 0) {
    out.files = per;
    out.problems.push(...new Set(s.problems));
    await s.page.evaluate(() => window.scrollTo(0, 0));
    await s.page.screenshot({ path: `${SHOTS}/docs-1280-${variant}.png` });
    // Search
    if (V.search) {
      const before = await s.page.getByText('Create a client (idempotent by clientId)').count();
      await V.search(s.page).click();
      await s.page.keyboard.type('idempotent by clientId');
      await s.page.waitForTimeout(2500);
      const after = await s.page.getByText(/idempotent by clientId/).count();
      out.search = { before, after };
      await s.page.screenshot({ path: `${SHOTS}/search-${variant}.png` });
    } else out.search = 'no search box';
  }
  await s.context.close();
}
// 390 px cold load.
{
  const s = await open({ width: 390, height: 844 });
  await V.first(s.page).first().waitFor({ state: 'attached', timeout: 120_000 });
  const attached = Date.now() - s.t0;
  await s.page.waitForLoadState('networkidle');
  await s.page.waitForTimeout(2000);
  const { sum } = await s.total();
  out.phone = { firstOpAttachedMs: attached, bytes: sum, ...(await fits(s.page)), ...(await s.metrics()) };
  await s.page.evaluate(() => window.scrollTo(0, 0));
  await s.page.screenshot({ path: `${SHOTS}/docs-390-${variant}.png` });
  out.problems.push(...new Set(s.problems.map((p) => `390: ${p}`)));
  await s.context.close();
}
// Deep links, cold: the target operation's heading in the viewport?
for (const [name, hash, head, width] of [
  ['create', V.create, V.createHead, 1280],
  ['far', V.far, V.farHead, 1280],
  ['create390', V.create, V.createHead, 390],
]) {
  const s = await open({ width, height: width === 390 ? 844 : 800 }, hash);
  let ok = false;
  let ms = null;
  try {
    await head(s.page).first().waitFor({ state: 'visible', timeout: 60_000 });
    ms = Date.now() - s.t0;
    await s.page.waitForTimeout(3000);
    ok = await inView(head(s.page));
  } catch (e) {
    ok = `error ${e.message.slice(0, 80)}`;
  }
  out[`deep_${name}`] = { ok, ms, hash: await s.page.evaluate(() => location.hash) };
  await s.page.screenshot({ path: `${SHOTS}/deep-${name}-${variant}.png` });
  if (name === 'create') {
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered: what a closed section hides does not count.
    const text = await s.page.evaluate(() => document.body.innerText);
    out.schema = {
      clientId: text.includes('clientId'),
      dueInDays: text.includes('dueInDays'),
      IDEMPOTENCY_CONFLICT: text.includes('IDEMPOTENCY_CONFLICT'),
      409: /\b409\b/.test(text),
    };
  }
  await s.context.close();
}
await browser.close();
console.log(JSON.stringify(out, null, 1));
