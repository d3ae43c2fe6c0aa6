import { sql, type RawBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import { canName } from './keys.js';
import type { LeadListFilter } from './lead-lists.records.js';

/**
 * A lead list's filter as SQL conditions on `leads` (docs/decisions.md "Lead lists"), and its total:
 * fixed fragments with every value bound, each served by an index of migration 003-leads-search.
 */

export type Fragment = RawBuilder<unknown>;

export const inList = (column: string, values: readonly unknown[]): Fragment =>
  sql`${sql.ref(column)} in (${sql.join(values)})`;

export const businessOf = (urlKey: string): Fragment => sql`(select id from businesses where url_key = ${urlKey})`;

/** Filters the live counts of migration 006-lead-counts are kept by: a total filtered by these only is a sum of counts. */
export const COUNTED = new Set<keyof LeadListFilter>([
  'pipelineIds',
  'stageIds',
  'unstaged',
  'statusStageIds',
  'leadSourceKeys',
  'assigneeIds',
  'unassigned',
  'followUpNone',
]);

/** Every condition of the filter, or undefined when one can match nothing (a status no stage carries). */
export function filterConditions(kind: StoreKind, urlKey: string, f: LeadListFilter): Fragment[] | undefined {
  if (f.statusStageIds?.length === 0 || f.pipelineIds?.length === 0) return undefined;
  // A value PostgreSQL cannot hold (NUL, a lone surrogate) names no stored lead: empty, on both stores.
  const lookups = [f.externalId, f.clientId, f.contactId, f.contactName, f.contactEmail, f.contactPhone];
  if (!canName(urlKey, ...lookups.filter((v): v is string => v !== undefined))) return undefined;
  // `removed = 0` written as a constant, so that PostgreSQL matches the partial indexes.
  const business = businessOf(urlKey);
  const c: Fragment[] = [
    sql`leads.business_pk = ${business}`,
    sql`leads.removed = 0`,
    ...countedConditions(kind, f, false),
  ];
  if (f.tagIds) {
    // Not correlated with the outer row, so that it is planned as one semi-join (a correlated one ran per lead).
    c.push(
      sql`leads.id in (select lead_tags.lead_pk from lead_tags where lead_tags.business_pk = ${business} and ${inList('lead_tags.tag_id', f.tagIds)})`,
    );
  }
  const equal: [keyof LeadListFilter, string][] = [
    ['externalId', 'external_id'],
    ['clientId', 'client_id'],
    ['contactId', 'contact_id'],
    ['contactName', 'contact_name'],
    ['contactEmail', 'contact_email'],
    ['contactPhone', 'contact_phone'],
  ];
  for (const [key, column] of equal) if (f[key] !== undefined) c.push(sql`${sql.ref(`leads.${column}`)} = ${f[key]}`);
  if (f.createdFrom !== undefined) c.push(sql`leads.created_at >= ${f.createdFrom}`);
  if (f.createdTo !== undefined) c.push(sql`leads.created_at <= ${f.createdTo}`);
  if (f.updatedFrom !== undefined) c.push(sql`leads.updated_at >= ${f.updatedFrom}`);
  const valued = (column: string) => hasValue(kind, column, true);
  if (f.followUpFrom !== undefined || f.followUpTo !== undefined) c.push(valued('leads.follow_up_date'));
  if (f.followUpFrom !== undefined) c.push(sql`leads.follow_up_date >= ${f.followUpFrom}`);
  if (f.followUpTo !== undefined) c.push(sql`leads.follow_up_date <= ${f.followUpTo}`);
  if (f.budgetMin !== undefined || f.budgetMax !== undefined) c.push(valued('leads.budget_amount'));
  if (f.budgetMin !== undefined) c.push(sql`leads.budget_amount >= ${f.budgetMin}`);
  if (f.budgetMax !== undefined) c.push(sql`leads.budget_amount <= ${f.budgetMax}`);
  return c;
}

/**
 * The conditions on what the live counts are kept by (COUNTED), on the leads or on lead_counts, whose
 * columns have the same names but keep no source / no assignee as '' and no follow-up as a flag.
 */
export function countedConditions(kind: StoreKind, f: LeadListFilter, counts: boolean): Fragment[] {
  const c: Fragment[] = [];
  // Stage ids belong to the pipelines sent (UNSTAGED names them itself): the pipeline condition would
  // only send the stage index back to the table.
  if (f.pipelineIds && !f.stageIds && !f.unstaged) c.push(sql`leads.pipeline_id in (${sql.join(f.pipelineIds)})`);
  if (f.stageIds || f.unstaged) c.push(stageCondition(f));
  if (f.statusStageIds) c.push(sql`leads.stage_id in (${sql.join(f.statusStageIds)})`);
  if (f.leadSourceKeys) c.push(inList('leads.lead_source_key', f.leadSourceKeys));
  if (f.assigneeIds || f.unassigned) {
    const nobody = counts ? sql`leads.assignee_id = ''` : sql`leads.assignee_id is null`;
    const parts = [
      ...(f.assigneeIds?.length ? [inList('leads.assignee_id', f.assigneeIds)] : []),
      ...(f.unassigned ? [nobody] : []),
    ];
    c.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  if (f.followUpNone) c.push(counts ? sql`leads.no_follow_up = 1` : hasValue(kind, 'leads.follow_up_date', false));
  return c;
}

/**
 * The nullable columns' indexes lead with `(col is null)`: saying its value lets a range or `none`
 * use the index past the business (a bare `col >= x` would read the business's whole index).
 */
export function hasValue(kind: StoreKind, column: string, value: boolean): Fragment {
  return sql`(${sql.ref(column)} is null) = ${sql.raw(kind === 'postgres' ? String(!value) : value ? '0' : '1')}`;
}

/** Named stages, or UNSTAGED: a lead of the pipeline whose stage is no longer in its configuration. */
function stageCondition(f: LeadListFilter): Fragment {
  const parts: Fragment[] = [];
  if (f.stageIds?.length) parts.push(sql`leads.stage_id in (${sql.join(f.stageIds)})`);
  if (f.unstaged) {
    const known = f.unstaged.knownStageIds;
    parts.push(
      sql`(leads.pipeline_id in (${sql.join(f.unstaged.pipelineIds)})${known.length ? sql` and leads.stage_id not in (${sql.join(known)})` : sql``})`,
    );
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * The total: a sum of live counts (migration 006-lead-counts) when the filter uses only what those
 * counts are kept by (COUNTED), or one tag's live count when one tag is the whole filter; otherwise a
 * count of the matching leads.
 */
export function countStatement(
  kind: StoreKind,
  urlKey: string,
  f: LeadListFilter,
  from: Fragment,
  where: Fragment,
): RawBuilder<{ total: number | string | null }> {
  const sent = Object.entries(f)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (sent.length === 1 && sent[0] === 'tagIds' && f.tagIds!.length === 1) {
    // One tag alone: its live count (migration 007-lead-words, lead_tag_counts).
    return sql`select coalesce(sum(live), 0) as total from lead_tag_counts where business_pk = ${businessOf(urlKey)} and tag_id = ${f.tagIds![0]}`;
  }
  const covered = sent.every((key) => COUNTED.has(key as keyof LeadListFilter));
  if (!covered) return sql`select count(*) as total from ${from} where ${where}`;
  const c = [sql`leads.business_pk = ${businessOf(urlKey)}`, ...countedConditions(kind, f, true)];
  // Aliased `leads`: the conditions are the list's own, on the same column names.
  return sql`select coalesce(sum(leads.live), 0) as total from lead_counts leads where ${sql.join(c, sql` and `)}`;
}
