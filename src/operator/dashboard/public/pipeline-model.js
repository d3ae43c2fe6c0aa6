// @ts-check
// The pipeline editor's working copy, and its conversion from the GET answer and to the PUT body.
// Inputs keep text while editing; toBody() turns it into exactly the keys the operator API accepts.

/**
 * The working copy: numbers and labels as the inputs hold them (text), ids only on saved entries.
 * @typedef {{ id?: string, name: string, state: string, reasons: string[], labels: string, closure: string,
 *   decayThresholdHours: string, isArchived: boolean, requiresReason: boolean }} StageDraft
 * @typedef {{ id?: string, name: string, description: string, isPrimary: boolean, isArchived: boolean,
 *   stages: StageDraft[] }} PipelineDraft
 * @typedef {{ key: string, label: string, isArchived: boolean, saved: boolean, keyEdited?: boolean }} ReasonDraft
 * @typedef {{ pipelines: PipelineDraft[], stageReasons: ReasonDraft[] }} Model
 */

const numberText = (/** @type {unknown} */ value) => (typeof value === 'number' ? String(value) : '');

/**
 * @param {any} config the GET answer's configuration (OperatorPipelineConfiguration), or nothing
 * @returns {Model}
 */
export function toModel(config) {
  return {
    pipelines: (config?.pipelines ?? []).map((/** @type {any} */ p) => ({
      id: p.id,
      name: p.name ?? '',
      description: p.description ?? '',
      isPrimary: Boolean(p.isPrimary),
      isArchived: Boolean(p.isArchived),
      stages: (p.stages ?? []).map((/** @type {any} */ s) => ({
        id: s.id,
        name: s.name ?? '',
        state: s.state ?? 'OPEN',
        reasons: [...(s.reasons ?? [])],
        labels: (s.labels ?? []).join(', '),
        closure: numberText(s.closure),
        decayThresholdHours: numberText(s.decayThresholdHours),
        isArchived: Boolean(s.isArchived),
        requiresReason: Boolean(s.requiresReason),
      })),
    })),
    stageReasons: (config?.stageReasons ?? []).map((/** @type {any} */ r) => ({
      key: r.key ?? '',
      label: r.label ?? '',
      isArchived: Boolean(r.isArchived),
      saved: true,
    })),
  };
}

/**
 * @param {boolean} isFirst
 * @returns {StageDraft}
 */
export function newStage(isFirst) {
  return {
    name: '',
    state: isFirst ? 'NEW' : 'OPEN',
    reasons: [],
    labels: '',
    closure: '',
    decayThresholdHours: '',
    isArchived: false,
    requiresReason: false,
  };
}

/**
 * @param {boolean} isFirst
 * @returns {PipelineDraft}
 */
export function newPipeline(isFirst) {
  return { name: '', description: '', isPrimary: isFirst, isArchived: false, stages: [newStage(true)] };
}

/** @returns {ReasonDraft} */
export function newReason() {
  return { key: '', label: '', isArchived: false, saved: false, keyEdited: false };
}

/** A number input's text: empty means "not set" (omitted); anything else is sent as a number. */
/** @param {string} text */
function numberValue(text) {
  const trimmed = String(text).trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

/** @param {StageDraft} s */
function stageBody(s) {
  /** @type {Record<string, unknown>} */
  const body = {
    name: s.name,
    state: s.state,
    reasons: [...s.reasons],
    labels: s.labels
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean),
  };
  if (s.id) body.id = s.id;
  const closure = numberValue(s.closure);
  if (closure !== undefined) body.closure = closure;
  const decay = numberValue(s.decayThresholdHours);
  if (decay !== undefined) body.decayThresholdHours = decay;
  body.isArchived = s.isArchived;
  body.requiresReason = s.requiresReason;
  return body;
}

/** @param {Model} model */
export function toBody(model) {
  return {
    pipelines: model.pipelines.map((p) => {
      /** @type {Record<string, unknown>} */
      const body = { name: p.name };
      if (p.id) body.id = p.id;
      if (p.description.trim() !== '') body.description = p.description;
      body.isPrimary = p.isPrimary;
      body.isArchived = p.isArchived;
      body.stages = p.stages.map(stageBody);
      return body;
    }),
    stageReasons: model.stageReasons.map((r) => ({ key: r.key, label: r.label, isArchived: r.isArchived })),
  };
}

/** Moves list[index] by delta (−1 up, +1 down) when the target position exists. */
/**
 * @param {unknown[]} list
 * @param {number} index
 * @param {number} delta
 */
export function move(list, index, delta) {
  const target = index + delta;
  if (target < 0 || target >= list.length) return false;
  const [item] = list.splice(index, 1);
  list.splice(target, 0, item);
  return true;
}

/** A reason key proposed from its label: "Too expensive" → "too-expensive". */
/** @param {string} label */
export function keyFromLabel(label) {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}
