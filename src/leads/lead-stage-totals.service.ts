import type { CachedLoader } from '../cache/cached-loader.js';
import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import { decimalOfUnits } from '../validation/money-units.js';
import type { LeadContext } from './lead-context.js';
import { resolvePipeline } from './lead.resolve.js';
import { resolveNames } from './leads-list.service.js';
import { parseLeadListQuery } from './leads.query.js';

/** List parameters that page, sort, sync or pick a stage: the totals cover every stage of one pipeline, whole. */
export const STAGE_TOTALS_REFUSED = ['$limit', '$skip', '$sort', 'updatedAtFrom', 'after', 'stage'] as const;

export interface StageTotalsAnswer {
  /** Null when the business has no live pipeline and none was named. */
  pipeline: string | null;
  stages: {
    id: string;
    name: string;
    isArchived: boolean;
    count: number;
    budgets: { currency: string; amount: string }[];
  }[];
}

/** A board column's figures (issue 39): per stage of one pipeline, the leads a list filter matches and their budgets. */
export class LeadStageTotalsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
  ) {}

  async totals(urlKey: string, raw: unknown): Promise<StageTotalsAnswer> {
    const query = (raw ?? {}) as Record<string, unknown>;
    // Syntax first (400), then the business (404), then the names (400), as the list.
    for (const key of Object.keys(query)) {
      const base = /^[^[\]]+/.exec(key)?.[0] ?? key;
      if ((STAGE_TOTALS_REFUSED as readonly string[]).includes(base)) {
        throw new AppError(
          'INVALID_QUERY_FIELD',
          `${key} is not accepted here: the totals cover every stage of the pipeline, whole`,
        );
      }
    }
    const parsed = parseLeadListQuery(query, urlKey);
    if (parsed.names.pipeline && parsed.names.pipeline.length !== 1)
      throw new AppError('INVALID_PIPELINE', 'pipeline: send the name of one pipeline, whose stages are totalled');
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    // Without a pipeline: the primary one (else the first live one), where the board opens.
    const live = context.pipelines.pipelines.filter((p) => !p.isArchived);
    const primary = live.find((p) => p.isPrimary) ?? live[0];
    if (!parsed.names.pipeline) {
      if (!primary) return { pipeline: null, stages: [] };
      parsed.names = { pipeline: [primary.name], ...parsed.names };
    }
    const filter = { ...parsed.query.filter, ...resolveNames(context, parsed) };
    // The first of that name, as the filter resolves it (or the primary itself when none was sent).
    const pipeline =
      query.pipeline === undefined
        ? primary!
        : resolvePipeline(context, parsed.names.pipeline![0]!, { withArchived: true })!;
    const totals = await this.store.leadStageTotals.totals(urlKey, filter);
    return {
      pipeline: pipeline.name,
      stages: pipeline.stages.map((stage) => {
        const total = totals.get(stage.id);
        const budgets = (total?.budgets ?? []).map(({ currency, units }) => ({
          currency,
          amount: decimalOfUnits(units),
        }));
        return { id: stage.id, name: stage.name, isArchived: stage.isArchived, count: total?.count ?? 0, budgets };
      }),
    };
  }
}
