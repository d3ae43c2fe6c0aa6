import type { CachedLoader } from '../cache/cached-loader.js';
import { AppError } from '../errors/app-error.js';
import type { LeadContext } from '../leads/lead-context.js';
import { resolvePipeline } from '../leads/lead.resolve.js';
import type { StoredPipeline } from '../pipelines/pipelines.types.js';
import type { Store } from '../storage/store.js';
import type { StageSets } from '../storage/reports-leads.store.js';
import { businessLocale } from '../validation/countries.js';
import { addScaled, decimalOfScaled, rounded, weightedBudget } from './report.numbers.js';
import { periodMonths } from './report.period.js';
import { parseReportQuery } from './report.query.js';
import type { OutcomesReport, PipelineReport, ReportFrame, StageFlowReport } from './reports.types.js';
import { periodOf } from './reports.types.js';

const DAY_MS = 86_400_000;

/** The pipeline reports (issue 38 item 4): value and forecast, outcomes per month, stage conversion and stays. */
export class LeadReportsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
    private readonly now: () => number,
  ) {}

  /** Budgets per stage (the live sums the board reads), each weighted by its stage's closure percentage. */
  async pipelineValue(urlKey: string, raw: unknown): Promise<PipelineReport> {
    const { frame, pipeline } = await this.open(urlKey, raw, ['pipeline']);
    if (!pipeline) return { ...frame, pipeline: null, stages: [], forecast: [] };
    const totals = await this.store.leadStageTotals.totals(urlKey, { pipelineIds: [pipeline.id] });
    const forecast = new Map<string, { amount: bigint; weighted: { units: bigint; scale: number } }>();
    const stages = pipeline.stages.map((stage) => {
      const total = totals.get(stage.id);
      const closure = stage.closure ?? null;
      const values = (total?.budgets ?? []).map(({ currency, units }) => {
        const weighted = closure === null ? null : weightedBudget(units, closure);
        const sum = forecast.get(currency) ?? { amount: 0n, weighted: { units: 0n, scale: 0 } };
        sum.amount += units;
        if (weighted) sum.weighted = addScaled(sum.weighted, weighted);
        forecast.set(currency, sum);
        const text = weighted && decimalOfScaled(weighted.units, weighted.scale);
        return { currency, amount: decimalOfScaled(units, 4), weighted: text };
      });
      const { id, name, state, isArchived } = stage;
      return { id, name, state, isArchived, closure, count: total?.count ?? 0, values };
    });
    return {
      ...frame,
      pipeline: pipeline.name,
      stages,
      forecast: [...forecast]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, sum]) => ({
          currency,
          amount: decimalOfScaled(sum.amount, 4),
          weighted: decimalOfScaled(sum.weighted.units, sum.weighted.scale),
        })),
    };
  }

  /** Won and lost leads per month of the period, and the period's lost leads by reason. */
  async outcomes(urlKey: string, raw: unknown): Promise<OutcomesReport> {
    const { frame, pipeline, context, months } = await this.open(urlKey, raw, ['pipeline', 'months']);
    const empty = months.map((m) => ({ month: m.month, won: 0, lost: 0 }));
    if (!pipeline) return { ...frame, period: periodOf(months), pipeline: null, months: empty, lostByReason: [] };
    const sets = stageSets(pipeline);
    const from = months[0]!.from;
    const to = months.at(-1)!.to;
    const [rows, reasons] = await Promise.all([
      this.store.leadReports.outcomes(urlKey, [...sets.won, ...sets.lost], months),
      this.store.leadReports.lostReasons(urlKey, sets.lost, from, to),
    ]);
    const byMonth = new Map(empty.map((m) => [m.month, m]));
    for (const row of rows) {
      const month = byMonth.get(row.month)!;
      if (sets.won.includes(row.stageId)) month.won += row.leads;
      else month.lost += row.leads;
    }
    const labels = new Map(context.pipelines.stageReasons.map((r) => [r.key, r.label]));
    const lostByReason = reasons
      .map((r) => ({
        reason: r.reasonKey,
        label: r.reasonKey === null ? null : (labels.get(r.reasonKey) ?? null),
        leads: r.leads,
      }))
      .sort((a, b) => b.leads - a.leads || (a.label ?? '\uffff').localeCompare(b.label ?? '\uffff'));
    return { ...frame, period: periodOf(months), pipeline: pipeline.name, months: empty, lostByReason };
  }

  /** Per stage: leads that entered it in the period and how many are now won; the median days of stays ended in it. */
  async stageFlow(urlKey: string, raw: unknown): Promise<StageFlowReport> {
    const { frame, pipeline, months } = await this.open(urlKey, raw, ['pipeline', 'months']);
    if (!pipeline) return { ...frame, period: periodOf(months), pipeline: null, stages: [] };
    const sets = stageSets(pipeline);
    const from = months[0]!.from;
    const to = months.at(-1)!.to;
    const [flow, stays] = await Promise.all([
      this.store.leadReports.stageFlow(urlKey, sets, from, to),
      this.store.leadReports.stageStays(urlKey, sets.all, from, to),
    ]);
    const flows = new Map(flow.map((f) => [f.stageId, f]));
    const medians = new Map(stays.map((s) => [s.stageId, s]));
    const stages = pipeline.stages.map(({ id, name, state, isArchived }) => {
      const entered = flows.get(id)?.entered ?? 0;
      const won = flows.get(id)?.won ?? 0;
      const stay = medians.get(id);
      return {
        id,
        name,
        state,
        isArchived,
        entered,
        won,
        conversion: entered === 0 ? null : rounded(won / entered, 4),
        stays: stay?.stays ?? 0,
        medianDays: stay ? rounded(stay.medianMs / DAY_MS, 2) : null,
      };
    });
    return { ...frame, period: periodOf(months), pipeline: pipeline.name, stages };
  }

  /** The business, its pipeline (named, else the primary, else the first live one) and the period. */
  private async open(urlKey: string, raw: unknown, accepted: ('pipeline' | 'months')[]) {
    const query = parseReportQuery(raw, accepted);
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    const live = context.pipelines.pipelines.filter((p) => !p.isArchived);
    let pipeline: StoredPipeline | undefined = live.find((p) => p.isPrimary) ?? live[0];
    if (query.pipeline !== undefined) {
      pipeline = resolvePipeline(context, query.pipeline, { withArchived: true });
      if (!pipeline) throw new AppError('INVALID_PIPELINE', 'pipeline: no pipeline of this business has this name');
    }
    const months = periodMonths(context.timeZone, this.now(), query.months);
    const frame: ReportFrame = {
      locale: businessLocale(context.business.country),
      timeZone: context.timeZone,
      currency: context.business.currency,
    };
    return { frame, pipeline, context, months };
  }
}

function stageSets(pipeline: StoredPipeline): StageSets {
  return {
    all: pipeline.stages.map((s) => s.id),
    won: pipeline.stages.filter((s) => s.state === 'CLOSED').map((s) => s.id),
    lost: pipeline.stages.filter((s) => s.state === 'DROPPED' || s.state === 'REJECTED').map((s) => s.id),
  };
}
