import type { CachedLoader } from '../cache/cached-loader.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import type { LeadListPage } from '../storage/lead-lists.store.js';
import type { Store } from '../storage/store.js';
import type { StoredPipeline } from '../pipelines/pipelines.types.js';
import type { LeadContext } from './lead-context.js';
import type { LeadListFilter } from '../storage/lead-lists.records.js';
import { presentLead } from './lead.present.js';
import { resolveLeadSource, resolveMember, resolvePipeline, resolveStage, resolveTags } from './lead.resolve.js';
import { encodeCursor, parseLeadListQuery, type ParsedLeadList } from './leads.query.js';

/** The one page object of GET /leads (docs/decisions.md "Lead lists"); sync pages add `nextCursor`, with `total: null`. */
export interface LeadListAnswer {
  items: Record<string, unknown>[];
  total: number | null;
  limit: number;
  skip: number;
  nextCursor?: string | null;
}

const ARCHIVED_TOO = { withArchived: true } as const;

/** Lists and searches a business's leads: the same for the public interface and the operator. */
export class LeadsListService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
  ) {}

  async list(urlKey: string, raw: unknown): Promise<LeadListAnswer> {
    // Syntax first (400), then the business (404), then the names it carries (400).
    const parsed = parseLeadListQuery((raw ?? {}) as Record<string, unknown>, urlKey);
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    const { query } = parsed;
    query.filter = { ...query.filter, ...resolveNames(context, parsed) };
    const page: LeadListPage = await this.store.leadLists.page(urlKey, query);
    const items = page.leads.map((lead) => presentLead(lead, context));
    if (!query.sync) return { items, total: page.total, limit: query.limit, skip: query.skip };
    const nextCursor = page.next ? encodeCursor(page.next, urlKey) : null;
    return { items, total: null, limit: query.limit, skip: 0, nextCursor };
  }
}

/**
 * Structured filters' names to ids (section 3, archived entries included so that old leads can be
 * found). Every name that exists nowhere is reported, in one 400, the first parameter leading.
 */
export function resolveNames(context: LeadContext, parsed: ParsedLeadList): LeadListFilter {
  const { names } = parsed;
  const errors: FieldError[] = [];
  const fail: Fail = (field, code, message) => {
    errors.push({ field, code, message });
  };
  const filter: LeadListFilter = {};

  const pipelines = (names.pipeline ?? []).flatMap((name) => {
    const found = resolvePipeline(context, name, ARCHIVED_TOO);
    if (!found) fail('pipeline', 'INVALID_PIPELINE', `pipeline "${name}" names no pipeline of this business`);
    return found ? [found] : [];
  });
  if (names.pipeline) filter.pipelineIds = [...new Set(pipelines.map((p) => p.id))];

  if (names.stage && !names.pipeline)
    fail('stage', 'INVALID_STAGE', 'stage filters inside a pipeline: send pipeline with it');
  else if (names.stage)
    Object.assign(
      filter,
      resolveStages(pipelines, names.stage, pipelines.length === names.pipeline?.length ? fail : () => undefined),
    );

  if (names.tags) {
    const { ids, unknown } = resolveTags(context, names.tags, ARCHIVED_TOO);
    if (unknown.length > 0)
      fail('tags', 'INVALID_TAG', `tags has no tag named ${unknown.map((n) => `"${n}"`).join(', ')}`);
    filter.tagIds = ids;
  }
  if (names.leadSource) {
    filter.leadSourceKeys = [
      ...new Set(
        names.leadSource.flatMap((value) => {
          const source = resolveLeadSource(context, value, ARCHIVED_TOO);
          if (!source)
            fail('leadSource', 'INVALID_LEAD_SOURCE', `leadSource "${value}" names no lead source of this business`);
          return source ? [source.key] : [];
        }),
      ),
    ];
  }
  if (names.assignedTo) {
    filter.unassigned = names.assignedTo.includes('UNASSIGNED');
    filter.assigneeIds = [
      ...new Set(
        names.assignedTo
          .filter((v) => v !== 'UNASSIGNED')
          .flatMap((email) => {
            const member = resolveMember(context, email, ARCHIVED_TOO);
            if (!member)
              fail('assignedTo', 'INVALID_ASSIGNEE', `assignedTo "${email}" is not a member of this business`);
            return member ? [member.id] : [];
          }),
      ),
    ];
  }
  if (parsed.statuses) {
    const wanted = new Set(parsed.statuses);
    filter.statusStageIds = context.pipelines.pipelines.flatMap((p) =>
      p.stages.filter((s) => wanted.has(s.state)).map((s) => s.id),
    );
  }
  if (errors.length > 0) {
    // In the order the parameters were sent (names holds them in that order).
    const sent = Object.keys(names);
    const rank = (field: string) => (field === 'status' ? sent.length : sent.indexOf(field));
    throw AppError.fromFieldErrors(errors.sort((a, b) => rank(a.field) - rank(b.field)));
  }
  return filter;
}

type Fail = (field: string, code: FieldError['code'], message: string) => void;

/** Stage names inside the pipelines sent (any of them), and UNSTAGED: a stage none of them lists. */
function resolveStages(
  pipelines: StoredPipeline[],
  names: string[],
  fail: Fail,
): Pick<LeadListFilter, 'stageIds' | 'unstaged'> {
  const out: Pick<LeadListFilter, 'stageIds' | 'unstaged'> = {};
  const stageIds = new Set<string>();
  for (const name of names) {
    if (name === 'UNSTAGED') {
      out.unstaged = {
        pipelineIds: pipelines.map((p) => p.id),
        knownStageIds: pipelines.flatMap((p) => p.stages.map((s) => s.id)),
      };
      continue;
    }
    const ids = pipelines.flatMap((p) => resolveStage(p, name, ARCHIVED_TOO)?.id ?? []);
    // With a pipeline unresolved, that error stands alone: the stage may well be in it.
    if (ids.length === 0) fail('stage', 'INVALID_STAGE', `stage "${name}" names no stage of the pipeline sent`);
    for (const id of ids) stageIds.add(id);
  }
  if (stageIds.size > 0 || !out.unstaged) out.stageIds = [...stageIds];
  return out;
}
