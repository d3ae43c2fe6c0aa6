// @ts-check
// The reports page's widgets: a chart drawn by Chart.js (served from the project at /assets/vendor/,
// never a CDN) with its data table under it, so a screen reader reads the same figures the chart draws.
// Figures are formatted in the business's locale by locale-format.js; amounts stay exact decimal strings
// (Intl.NumberFormat formats a string without passing it through a float).
import { h } from './dom.js';
import { reportFormatters } from './locale-format.js';

/** @type {Promise<any> | null} */
let chartLibrary = null;

/** Chart.js's UMD build, loaded once as a script of the page's own origin (the CSP allows 'self' only). */
export function loadChartLibrary() {
  chartLibrary ??= new Promise((resolve, reject) => {
    const w = /** @type {any} */ (window);
    if (w.Chart) return resolve(w.Chart);
    const script = h('script', { src: '/assets/vendor/chart.umd.js' });
    script.addEventListener('load', () => resolve(w.Chart));
    script.addEventListener('error', () => {
      chartLibrary = null;
      reject(new Error('The chart library could not be loaded.'));
    });
    document.head.append(script);
  });
  return chartLibrary;
}

/** Formatters of one report's figures, in the locale its answer names (locale-format.js). */
export const formattersOf = (/** @type {{locale: string}} */ frame) => reportFormatters(frame.locale);

/** Several amounts of different currencies on one line: "₹1,000.50 · $2,500.00"; none: "—". */
export function moneyList(
  /** @type {{currency: string, amount: string}[]} */ amounts,
  /** @type {ReturnType<typeof formattersOf>} */ format,
  pick = /** @type {(a: any) => string | null} */ ((a) => a.amount),
) {
  const shown = amounts.filter((a) => pick(a) !== null);
  return shown.length === 0
    ? '—'
    : shown.map((a) => format.money(/** @type {string} */ (pick(a)), a.currency)).join(' · ');
}

const PALETTE = ['#3b5bdb', '#2f9e44', '#e8590c', '#c2255c', '#7048e8', '#0c8599'];

/**
 * A card holding a chart and the table of its figures.
 * @param {{id: string, title: string, note?: string, chart: any, columns: string[], rows: (string | number)[][], empty?: string}} spec
 */
export function reportCard(spec) {
  const canvas = h('canvas', {
    role: 'img',
    'aria-label': `${spec.title}: chart; the table below lists the same figures`,
  });
  const table = h(
    'table',
    { class: 'data-table compact stack', id: `${spec.id}-table`, 'aria-label': spec.title },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        spec.columns.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      spec.rows.map((row) =>
        h(
          'tr',
          {},
          row.map((cell, i) => h('td', { dataset: { label: spec.columns[i] }, class: i > 0 ? 'num' : null }, cell)),
        ),
      ),
    ),
  );
  const card = h(
    'section',
    { class: 'card report-card', id: spec.id, 'aria-labelledby': `${spec.id}-title` },
    h('div', { class: 'card-head' }, h('h2', { id: `${spec.id}-title` }, spec.title)),
    spec.note ? h('p', { class: 'muted report-note' }, spec.note) : null,
    spec.rows.length === 0
      ? h('p', { class: 'empty report-empty' }, spec.empty ?? 'Nothing to show for this period yet.')
      : [h('div', { class: 'report-chart' }, canvas), table],
  );
  return { card, canvas: spec.rows.length === 0 ? null : canvas, chart: spec.chart };
}

/** Draws a card's chart once the library is loaded (bars by default), every dataset in the palette. */
export function drawChart(
  /** @type {any} */ Chart,
  /** @type {HTMLCanvasElement} */ canvas,
  /** @type {any} */ config,
) {
  const datasets = config.data.datasets.map((/** @type {any} */ d, /** @type {number} */ i) => ({
    backgroundColor: PALETTE[i % PALETTE.length],
    borderColor: PALETTE[i % PALETTE.length],
    ...d,
  }));
  return new Chart(canvas, {
    type: 'bar',
    ...config,
    data: { ...config.data, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: datasets.length > 1 } },
      ...config.options,
    },
  });
}
