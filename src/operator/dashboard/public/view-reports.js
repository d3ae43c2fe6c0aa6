// @ts-check
// Reports (issue 38 item 4): the figures an owner reads at a glance, each a chart with its table under
// it. Every figure is the server's (GET /admin/v1/businesses/:urlKey/reports/…); the page only formats
// them in the business's locale. Months and days are the business's time zone's (docs/decisions.md).
import { api, latestOnly, seg } from './api.js';
import { errorBanner, field, h, mount } from './dom.js';
import { calendarDay } from './locale-format.js';
import { drawChart, formattersOf, loadChartLibrary, moneyList, reportCard } from './report-widgets.js';

const PERIODS = [3, 6, 12, 24];
/** Counts of leads: no tick between two whole numbers. */
const WHOLE_COUNTS = { scales: { y: { ticks: { precision: 0 } } } };
const BUCKET_LABELS = {
  current: 'Not yet due',
  '0-30': '0–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  'over-90': 'Over 90 days',
};

/** The page's own stylesheet, linked once (the CSP allows stylesheets of the page's origin). */
function linkStyles() {
  if (document.querySelector('link[data-reports]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/assets/reports.css', dataset: { reports: '1' } }));
}

/**
 * The reports as the operator API answers them (each route's data[0]).
 * @typedef {import('./dashboard-types.js').OperatorSchemas} Schemas
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 */

/** @param {HTMLElement} container @param {Ctx} ctx */
export async function renderReports(container, ctx) {
  linkStyles();
  const base = `/businesses/${seg(ctx.business.urlKey)}`;
  /** @type {Pick<Schemas['OperatorPipelineConfiguration'], 'pipelines'>} */
  const config = (await api('GET', `${base}/pipelines`))?.[0] ?? { pipelines: [] };
  const pipelines = config.pipelines.filter((p) => !p.isArchived);
  const primary = pipelines.find((p) => p.isPrimary) ?? pipelines[0];
  const pipelineSelect = h(
    'select',
    { id: 'report-pipeline', disabled: pipelines.length === 0 },
    pipelines.map((p) => h('option', { value: p.name, selected: p === primary }, p.name)),
  );
  const periodSelect = h(
    'select',
    { id: 'report-months' },
    PERIODS.map((n) => h('option', { value: String(n), selected: n === 12 }, `Last ${n} months`)),
  );
  const body = h('div', { class: 'reports', 'aria-live': 'polite' });
  const controls = h(
    'div',
    { class: 'toolbar report-controls' },
    field('Pipeline', pipelineSelect),
    field('Period', periodSelect),
  );
  mount(container, h('h1', {}, 'Reports'), controls, body);
  /** @type {any[]} */
  let charts = [];
  // Changing the period or pipeline while a load runs starts another; only the latest may draw, or a
  // slower earlier answer would replace the chosen period's figures with the previous period's.
  const startLoad = latestOnly();
  const load = async () => {
    const isLatest = startLoad();
    for (const chart of charts) chart.destroy();
    charts = [];
    mount(body, h('p', { class: 'loading', role: 'status' }, 'Loading reports…'));
    const pipeline = pipelineSelect.value ? `pipeline=${encodeURIComponent(pipelineSelect.value)}&` : '';
    const months = `months=${periodSelect.value}`;
    try {
      const [Chart, value, outcomes, flow, invoicing, receivables] = await Promise.all([
        loadChartLibrary(),
        ...[
          `pipeline-value?${pipeline.slice(0, -1)}`,
          `lead-outcomes?${pipeline}${months}`,
          `stage-flow?${pipeline}${months}`,
          `invoicing?${months}`,
          'receivables',
        ].map(async (path) => (await api('GET', `${base}/reports/${path.replace(/\?$/, '')}`))[0]),
      ]);
      if (!isLatest()) return;
      const cards = [
        pipelineCard(value),
        ...outcomeCards(outcomes),
        ...flowCards(flow),
        invoicingCard(invoicing),
        receivablesCard(receivables),
      ];
      mount(
        body,
        h(
          'div',
          { class: 'report-grid' },
          cards.map((c) => c.card),
        ),
      );
      charts = cards.flatMap((c) => (c.canvas ? [drawChart(Chart, c.canvas, c.chart)] : []));
    } catch (error) {
      if (!isLatest() || /** @type {any} */ (error).status === 401) return;
      mount(body, errorBanner(/** @type {Error} */ (error).message));
    }
  };
  pipelineSelect.addEventListener('change', load);
  periodSelect.addEventListener('change', load);
  await load();
}

/** The business currency's amount of a list (what a chart draws; the table lists every currency). */
const inCurrency = (/** @type {any[]} */ amounts, /** @type {string} */ currency, key = 'amount') =>
  Number(amounts.find((a) => a.currency === currency)?.[key] ?? 0);

