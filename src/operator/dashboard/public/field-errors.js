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
 * @typedef {object} OperatorWords
 * @property {RegExp} field the API's field path
 * @property {string} [code] the error code, when it decides
 * @property {RegExp} [when] a pattern of the API's message, when the code alone does not decide
 * @property {string} label what the form calls the field (the summary names it so)
 * @property {string | ((apiMessage: string) => string)} message what the operator reads instead of the API's
 *   words (a function of the API's message when it names something the words keep, as a stage)
 * @property {string} [at] the path of the control the message belongs beside, when not the field's own
 */

/**
 * The API's messages name fields as a program sends them ("customer must have clientId or name"); the
 * dashboard says the same in the operator's words, beside the control they are about (issue 39 defect 7).
 * First match wins; an error no row matches keeps the API's message without its leading field path.
 * @type {OperatorWords[]}
 */
export const OPERATOR_WORDS = [
  {
    field: /^customer$/,
    code: 'INVALID_CUSTOMER',
    label: 'Customer',
    message: "Enter the customer's name, or pick one of your clients.",
  },
  { field: /^contact$/, code: 'INVALID_CONTACT', label: 'Contact', message: "Enter the contact person's name." },
  {
    field: /^customer\.clientId$/,
    code: 'CLIENT_NOT_FOUND',
    label: 'Customer',
    message: 'No such client: pick one from the suggestions, or type a name for a new client.',
    at: 'customer',
  },
  {
    field: /^followUpDate$/,
    when: /before today/,
    label: 'Follow-up date',
    message: 'Choose today or a later day: a follow-up cannot be in the past.',
  },
  { field: /^followUpDate$/, when: /must be a date/, label: 'Follow-up date', message: 'Enter a date.' },
  {
    field: /^eventTypes$/,
    when: /at least/,
    label: 'Event types',
    message: 'Tick at least one event type to send to this endpoint.',
  },
  {
    field: /^url$/,
    when: /required|must not be empty/,
    label: 'URL',
    message: 'Enter the address that receives the events.',
  },
  {
    field: /^stageReasons$/,
    code: 'STAGE_REASON_REQUIRED',
    label: 'Reasons',
    // 'stageReasons: stage "Lost" requires at least one reason' → 'Stage "Lost" requires … reason: tick one.'
    message: (api) => `${api.replace(/^stageReasons:?\s*stage/, 'Stage')}: tick one.`,
  },
];

/**
 * The row of OPERATOR_WORDS for an error, if any.
 * @param {Partial<FieldError>} error
 */
function wordsFor(error) {
  const field = String(error.field ?? '');
  const message = String(error.message ?? '');
  return OPERATOR_WORDS.find(
    (w) => w.field.test(field) && (!w.code || w.code === error.code) && (!w.when || w.when.test(message)),
  );
}

/**
 * The words of a row for an error.
 * @param {OperatorWords} words
 * @param {Partial<FieldError>} error
 */
const wordsOf = (words, error) =>
  typeof words.message === 'function' ? words.message(String(error.message ?? '')) : words.message;

/**
 * An error in the operator's words, placed at the control it belongs beside.
 * @param {FieldError} error
 * @returns {FieldError}
 */
export function inOperatorWords(error) {
  const words = wordsFor(error);
  return words ? { ...error, field: words.at ?? error.field, message: wordsOf(words, error) } : error;
}

/**
 * The message without the field path it starts with, which the error's position already shows.
 * @param {Partial<FieldError>} error
 */
export function shortMessage(error) {
  const words = wordsFor(error);
  if (words) return wordsOf(words, error);
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

/** Containers whose errors already go when their control is changed. */
const watched = new WeakSet();

/**
 * A message is about what the field held: once the operator changes the field (types, picks, ticks),
 * its messages go, and those of the blocks around it (a customer's message when its name is typed).
 * When none is left, the summary above the form goes too.
 * @param {ParentNode} container
 */
function clearOnEdit(container) {
  if (watched.has(container)) return;
  watched.add(container);
  const clear = (/** @type {Event} */ event) => {
    for (let el = /** @type {Element | null} */ (event.target); el && el !== container; el = el.parentElement) {
      el.querySelectorAll(':scope > .field-error').forEach((note) => note.remove());
      if (el.getAttribute('aria-invalid') === 'true') {
        el.removeAttribute('aria-invalid');
        const kept = (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter((id) => id && !id.startsWith('err-'));
        if (kept.length) el.setAttribute('aria-describedby', kept.join(' '));
        else el.removeAttribute('aria-describedby');
      }
    }
    if (container.querySelector('.field-error')) return;
    const scope = /** @type {Element} */ (container).closest?.('main') ?? document;
    scope.querySelectorAll('.field-error-summary').forEach((summary) => summary.remove());
  };
  container.addEventListener('input', clear);
  container.addEventListener('change', clear);
}

/**
 * Places each error after its control, in the operator's words; returns the errors that found no control.
 * @param {ParentNode} container
 * @param {FieldError[]} [errors]
 * @returns {FieldError[]}
 */
export function showFieldErrors(container, errors = []) {
  /** @type {FieldError[]} */
  const unplaced = [];
  /** @type {HTMLElement | null} */
  let first = null;
  clearOnEdit(container);
  for (const error of errors) {
    const target = findTarget(container, inOperatorWords(error).field ?? '');
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
 * An error that names its field (the API's always do; the page's own may not).
 * @param {Partial<FieldError>} error
 * @returns {error is FieldError}
 */
const isLocated = (error) => Boolean(error.field);

/**
 * The banner above a form: each field error with where it is, or the message alone. `describe` names a path for people.
 * @param {string} message
 * @param {Partial<FieldError>[]} [errors] those without a field are said as the message alone
 * @param {DescribePath} [describe]
 */
export function errorSummary(message, errors = [], describe = describePath) {
  const located = errors.filter(isLocated);
  if (located.length === 0) {
    const words = errors.length === 1 ? wordsFor(errors[0]) : undefined;
    return h(
      'div',
      { class: 'banner banner-error', role: 'alert' },
      h('p', {}, words ? wordsOf(words, errors[0]) : message),
    );
  }
  /** @param {FieldError} e */
  const where = (e) => wordsFor(e)?.label ?? describe(e.field);
  return h(
    'div',
    { class: 'banner banner-error field-error-summary', role: 'alert' },
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
      located.map((e) => h('li', {}, `${where(e)}: ${lowerFirst(shortMessage(e))}`)),
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
