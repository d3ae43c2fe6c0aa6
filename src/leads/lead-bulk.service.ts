import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { entry } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';
import type { AuditEntry } from '../storage/records.js';
import type { Author, LeadsService } from './leads.service.js';

/** Leads one bulk request may name: a page of the list view twice over, one request rather than a hundred. */
export const MAX_BULK_LEADS = 100;
export const BULK_ACTIONS = ['move', 'assign', 'tag', 'untag', 'remove'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_RULES = entry('LeadBulkInput', 'One action applied to each of several leads.', [
  [
    'leadIds',
    {
      type: 'strings',
      required: true,
      minItems: 1,
      maxItems: MAX_BULK_LEADS,
      unique: true,
      items: { type: 'string', minLength: 1, maxLength: 64, description: 'A leadId.' },
      description: `1 to ${MAX_BULK_LEADS} distinct leadIds, applied in this order.`,
    },
  ],
  [
    'action',
    {
      type: 'string',
      required: true,
      enum: BULK_ACTIONS,
      description:
        "move: to `stage` (in `pipeline`, default the lead's own) with `stageReasons`; assign: to `assignedTo` (null: nobody); " +
        'tag / untag: add / take away `tags`; remove: as DELETE …/leads/:leadId.',
    },
  ],
  ['pipeline', { type: 'string', description: 'move: the destination pipeline by name.' }],
  ['stage', { type: 'string', description: 'move (required): the destination stage by name.' }],
  [
    'stageReasons',
    {
      type: 'strings',
      maxItems: 20,
      items: { type: 'string', description: 'A reason label.' },
      description: 'move: the reasons, by label, as PATCH …/leads/:leadId takes them.',
    },
  ],
  ['assignedTo', { type: 'string', description: "assign: a member's e-mail; null or absent assigns nobody." }],
  [
    'tags',
    {
      type: 'strings',
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', description: 'A tag name.' },
      description: 'tag / untag (required): the tag names.',
    },
  ],
]);

interface BulkInput {
  leadIds: string[];
  action: BulkAction;
  pipeline?: string;
  stage?: string;
  stageReasons?: string[];
  assignedTo?: string;
  tags?: string[];
}

export type BulkResult =
  | { leadId: string; ok: true }
  | { leadId: string; ok: false; error: { code: string; message: string; errors?: FieldError[] } };

export interface BulkAnswer {
  action: BulkAction;
  succeeded: number;
  failed: number;
  results: BulkResult[];
}

/** What each action needs beside leadIds, and what it must not carry. */
const MEMBERS: Record<BulkAction, { required: string[]; allowed: string[] }> = {
  move: { required: ['stage'], allowed: ['pipeline', 'stage', 'stageReasons'] },
  assign: { required: [], allowed: ['assignedTo'] },
  tag: { required: ['tags'], allowed: ['tags'] },
  untag: { required: ['tags'], allowed: ['tags'] },
  remove: { required: [], allowed: [] },
};

/**
 * Bulk actions on leads (issue 39, docs/decisions.md "Bulk lead actions"): each lead is its own write,
 * through the same use case as one lead's (its own transaction, events and audit line), so one lead's
 * refusal leaves the others done; the answer lists every lead's outcome in the order sent.
 */
export class LeadBulkService {
  constructor(private readonly leads: LeadsService) {}

  read(body: unknown): BulkInput {
    const input = readBody<BulkInput>(body, BULK_RULES);
    const raw = body as Record<string, unknown>;
    const { required, allowed } = MEMBERS[input.action];
    const errors: FieldError[] = [
      ...required
        .filter((name) => raw[name] === undefined || raw[name] === null)
        .map((field) => ({
          field,
          code: 'INVALID_FIELD_VALUE' as const,
          message: `${field} is required to ${input.action}`,
        })),
      ...Object.keys(raw)
        .filter((name) => name !== 'leadIds' && name !== 'action' && !allowed.includes(name))
        .map((field) => ({
          field,
          code: 'INVALID_FIELD' as const,
          message: `${field} is not taken by ${input.action}`,
        })),
    ];
    if (errors.length > 0) throw AppError.fromFieldErrors(errors);
    return input;
  }

  /** `audit`: the operator's line for each lead (its detail gains the leadId), written in that lead's transaction. */
  async apply(urlKey: string, input: BulkInput, by: Author, audit: AuditEntry): Promise<BulkAnswer> {
    await this.leads.context(urlKey); // an unknown business is one 404, not a hundred
    const results: BulkResult[] = [];
    // One after the other: each lead's write holds one connection, and the answer keeps the order sent.
    for (const leadId of input.leadIds) {
      try {
        await this.one(urlKey, leadId, input, by, { ...audit, detail: { ...(audit.detail as object), leadId } });
        results.push({ leadId, ok: true });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const fieldErrors = error.fieldErrors?.length ? { errors: error.fieldErrors } : {};
        results.push({ leadId, ok: false, error: { code: error.code, message: error.message, ...fieldErrors } });
      }
    }
    const succeeded = results.filter((r) => r.ok).length;
    return { action: input.action, succeeded, failed: results.length - succeeded, results };
  }

  private async one(urlKey: string, leadId: string, input: BulkInput, by: Author, audit: AuditEntry): Promise<void> {
    if (input.action === 'remove') await this.leads.remove(urlKey, leadId, audit);
    else await this.leads.edit(urlKey, leadId, patchOf(input), by, audit);
  }
}

/**
 * The PATCH body an action makes for each lead. Tags go as tagsAdd / tagsRemove, applied to the lead as
 * its edit is written, so a tag another edit sets meanwhile is kept.
 */
function patchOf(input: BulkInput): Record<string, unknown> {
  switch (input.action) {
    case 'move':
      return {
        ...(input.pipeline !== undefined && { pipeline: input.pipeline }),
        stage: input.stage,
        stageReasons: input.stageReasons ?? [],
      };
    case 'assign':
      return { assignedTo: input.assignedTo ?? null };
    case 'tag':
      return { tagsAdd: input.tags };
    default:
      return { tagsRemove: input.tags };
  }
}
