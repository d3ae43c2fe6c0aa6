// @ts-check
// Operator accounts: the list, inviting an operator, and changing your own password (which ends
// your other sessions; this tab gets a new one).
import { limit } from './api-document.js';
import { api, replaceSessionToken } from './api.js';
import { field, formatDate, h, mount, toast } from './dom.js';
import { clearFormError, reportFormError } from './field-errors.js';

/** @typedef {import('./dashboard-types.js').OperatorSchemas['OperatorListed']} OperatorListed an operator account as GET /admin/v1/operators lists it */

const INVITE_LABELS = { email: 'E-mail', password: 'Temporary password' };
const PASSWORD_LABELS = { currentPassword: 'Current password', newPassword: 'New password' };

/** @param {OperatorListed[]} operators */
function operatorsTable(operators) {
  if (operators.length === 0) return h('div', { class: 'empty' }, h('p', {}, 'No operator account.'));
  return h(
    'table',
    { class: 'data-table stack', 'aria-label': 'Operators' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['E-mail', 'Added', ''].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      operators.map((o) =>
        h(
          'tr',
          { class: o.isCurrent ? 'current' : '' },
          h('td', { dataset: { label: 'E-mail' } }, o.email),
          h('td', { class: 'muted', dataset: { label: 'Added' } }, formatDate(o.createdAt)),
          h('td', {}, o.isCurrent ? h('span', { class: 'badge badge-ok' }, 'You') : null),
        ),
      ),
    ),
  );
}

/**
 * A small form whose submit runs `send`, with errors shown beside the fields they name.
 * @param {string} id the heading's id, which names the form
 * @param {string} title
 * @param {string} intro
 * @param {HTMLElement[]} fields
 * @param {string} label the submit button's
 * @param {Record<string, string>} labels each field name the API uses, as the form labels it
 * @param {() => Promise<void>} send
 */
function accountForm(id, title, intro, fields, label, labels, send) {
  const message = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, label);
  const form = h(
    'form',
    { class: 'card form-grid', 'aria-labelledby': id },
    h('h2', { id, tabindex: '-1' }, title),
    h('p', { class: 'muted' }, intro),
    message,
    fields,
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    clearFormError(form, message);
    try {
      await send();
    } catch (caught) {
      const error = /** @type {import('./api.js').ApiError} */ (caught);
      if (error.status !== 401) reportFormError(form, message, error, labels);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** @param {() => Promise<unknown>} reload */
function inviteForm(reload) {
  const email = h('input', {
    type: 'email',
    name: 'email',
    required: true,
    maxlength: limit('OperatorInput.email'),
    autocomplete: 'off',
    dataset: { field: 'email' },
  });
  const password = h('input', {
    type: 'password',
    name: 'password',
    required: true,
    minlength: limit('OperatorInput.password', 'minLength'),
    maxlength: limit('OperatorInput.password'),
    autocomplete: 'new-password',
    dataset: { field: 'password' },
  });
  return accountForm(
    'invite-title',
    'Invite an operator',
    'The new operator signs in with this e-mail and temporary password. Give the password by a safe channel; they should change it here after signing in.',
    [field('E-mail', email), field('Temporary password', password, 'At least 10 characters.')],
    'Invite operator',
    INVITE_LABELS,
    async () => {
      const created = await api('POST', '/operators', { email: email.value.trim(), password: password.value });
      email.value = '';
      password.value = '';
      toast(`${created.email} can now sign in.`);
      await reload();
      email.focus();
    },
  );
}

function passwordForm() {
  const current = h('input', {
    type: 'password',
    name: 'currentPassword',
    required: true,
    autocomplete: 'current-password',
    dataset: { field: 'currentPassword' },
  });
  const next = h('input', {
    type: 'password',
    name: 'newPassword',
    required: true,
    minlength: limit('PasswordChange.newPassword', 'minLength'),
    maxlength: limit('PasswordChange.newPassword'),
    autocomplete: 'new-password',
    dataset: { field: 'newPassword' },
  });
  const repeat = h('input', {
    type: 'password',
    name: 'repeatPassword',
    required: true,
    autocomplete: 'new-password',
    dataset: { field: 'repeatPassword' },
  });
  return accountForm(
    'password-title',
    'Change your password',
    'Your other sessions (other browsers and tabs) end when the password changes; this one stays signed in.',
    [
      field('Current password', current),
      field('New password', next, 'At least 10 characters.'),
      field('Repeat the new password', repeat),
    ],
    'Change password',
    { ...PASSWORD_LABELS, repeatPassword: 'Repeat the new password' },
    async () => {
      if (next.value !== repeat.value) {
        // Read by reportFormError as an API answer's field errors are (field-errors.js errorsOf).
        const error = /** @type {Error & { fieldErrors: import('./field-errors.js').FieldError[] }} */ (
          new Error('The two new passwords differ.')
        );
        error.fieldErrors = [
          {
            field: 'repeatPassword',
            message: 'repeatPassword must equal the new password',
            code: 'INVALID_FIELD_VALUE',
          },
        ];
        throw error;
      }
      const session = await api('POST', '/operators/me/password', {
        currentPassword: current.value,
        newPassword: next.value,
      });
      replaceSessionToken(session.accessToken, session.expiresAt);
      [current, next, repeat].forEach((input) => {
        input.value = '';
      });
      toast('Password changed. Your other sessions have ended.');
    },
  );
}

/** @param {HTMLElement} main */
export async function renderOperators(main) {
  const list = h('section', { class: 'card' });
  const reload = async () => mount(list, operatorsTable((await api('GET', '/operators')) ?? []));
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Operators'),
      h(
        'p',
        { class: 'subtitle' },
        'Everyone who can sign in to this dashboard and the operator API. Every account can do everything.',
      ),
    ),
    list,
    h('div', { class: 'two-columns' }, inviteForm(reload), passwordForm()),
  );
  await reload();
}
