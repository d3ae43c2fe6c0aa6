// @ts-check
// Moving a lead to another stage: the same steps whether the card was dropped on a column or the
// stage was picked from the card's menu. A stage that offers reasons asks for them first.
import { api, seg } from './api.js';
import { h, openDialog, uid } from './dom.js';
import { STATUS_LABELS, reasonsOf } from './lead-config.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./dashboard-types.js').OperatorPipeline} OperatorPipeline
 * @typedef {import('./dashboard-types.js').OperatorStage} OperatorStage
 * @typedef {import('./dashboard-types.js').StageReason} StageReason
 */

/**
 * The card's keyboard menu: every live stage of the pipeline, the current one marked. Resolves a stage or undefined.
 * @param {OperatorPipeline} pipeline
 * @param {Lead} lead
 * @returns {Promise<OperatorStage | undefined>}
 */
export async function chooseStage(pipeline, lead) {
  const name = uid('stage');
  const stages = pipeline.stages.filter((s) => !s.isArchived);
  const radios = stages.map((stage) => {
    const input = h('input', { type: 'radio', name, value: stage.id, checked: stage.name === lead.stage });
    return {
      stage,
      input,
      label: h(
        'label',
        { class: 'choice' },
        input,
        ' ',
        stage.name,
        ' ',
        h('span', { class: 'muted' }, `(${STATUS_LABELS[stage.state] ?? stage.state})`),
      ),
    };
  });
  const body = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, `Move “${cardTitle(lead)}” to`),
    radios.map((r) => r.label),
  );
  queueMicrotask(() => (radios.find((r) => r.input.checked) ?? radios[0])?.input.focus());
  const answer = await openDialog({
    title: 'Move to stage',
    body,
    actions: [
      { label: 'Cancel', value: false, class: 'secondary' },
      { label: 'Move', value: true, class: 'primary' },
    ],
  });
  if (answer !== true) return undefined;
  const picked = radios.find((r) => r.input.checked)?.stage;
  return picked && picked.name !== lead.stage ? picked : undefined;
}

/**
 * Asks which reasons apply when moving into a stage that offers some. Resolves labels, or undefined when cancelled.
 * @param {OperatorStage} stage
 * @param {StageReason[]} reasons
 * @param {Lead} lead
 * @returns {Promise<string[] | undefined>}
 */
export async function askReasons(stage, reasons, lead) {
  const boxes = reasons.map((reason) => ({ reason, input: h('input', { type: 'checkbox', value: reason.label }) }));
  const required = stage.requiresReason === true;
  // A stage that requires a reason refuses none here, as the API does (STAGE_REASON_REQUIRED), in words next to the reasons.
  const error = h(
    'p',
    { class: 'field-error', id: uid('reasons-error'), hidden: true },
    `“${stage.name}” needs at least one reason: choose the reasons that apply.`,
  );
  const set = h(
    'fieldset',
    { class: 'choices', 'aria-describedby': error.id },
    h('legend', {}, required ? 'Reasons (at least one)' : 'Reasons'),
    boxes.map(({ reason, input }) => h('label', { class: 'choice' }, input, ' ', reason.label)),
    error,
  );
  const body = h(
    'div',
    {},
    h('p', {}, `“${stage.name}” asks why “${cardTitle(lead)}” moves there. Choose every reason that applies.`),
    set,
  );
  const check = () => {
    const ok = !required || boxes.some((b) => b.input.checked);
    error.hidden = ok;
    set.setAttribute('aria-invalid', String(!ok));
    if (!ok) boxes[0]?.input.focus();
    return ok;
  };
  queueMicrotask(() => boxes[0]?.input.focus());
  const answer = await openDialog({
    title: `Reasons for ${stage.name}`,
    body,
    actions: [
      { label: 'Cancel', value: false, class: 'secondary' },
      { label: 'Move with these reasons', value: true, class: 'primary', check },
    ],
  });
  if (answer !== true) return undefined;
  return boxes.filter((b) => b.input.checked).map((b) => b.reason.label);
}

export const cardTitle = (/** @type {Pick<Lead, 'subject' | 'customer'>} */ lead) =>
  lead.subject ?? lead.customer?.name ?? 'Lead';

/**
 * Moves lead into stage (of its pipeline), asking for reasons when the stage has some; `sending` is
 * called once the operator has decided, just before the request (the board shows the move as pending).
 * Resolves the updated lead, or null when the operator cancelled.
 * @param {Business} business
 * @param {LeadConfig} config
 * @param {Lead} lead
 * @param {OperatorStage} stage
 * @returns {Promise<Lead | null>}
 */
export async function moveLead(business, config, lead, stage, sending = () => {}) {
  const reasons = reasonsOf(config, stage);
  /** @type {import('./dashboard-types.js').Schemas['LeadPatch']} */
  const body = { stage: stage.name };
  if (reasons.length > 0) {
    const labels = await askReasons(stage, reasons, lead);
    if (labels === undefined) return null;
    body.stageReasons = labels;
  }
  sending();
  return api('PATCH', `/businesses/${seg(business.urlKey)}/leads/${seg(lead.leadId)}`, body);
}