function pipelineCard(/** @type {Schemas['PipelineReport']} */ r) {
  const f = formattersOf(r);
  const stages = r.stages;
  return reportCard({
    id: 'report-pipeline-value',
    title: 'Pipeline value by stage',
    note: `${r.pipeline ?? 'No pipeline'} · forecast ${moneyList(r.forecast, f, (a) => a.weighted)} of ${moneyList(r.forecast, f)}`,
    columns: ['Stage', 'Closure', 'Leads', 'Value', 'Weighted'],
    rows: stages.map((s) => [
      s.name,
      s.closure === null ? '—' : f.percent(s.closure / 100),
      f.count(s.count),
      moneyList(s.values, f),
      moneyList(s.values, f, (a) => a.weighted),
    ]),
    empty: 'This business has no pipeline yet.',
    chart: {
      data: {
        labels: stages.map((s) => s.name),
        datasets: [
          {
            label: `Value (${r.currency})`,
            data: stages.map((s) => inCurrency(s.values, r.currency)),
          },
          {
            label: `Weighted (${r.currency})`,
            data: stages.map((s) => inCurrency(s.values, r.currency, 'weighted')),
          },
        ],
      },
    },
  });
}

function outcomeCards(/** @type {Schemas['OutcomesReport']} */ r) {
  const f = formattersOf(r);
  const reasonName = (/** @type {Schemas['OutcomesReport']['lostByReason'][number]} */ x) =>
    x.label ?? x.reason ?? 'No reason';
  return [
    reportCard({
      id: 'report-outcomes',
      title: 'Won and lost leads per month',
      columns: ['Month', 'Won', 'Lost'],
      rows: r.months.map((m) => [f.month(m.month), f.count(m.won), f.count(m.lost)]),
      chart: {
        data: {
          labels: r.months.map((m) => f.month(m.month)),
          datasets: [
            { label: 'Won', data: r.months.map((m) => m.won) },
            { label: 'Lost', data: r.months.map((m) => m.lost) },
          ],
        },
        options: WHOLE_COUNTS,
      },
    }),
    reportCard({
      id: 'report-lost-reasons',
      title: 'Lost leads by reason',
      columns: ['Reason', 'Leads'],
      rows: r.lostByReason.map((x) => [reasonName(x), f.count(x.leads)]),
      empty: 'No lead was lost in this period.',
      chart: {
        data: {
          labels: r.lostByReason.map(reasonName),
          datasets: [{ label: 'Leads', data: r.lostByReason.map((x) => x.leads) }],
        },
        options: { indexAxis: 'y', scales: { x: { ticks: { precision: 0 } } } },
      },
    }),
  ];
}

function flowCards(/** @type {Schemas['StageFlowReport']} */ r) {
  const f = formattersOf(r);
  const stages = r.stages;
  const labels = stages.map((s) => s.name);
  return [
    reportCard({
      id: 'report-conversion',
      title: 'Conversion from each stage to won',
      columns: ['Stage', 'Entered', 'Won since', 'Conversion'],
      rows: stages.map((s) => [s.name, f.count(s.entered), f.count(s.won), f.percent(s.conversion)]),
      chart: {
        data: {
          labels,
          datasets: [{ label: 'Conversion (%)', data: stages.map((s) => (s.conversion ?? 0) * 100) }],
        },
      },
    }),
    reportCard({
      id: 'report-stage-days',
      title: 'Median days in each stage',
      columns: ['Stage', 'Stays ended', 'Median days'],
      rows: stages.map((s) => [s.name, f.count(s.stays), f.days(s.medianDays)]),
      chart: {
        data: {
          labels,
          datasets: [{ label: 'Median days', data: stages.map((s) => s.medianDays ?? 0) }],
        },
      },
    }),
  ];
}

function invoicingCard(/** @type {Schemas['InvoicingReport']} */ r) {
  const f = formattersOf(r);
  return reportCard({
    id: 'report-invoicing',
    title: 'Invoiced and collected per month',
    columns: ['Month', 'Invoiced', 'Collected'],
    rows: r.months.map((m) => [f.month(m.month), moneyList(m.invoiced, f), moneyList(m.collected, f)]),
    chart: {
      data: {
        labels: r.months.map((m) => f.month(m.month)),
        datasets: [
          {
            label: `Invoiced (${r.currency})`,
            data: r.months.map((m) => inCurrency(m.invoiced, r.currency)),
          },
          {
            label: `Collected (${r.currency})`,
            data: r.months.map((m) => inCurrency(m.collected, r.currency)),
          },
        ],
      },
    },
  });
}

function receivablesCard(/** @type {Schemas['ReceivablesReport']} */ r) {
  const f = formattersOf(r);
  const label = (/** @type {string} */ b) => /** @type {Record<string, string>} */ (BUCKET_LABELS)[b] ?? b;
  const count = (/** @type {any[]} */ amounts) => amounts.reduce((n, a) => n + a.count, 0);
  return reportCard({
    id: 'report-receivables',
    title: 'Receivables by days past due',
    note: `As of ${calendarDay(r.asOf, r.locale)}`,
    columns: ['Past due', 'Owed', 'Invoices'],
    rows: r.buckets.map((b) => [label(b.bucket), moneyList(b.amounts, f), f.count(count(b.amounts))]),
    chart: {
      data: {
        labels: r.buckets.map((b) => label(b.bucket)),
        datasets: [
          {
            label: `Owed (${r.currency})`,
            data: r.buckets.map((b) => inCurrency(b.amounts, r.currency)),
          },
        ],
      },
    },
  });
}
