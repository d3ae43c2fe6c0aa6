import { STAGE_STATES } from '../pipelines/pipelines.types.js';
import { SORT_FIELDS } from '../storage/lead-lists.records.js';
import type { JsonSchema } from '../validation/json-schema.js';

/**
 * GET /leads's query parameters, written once (docs/decisions.md "Lead lists"): the parser (leads.query.ts)
 * reads their names, kinds and limits from here, the OpenAPI document (leads-list.openapi.ts) their
 * descriptions and schemas, and the typed client its `LeadListQuery` and `LeadSyncQuery`
 * (scripts/client-types.ts writes them into client/src/api-types.ts).
 */

/** Leads per page: the default and the most. */
export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 10;
/** The deepest a page may start. */
export const MAX_SKIP = 1000;
/** The longest text value (a lookup or a search), and the most words a search may hold. */
export const MAX_TEXT = 500;
export const MAX_WORDS = 10;

/**
 * How a parameter is read, which also says its type in the client:
 * - `page`: a whole number ($limit, $skip); `sort`: `$sort[FIELD]=1|-1`, one per sort field;
 * - `names`: names, comma-separated or `NAME[$in][]` repeated (client: a string or a list); `status`: the same, of
 *   stage states;
 * - `exact`: one text value, matched exactly; `words`: free text; `instant`: a date or an instant (client: a
 *   string or a Date); `date`: a calendar date; `none`: only the word `none`; `amount`: a number;
 * - `cursor`: the sync's nextCursor.
 */
export type ParameterKind =
  | 'page'
  | 'sort'
  | 'names'
  | 'status'
  | 'exact'
  | 'words'
  | 'instant'
  | 'date'
  | 'none'
  | 'amount'
  | 'cursor';

export interface ListParameter {
  name: string;
  kind: ParameterKind;
  description: string;
  schema: JsonSchema;
  /** `browse`: refused in sync mode; `sync`: only a sync sends it (it starts or continues one). Else both. */
  mode?: 'browse' | 'sync';
}

const text = (description = ''): JsonSchema => ({ type: 'string', description });
const names = (what: string): string =>
  `${what} One value, several comma-separated, or repeated as NAME[$in][]=value. A lead matches when it matches any of them. ` +
  'Names resolve as lead writes resolve them, archived entries included.';
/** One row; its name and kind stay literal types, so the parser's names are typed from the table too. */
const param = <N extends string, K extends ParameterKind>(name: N, kind: K, description: string, schema = text()) => ({
  name,
  kind,
  description,
  schema,
});

