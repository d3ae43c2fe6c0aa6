import { opaqueId } from '../auth/secrets.js';
import { AppError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { topicCache, type CachedLoader, type MaybePromise } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import type { BusinessesService } from '../operator/businesses.service.js';
import type { Store } from '../storage/store.js';
import { listAnswer } from './pipelines.present.js';
import { EMPTY_CONFIG, type KnownIds, type PipelineConfig, type PipelineConfigInput } from './pipelines.types.js';
import { readPipelineConfig } from './pipelines.validate.js';
import type { AuditEntry } from '../storage/records.js';

/**
 * Both public answers of one business, serialised and encoded once when loaded: a cached GET does no
 * JSON work, and sends bytes (a string of some kilobytes would be measured, joined to the headers
 * and encoded again on every send).
 */
export interface PublicAnswers {
  live: Buffer;
  all: Buffer;
}

export const PIPELINES_TOPIC = 'pipelines';

/**
 * Pipeline configuration: the public read (hot, served from memory) and the operator's
 * replace-the-whole-configuration write.
 */
export class PipelinesService {
  readonly answers: CachedLoader<PublicAnswers>;

  constructor(
    private readonly store: Store,
    private readonly businesses: Pick<BusinessesService, 'require'>,
    config: Pick<Config, 'cacheTtlMs'>,
    private readonly now: () => number,
  ) {
    // Dropped on `pipelines:<urlKey>` in every process (NOTIFY); the TTL bounds a lost notification.
    this.answers = topicCache(store.changes, PIPELINES_TOPIC, (urlKey) => this.buildAnswers(urlKey), {
      max: 10_000,
      ttlMs: config.cacheTtlMs,
    });
  }

  /** GET /api/v1/.../pipelines: the caller's business exists (the guard checked it). At once when cached. */
  publicAnswer(urlKey: string, includeArchived: boolean): MaybePromise<Buffer> {
    const pick = (answers: PublicAnswers | undefined) => (includeArchived ? answers!.all : answers!.live);
    const answers = this.answers.read(urlKey);
    return answers instanceof Promise ? answers.then(pick) : pick(answers);
  }

  async getForOperator(urlKey: string) {
    await this.businesses.require(urlKey);
    return listAnswer(await this.load(urlKey), true, 'operator').data;
  }

  /** One write replaces everything; a failing body changes nothing. Other processes hear of it through the change feed. */
  /** `audit`: the operator's line, written with the configuration (its detail: the pipelines saved). */
  async replace(urlKey: string, body: unknown, audit: AuditEntry | null = null) {
    await this.businesses.require(urlKey);
    const current = await this.load(urlKey);
    const input = readPipelineConfig(body, knownIds(current));
    const config = withIds(input);
    await this.refuseDroppingUsed(urlKey, current, config);
    const answer = listAnswer(config, true, 'operator').data;
    const line = audit && { ...audit, detail: { ...(audit.detail as object), pipelines: answer[0]!.pipelines.length } };
    await this.store.data.putPipelineConfig(urlKey, config, this.now(), line);
    await this.store.changes.publish(`${PIPELINES_TOPIC}:${urlKey}`);
    return answer;
  }

  /**
   * Leads keep their pipeline and stage by id and answer their current names, so a PUT may archive
   * them but not leave them out while a live lead still uses them (docs/pipelines.md "Writing (PUT)").
   */
  private async refuseDroppingUsed(urlKey: string, current: PipelineConfig, next: PipelineConfig): Promise<void> {
    const kept = knownIds(next);
    const droppedPipelines = current.pipelines.filter((p) => !kept.pipelines.has(p.id));
    const droppedStages = current.pipelines.flatMap((p) =>
      p.stages.filter((s) => !kept.stages.has(s.id)).map((s) => ({ pipeline: p, stage: s })),
    );
    if (droppedPipelines.length === 0 && droppedStages.length === 0) return;
    const used = await this.store.leads.pipelinesInUse(urlKey);
    const errors: FieldError[] = [];
    for (const p of droppedPipelines) {
      if (used.pipelineIds.has(p.id))
        errors.push({
          field: 'pipelines',
          code: 'INVALID_FIELD_VALUE',
          message: `pipeline ${JSON.stringify(p.name)} (id ${p.id}) is used by leads: keep it with isArchived true instead of leaving it out`,
        });
    }
    for (const { pipeline, stage } of droppedStages) {
      if (used.stageIds.has(stage.id) && !droppedPipelines.includes(pipeline)) {
        errors.push({
          field: 'pipelines',
          code: 'INVALID_FIELD_VALUE',
          message: `stage ${JSON.stringify(stage.name)} (id ${stage.id}) of pipeline ${JSON.stringify(pipeline.name)} is used by leads: keep it with isArchived true instead of leaving it out`,
        });
      }
    }
    if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  }

  private async load(urlKey: string): Promise<PipelineConfig> {
    return (await this.store.data.getPipelineConfig<PipelineConfig>(urlKey))?.document ?? EMPTY_CONFIG;
  }

  private async buildAnswers(urlKey: string): Promise<PublicAnswers> {
    const config = await this.load(urlKey);
    return {
      live: Buffer.from(JSON.stringify(listAnswer(config, false))),
      all: Buffer.from(JSON.stringify(listAnswer(config, true))),
    };
  }
}

function knownIds(config: PipelineConfig): KnownIds {
  return {
    pipelines: new Set(config.pipelines.map((p) => p.id)),
    stages: new Set(config.pipelines.flatMap((p) => p.stages.map((s) => s.id))),
  };
}

/** New entries get random opaque ids: nothing about the business, the row or the position leaks. */
function withIds(input: PipelineConfigInput): PipelineConfig {
  return {
    pipelines: input.pipelines.map((p) => ({
      ...p,
      id: p.id ?? opaqueId('pl_'),
      stages: p.stages.map((s) => ({ ...s, id: s.id ?? opaqueId('st_') })),
    })),
    stageReasons: input.stageReasons,
  };
}
