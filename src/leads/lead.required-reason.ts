import type { FieldError } from '../errors/codes.js';
import type { StoredStage } from '../pipelines/pipelines.types.js';

/**
 * Issue 39, "Required reasons": a stage the operator marked `requiresReason` refuses a lead written
 * into it without one (a create, a move whose reasons are cleared, or `stageReasons: []`). Checked only
 * where the write decides the lead's reasons, so a lead already there is not held to it by other edits.
 * Labels that fail to resolve are INVALID_STAGE_REASON already, so only "none sent" is reported here.
 */
export function requireReason(
  stage: StoredStage,
  labelsSent: readonly string[] | undefined,
  fail: (field: string, code: FieldError['code'], message: string) => void,
): void {
  if (stage.requiresReason === true && (labelsSent ?? []).length === 0) {
    fail(
      'stageReasons',
      'STAGE_REASON_REQUIRED',
      `stageReasons: stage ${JSON.stringify(stage.name)} requires at least one reason`,
    );
  }
}
