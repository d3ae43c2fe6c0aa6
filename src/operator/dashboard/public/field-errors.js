// @ts-check
// Shows validation errors (data.error.errors[] of {field, message, code}) next to the control
// they name. Controls carry data-field="pipelines[0].stages[1].state"; an error whose exact path
// has no control goes to the nearest enclosing one (…reasons[2] → …reasons → the stage).
import { h, mount, uid } from './dom.js';

/**
 * An error as the API sends it in data.error.errors[]; the page's own checks may leave out the code.
 * @typedef {Omit<import('../../../../client/src/api-types.js').FieldError, 'code'> & { code?: string }} FieldError
 */
/** @typedef {(path: string) => string} DescribePath */

/** @param {string} path */
function parentPath(path) {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut > 0 ? path.slice(0, cut) : null;
}

/**
 * @param {ParentNode} container
 * @param {string} path
 * @returns {HTMLElement | null}
 */
function findTarget(container, path) {
  for (let /** @type {string | null} */ p = path; p; p = parentPath(p)) {
    // Controls and the boxes that hold them are HTML elements (the page builds them with h()).
    const el = /** @type {HTMLElement | null} */ (container.querySelector(`[data-field="${CSS.escape(p)}"]`));
    if (el) return el;
  }
  return null;
}

/**
 * The message without the field path it starts with, which the error's position already shows.
 * @param {Partial<FieldError>} error
 */
export function shortMessage(error) {
  const message = String(error.message ?? '');
  const field = String(error.field ?? '');
  if (!field || !message.startsWith(`${field} `)) return message;
  const rest = message.slice(field.length + 1);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * Removes every error shown by showFieldErrors in container.
 * @param {ParentNode} container
 */
export function clearFieldErrors(container) {
  container.querySelectorAll('.field-error').forEach((el) => el.remove());
  container.querySelectorAll('[aria-invalid="true"]').forEach((el) => {
    el.removeAttribute('aria-invalid');
    const kept = (el.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && !id.startsWith('err-'));
    if (kept.length) el.setAttribute('aria-describedby', kept.join(' '));
    else el.removeAttribute('aria-describedby');
  });
}

/**
 * Places each error after its control; returns the errors that found no control.
 * @param {ParentNode} container
 * @param {FieldError[]} [errors]
 * @returns {FieldError[]}
 */
export function showFieldErrors(container, errors = []) {
  /** @type {FieldError[]} */
  const unplaced = [];
  /** @type {HTMLElement | null} */
  let first = null;
  for (const error of errors) {
    const target = findTarget(container, error.field ?? '');
    if (!target) {
      unplaced.push(error);
      continue;
    }
    const id = uid('err');
    const note = h('p', { class: 'field-error', id }, shortMessage(error));
    const isControl = /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
    if (isControl) {
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', `${target.getAttribute('aria-describedby') ?? ''} ${id}`.trim());
      (target.closest('.field') ?? target.parentElement)?.append(note);
    } else {
      target.append(note);
    }
    first ??= isControl ? target : note;
  }
  if (first) {
    first.scrollIntoView({ block: 'center' });
    if (typeof first.focus === 'function') first.focus({ preventScroll: true });
  }
  return unplaced;
}

/**
 * "pipelines[0].stages[1].state" → "Pipeline 1 › stage 2 › state" for the summary banner.
 * @type {DescribePath}
 */
export function describePath(path) {
  return String(path ?? '')
    .replace(/^pipelines\[(\d+)\]/, (_, i) => `Pipeline ${Number(i) + 1}`)
    .replace(/\.stages\[(\d+)\]/g, (_, i) => ` › stage ${Number(i) + 1}`)
    .replace(/^stageReasons\[(\d+)\]/, (_, i) => `Reason ${Number(i) + 1}`)
    .replace(/^fields\[(\d+)\]/, (_, i) => `Field ${Number(i) + 1}`)
    .replace(
      /^(sources|tags|members)\[(\d+)\]/,
      (_, /** @type {'sources' | 'tags' | 'members'} */ list, i) =>
        `${{ sources: 'Source', tags: 'Tag', members: 'Member' }[list]} ${Number(i) + 1}`,
    )
    .replace(/\.(\w+)/g, ' › $1');
}

const lowerFirst = (/** @type {string} */ text) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The banner above a form: each field error with where it is, or the message alone. `describe` names a path for people.
 * @param {string} message
 * @param {FieldError[]} [errors]
 * @param {DescribePath} [describe]
 */
export function errorSummary(message, errors = [], describe = describePath) {
  const located = errors.filter((e) => e.field);
  if (located.length === 0) return h('div', { class: 'banner banner-error', role: 'alert' }, h('p', {}, message));
  return h(
    'div',
    { class: 'banner banner-error', role: 'alert' },
    h(
      'p',
      {},
      h(
        'strong',
        {},
        located.length === 1 ? 'One problem to fix before saving:' : `${located.length} problems to fix before saving:`,
      ),
    ),
    h(
      'ul',
      {},
      located.map((e) => h('li', {}, `${describe(e.field)}: ${lowerFirst(shortMessage(e))}`)),
    ),
  );
}

/**
 * A describe() for flat forms: the control's visible label for each field name the API uses.
 * @param {Record<string, string>} labels
 * @returns {DescribePath}
 */
export const labelsOf = (labels) => (path) => labels[path] ?? describePath(path);

/**
 * A failure of the page itself (not an API answer) still reads as one message.
 * @param {unknown} error an ApiError (api.js), or any other thrown value
 * @returns {FieldError[]}
 */
export const errorsOf = (/** @type {any} */ error) => (Array.isArray(error?.fieldErrors) ? error.fieldErrors : []);

/**
 * For a flat form (Businesses, Apps): each error beside its control (controls carry data-field with
 * the API's name), and a summary above naming the controls by their labels. Clears what was shown before.
 */
/**
 * @param {HTMLElement} form
 * @param {HTMLElement} messageEl
 * @param {Error} error
 * @param {Record<string, string>} labels
 */
export function reportFormError(form, messageEl, error, labels) {
  clearFieldErrors(form);
  const errors = errorsOf(error);
  mount(messageEl, errorSummary(error.message, errors, labelsOf(labels)));
  const unplaced = showFieldErrors(form, errors);
  if (errors.length === 0 || unplaced.length === errors.length) messageEl.scrollIntoView?.({ block: 'nearest' });
}

/**
 * Clears a form's inline errors and its summary, before a new attempt or after a success.
 * @param {HTMLElement} form
 * @param {HTMLElement} messageEl
 */
export function clearFormError(form, messageEl) {
  clearFieldErrors(form);
  mount(messageEl);
}