export const LEAD_LIST_PARAMETERS = [
  param('$limit', 'page', `Leads per page, 1 to ${MAX_LIMIT} (INVALID_PAGINATION_LIMIT otherwise).`, {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
  }),
  {
    ...param(
      '$skip',
      'page',
      `Leads to skip, 0 to ${MAX_SKIP} (INVALID_PAGINATION_SKIP otherwise). Refused in sync mode.`,
      { type: 'integer', minimum: 0, maximum: MAX_SKIP, default: 0 },
    ),
    mode: 'browse',
  },
  {
    ...param(
      '$sort',
      'sort',
      '1 ascending, -1 descending. Default createdAt descending; ties by leadId descending; leads without the value last either way. Several $sort keys apply in the order sent. Refused in sync mode.',
      { enum: ['1', '-1'] },
    ),
    mode: 'browse',
  },
  param('pipeline', 'names', names('Pipeline names (unknown: INVALID_PIPELINE).')),
  param(
    'stage',
    'names',
    names(
      'Stage names inside the pipeline sent, or UNSTAGED (leads whose stage is no longer in their pipeline). Needs pipeline (INVALID_STAGE).',
    ),
  ),
  param('tags', 'names', names('Tag names, ignoring case: a lead carrying any of them (unknown: INVALID_TAG).')),
  param('leadSource', 'names', names('Lead source keys or labels (unknown: INVALID_LEAD_SOURCE).')),
  param('assignedTo', 'names', names('Member e-mails, or UNASSIGNED (unknown: INVALID_ASSIGNEE).')),
  param(
    'status',
    'status',
    `One or more of ${STAGE_STATES.join(', ')}, as pipeline and the others (another value: INVALID_QUERY_VALUE).`,
  ),
  param('externalId', 'exact', 'Exact lookup; no match is an empty page.'),
  param('clientId', 'exact', "The customer's clientId; exact."),
  param('contactId', 'exact', 'Exact.'),
  param('contactName', 'exact', 'Exact, as stored (trimmed).'),
  param('contactEmail', 'exact', 'Exact, ignoring case.'),
  param('contactPhone', 'exact', 'Normalised as a stored phone before matching.'),
  param('createdAtFrom', 'instant', 'ISO 8601 date (its start, UTC) or instant; inclusive.'),
  param('createdAtTo', 'instant', 'ISO 8601 date (its end, UTC) or instant; inclusive.'),
  param('followUpDateFrom', 'date', 'Date YYYY-MM-DD (an instant counts by its UTC date); inclusive.'),
  param('followUpDateTo', 'date', 'Date YYYY-MM-DD; inclusive.'),
  param('followUpDate', 'none', 'Only `none`: leads without a follow-up date (not with followUpDateFrom/To).', {
    enum: ['none'],
  }),
  param('budgetMin', 'amount', 'Budget amount at least this (any currency); leads without a budget never match.', {
    type: 'number',
  }),
  param('budgetMax', 'amount', 'Budget amount at most this.', { type: 'number' }),
  param(
    'q',
    'words',
    `Free text over subject, details, customer name, contact name and e-mail: every word must match a whole word or a word's beginning, ignoring case and accents; at most ${MAX_WORDS} words. Results come by relevance (each word scores the best field it is found in: subject, then details, then names and e-mail; summed over the words), then $sort, then the default order.`,
  ),
  param('subject', 'words', 'Free text over the subject only (as q).'),
  param('details', 'words', 'Free text over the details only (as q).'),
  {
    ...param(
      'updatedAtFrom',
      'instant',
      'Sync: leads updated at or after this instant (or date), by updatedAt then leadId ascending, then the changes ' +
        'made since the sync began in the order they were committed; the page carries nextCursor and total null. Nothing committed is ever passed over.',
    ),
    mode: 'sync',
  },
  {
    ...param(
      'after',
      'cursor',
      "Sync: the nextCursor of a previous page (another business's or a malformed one: INVALID_QUERY_VALUE). A lead edited during " +
        'a sync comes again later; after an empty page (nextCursor null), send the last cursor again to get what changed since. Cursors work on any process and after restarts.',
    ),
    mode: 'sync',
  },
] as const satisfies readonly ListParameter[];

type Row = (typeof LEAD_LIST_PARAMETERS)[number];
/** The names of the parameters of one kind (or several), as a type. */
export type ParameterName<K extends ParameterKind> = Extract<Row, { kind: K }>['name'];

/** The names of the parameters of these kinds, in the table's order. */
export function parameterNames<K extends ParameterKind>(...kinds: K[]): ParameterName<K>[] {
  const rows = LEAD_LIST_PARAMETERS as readonly ListParameter[];
  return rows.filter((p) => (kinds as ParameterKind[]).includes(p.kind)).map((p) => p.name as ParameterName<K>);
}

/** The OpenAPI parameters: `$sort` is one parameter per sort field (`$sort[createdAt]`). */
export function documentedParameters(): { name: string; description: string; schema: JsonSchema }[] {
  return (LEAD_LIST_PARAMETERS as readonly ListParameter[]).flatMap(({ name, kind, description, schema }) =>
    kind === 'sort'
      ? SORT_FIELDS.map((field) => ({ name: `${name}[${field}]`, description, schema }))
      : [{ name, description, schema }],
  );
}
