// @ts-check
// "New lead" on the board: the operator create (leads-interface 7, POST …/leads without externalId),
// into a stage of the pipeline on screen. The customer is an existing client picked by search, or a
// new one made on purpose: a client with the same normalised name is offered first (client-picker.js).
// Errors stay in the form, next to the field they name.
import { limit } from './api-document.js';
import { api } from './api.js';
import { clientPicker, likelyDuplicates } from './client-picker.js';
import { field, h, mount, toast } from './dom.js';
import { clearFieldErrors, errorSummary, showFieldErrors } from './field-errors.js';
import { leadsBase } from './lead-config.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').OperatorPipeline} OperatorPipeline
 * @typedef {import('./dashboard-types.js').Lead} Lead
 * @typedef {import('./client-picker.js').ClientPicker} ClientPicker
 * @typedef {import('./client-picker.js').ClientSummary} ClientSummary
 */

/**
 * @param {string} path
 * @param {Record<string, unknown>} [attrs]
 */
const input = (path, attrs = {}) => h('input', { type: 'text', ...attrs, dataset: { field: path } });

/**
 * A labelled field whose wrapper also answers for `block` (an error naming `customer` lands here).
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} block
 */
function blockField(label, control, block) {
  const el = field(label, control);
  el.dataset.field = block;
  return el;
}

/**
 * The form; onCreated(lead) runs after a create. Answers the form element (hidden until opened).
 * @param {Ctx} ctx
 * @param {LeadConfig} config
 * @param {OperatorPipeline} pipeline
 * @param {(lead: Lead) => unknown} onCreated
 * @param {() => void} onCancel
 */
export function newLeadForm(ctx, config, pipeline, onCreated, onCancel) {
  const c = {
    subject: input('subject', { maxlength: limit('OperatorLeadCreate.subject') }),
    customer: input('customer.name', { maxlength: limit('OperatorLeadCreate.customer.name') }),
    contact: input('contact.name', { maxlength: limit('OperatorLeadCreate.contact.name') }),
    email: input('contact.email', { type: 'email', maxlength: limit('OperatorLeadCreate.contact.email') }),
    stage: h(
      'select',
      { dataset: { field: 'stage' } },
      pipeline.stages.filter((s) => !s.isArchived).map((s) => h('option', { value: s.name }, s.name)),
    ),
    amount: h('input', { type: 'number', min: 0, step: 'any', dataset: { field: 'budget.amount' } }),
    assignee: h(
      'select',
      { dataset: { field: 'assignedTo' } },
      h('option', { value: '' }, 'Unassigned'),
      config.members.filter((m) => !m.isArchived).map((m) => h('option', { value: m.email }, m.name)),
    ),
  };
  const picker = clientPicker(ctx, c.customer);
  const duplicate = h('div', { class: 'client-duplicate' });
  // The name the operator chose to make a new client with, though a same-named client exists.
  /** @type {string | null} */
  let newOnPurpose = null;
  const message = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create lead');
  const cancel = h('button', { type: 'button', class: 'secondary', onclick: onCancel }, 'Cancel');
  const form = h(
    'form',
    { class: 'card form-grid two-up new-lead', 'aria-labelledby': 'new-lead-title' },
    h('h2', { id: 'new-lead-title' }, `New lead in ${pipeline.name}`),
    message,
    field('Subject', c.subject),
    blockField('Customer name (search by name or clientId)', c.customer, 'customer'),
    h('div', { class: 'client-pick' }, picker.nodes, duplicate),
    blockField('Contact name', c.contact, 'contact'),
    field('Contact e-mail (optional)', c.email),
    field('Stage', c.stage),
    field('Budget amount (optional)', c.amount),
    field('Assigned to', c.assignee),
    h('div', { class: 'form-actions' }, cancel, ' ', submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    mount(message);
    clearFieldErrors(form);
    const value = (/** @type {HTMLInputElement} */ el) => el.value.trim();
    mount(duplicate);
    if (!picker.linked && value(c.customer) && newOnPurpose !== value(c.customer)) {
      const same = await likelyDuplicates(ctx.business, value(c.customer)).catch(() => []);
      if (same.length > 0) {
        offerDuplicate(duplicate, same[0], picker, () => {
          newOnPurpose = value(c.customer);
          form.requestSubmit();
        });
        return;
      }
    }
    const body = {
      pipeline: pipeline.name,
      stage: c.stage.value,
      customer: picker.linked
        ? { clientId: picker.linked.clientId }
        : value(c.customer)
          ? { name: value(c.customer) }
          : {},
      contact: {
        ...(value(c.contact) ? { name: value(c.contact) } : {}),
        ...(value(c.email) ? { email: value(c.email) } : {}),
      },
      ...(value(c.subject) ? { subject: value(c.subject) } : {}),
      ...(value(c.amount) ? { budget: { amount: Number(value(c.amount)) } } : {}),
      ...(c.assignee.value ? { assignedTo: c.assignee.value } : {}),
    };
    submit.disabled = true;
    try {
      /** @type {Lead} */
      const lead = await api('POST', leadsBase(ctx.business), body);
      toast(`Lead “${lead.subject ?? lead.customer.name}” created.`);
      await onCreated(lead);
    } catch (error) {
      if (error.status === 401) return;
      showFieldErrors(form, error.fieldErrors);
      mount(
        message,
        errorSummary(error.message, error.fieldErrors.length ? error.fieldErrors : [{ message: error.message }]),
      );
    } finally {
      submit.disabled = false;
    }
  });
  queueMicrotask(() => c.subject.focus());
  return form;
}

/**
 * A client of the same name exists: link it, or make a new client on purpose.
 * @param {HTMLElement} container
 * @param {ClientSummary} client
 * @param {ClientPicker} picker
 * @param {() => void} createAnyway
 */
function offerDuplicate(container, client, picker, createAnyway) {
  mount(
    container,
    h(
      'div',
      { class: 'banner banner-info', role: 'alert' },
      h('p', {}, `A client named “${client.name}” already exists (${client.clientId}). Link the lead to it?`),
      h(
        'div',
        { class: 'form-actions' },
        h(
          'button',
          { type: 'button', class: 'primary', onclick: () => (mount(container), picker.link(client)) },
          'Use the existing client',
        ),
        ' ',
        h('button', { type: 'button', class: 'secondary', onclick: createAnyway }, 'Create a new client anyway'),
      ),
    ),
  );
}
