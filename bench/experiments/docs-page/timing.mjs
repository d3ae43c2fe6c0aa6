// node timing.mjs [rounds]: cold loads of the four variants, interleaved (each round loads each variant at 1280
// and at 390 px), so that the machine's load falls on all alike; median time to the first operation heading.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
const rounds = Number(process.argv[2] ?? 5);
const V = [
  ['hand', 'http://127.0.0.1:39351', (p) => p.locator('#authenticate h3')],
  ['redoc2', 'http://127.0.0.1:39353', (p) => p.getByRole('heading', { name: 'Create or validate a token' })],
  ['redoc3', 'http://127.0.0.1:39355', (p) => p.getByText('/authentication', { exact: true })],
  ['scalar', 'http://127.0.0.1:39358', (p) => p.getByRole('heading', { name: 'Create or validate a token' })],
];
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
const res = Object.fromEntries(V.map(([n]) => [n, { 1280: [], 390: [] }]));
const loads = [];
for (let r = 0; r < rounds; r++)
  for (const width of [1280, 390])
    for (const [n, base, first] of V) {
      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`${base}/docs`);
      await first(page)
        .first()
        .waitFor({ state: width === 390 ? 'attached' : 'visible', timeout: 120_000 });
      res[n][width].push(Date.now() - t0);
      await context.close();
      loads.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    }
await browser.close();
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const [n] of V)
  console.log(
    n,
    '1280 median',
    med(res[n][1280]),
    res[n][1280].join(','),
    '| 390 median',
    med(res[n][390]),
    res[n][390].join(','),
  );
console.log('load 1-min during run: min', Math.min(...loads), 'max', Math.max(...loads));
