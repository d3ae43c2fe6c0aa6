/** The five lead statuses a stage can carry (docs/pipelines.md "Reading"). */
export const STAGE_STATES = ['NEW', 'OPEN', 'CLOSED', 'DROPPED', 'REJECTED'] as const;
export type StageState = (typeof STAGE_STATES)[number];

/** What people call each status (the dashboard's words), served beside the enum as `x-enumLabels`. */
export const STAGE_STATE_LABELS: Readonly<Record<StageState, string>> = {
  NEW: 'New',
  OPEN: 'Open',
  CLOSED: 'Won',
  DROPPED: 'Dropped',
  REJECTED: 'Rejected',
};

/** The schema of a stage's state (a lead's status): the enum and its labels, from the one list above. */
export const stageStateSchema = (description: string) => ({
  enum: [...STAGE_STATES],
  'x-enumLabels': STAGE_STATE_LABELS,
  description,
});

/**
 * A business's pipeline configuration as stored: one JSON document per business, in configured
 * order. Unset optional values are absent (never null), so a stored 0 stays distinguishable.
 */
export interface StoredStage {
  id: string;
  name: string;
  state: StageState;
  reasons: string[];
  labels: string[];
  closure?: number;
  decayThresholdHours?: number;
  isArchived: boolean;
  /** Issue 39: a lead written into this stage must carry at least one of its reasons. Absent: false. */
  requiresReason?: boolean;
}

export interface StoredPipeline {
  id: string;
  name: string;
  description?: string;
  isPrimary: boolean;
  isArchived: boolean;
  stages: StoredStage[];
}

export interface StoredReason {
  key: string;
  label: string;
  isArchived: boolean;
}

export interface PipelineConfig {
  pipelines: StoredPipeline[];
  stageReasons: StoredReason[];
}

/** A validated PUT body: entries without an id get one from the service. */
export type PipelineConfigInput = {
  pipelines: (Omit<StoredPipeline, 'id' | 'stages'> & {
    id?: string;
    stages: (Omit<StoredStage, 'id'> & { id?: string })[];
  })[];
  stageReasons: StoredReason[];
};

/** Ids of the business's current configuration: the only ids a PUT may carry. */
export interface KnownIds {
  pipelines: ReadonlySet<string>;
  stages: ReadonlySet<string>;
}

export const EMPTY_CONFIG: PipelineConfig = { pipelines: [], stageReasons: [] };
