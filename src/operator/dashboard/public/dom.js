// @ts-check
// Small DOM helpers: the page builds every element through h(), so nothing is parsed as HTML
// and no inline style or handler ever exists (the page runs under a strict CSP).

/**
 * A child as h() and mount() take it: a node, text, or nothing (skipped), or a list of them.
 * @typedef {Node | string | number | boolean | null | undefined | ChildList} Child
 * @typedef {Child[]} ChildList
 */

/**
 * h('button', {class: 'primary', onclick}, 'Save') → element. Attributes starting with "on" become listeners.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name === 'value' || name === 'checked' || name === 'selected') /** @type {any} */ (el)[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of /** @type {any[]} */ (children).flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces the children of el.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let idCounter = 0;
/** A unique element id, for label/aria wiring. */
export function uid(prefix = 'f') {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/**
 * A labelled form field: <div class="field"><label for>…</label><input id></div>.
 * @param {Child} label
 * @param {HTMLElement} control
 * @param {Child} [hint]
 */
export function field(label, control, hint) {
  if (!control.id) control.id = uid();
  const hintEl = hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

/**
 * A status message announced to assistive technology; fades after a few seconds.
 * @param {Child} message
 * @param {'success' | 'error' | 'info'} [kind]
 */
export function toast(message, kind = 'success') {
  const region = document.getElementById('toasts');
  if (!region) return;
  const item = h('div', { class: `toast toast-${kind}` }, message);
  region.append(item);
  while (region.firstElementChild && region.children.length > 3) region.firstElementChild.remove();
  setTimeout(() => item.remove(), 5000);
}

/**
 * An error banner (role=alert) for a view; returns the element so callers can place it.
 * @param {Child} message
 */
export function errorBanner(message) {
  return h('div', { class: 'banner banner-error', role: 'alert' }, message);
}

/**
 * Copies text to the clipboard, falling back to a hidden textarea where the API is unavailable.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * One button of a dialog: closes it with `value` (only once `check()` answers true, when given).
 * @typedef {{ label: string, value: unknown, class?: string, check?: () => boolean }} DialogAction
 */

/**
 * A modal <dialog>; resolves with the value passed to close().
 * @param {{ title: Child, body: Child, actions: DialogAction[], dismissable?: boolean }} dialog
 * @returns {Promise<unknown>} the chosen action's value; undefined when dismissed
 */
export function openDialog({ title, body, actions, dismissable = true }) {
  return new Promise((resolve) => {
    const titleId = uid('dlg');
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId });
    const close = (/** @type {unknown} */ value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    // An action with `check` closes only when check() answers true (the dialog shows why otherwise).
    const buttons = actions.map((a) =>
      h(
        'button',
        {
          type: 'button',
          class: a.class ?? '',
          onclick: () => {
            if (!a.check || a.check()) close(a.value);
          },
        },
        a.label,
      ),
    );
    dialog.append(
      h('h2', { id: titleId }, title),
      h('div', { class: 'dialog-body' }, body),
      h('div', { class: 'dialog-actions' }, buttons),
    );
    dialog.addEventListener('cancel', (event) => {
      if (!dismissable) event.preventDefault();
      else close(undefined);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * Asks for confirmation; resolves true when the operator confirms.
 * @param {Child} title
 * @param {Child} message
 * @param {string} confirmLabel
 */
export async function confirmAction(title, message, confirmLabel, danger = false) {
  const answer = await openDialog({
    title,
    body: h('p', {}, message),
    actions: [
      { label: 'Cancel', value: false, class: 'secondary' },
      { label: confirmLabel, value: true, class: danger ? 'danger' : 'primary' },
    ],
  });
  return answer === true;
}

/**
 * A button that disables itself while its async action runs.
 * @param {Child} label
 * @param {() => unknown} action
 * @param {Record<string, any>} [attrs]
 */
export function actionButton(label, action, attrs = {}) {
  const button = h('button', { type: 'button', ...attrs }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/**
 * The values of the checked boxes (or radios) inside a container, in document order.
 * @param {ParentNode} container
 */
export function checkedValues(container) {
  return [...container.querySelectorAll('input:checked')].flatMap((i) =>
    i instanceof HTMLInputElement ? [i.value] : [],
  );
}

/** An instant for people: the reader's clock, the business's locale (locale-format.js); '—' for none. */
export { dateTime as formatDate } from './locale-format.js';
