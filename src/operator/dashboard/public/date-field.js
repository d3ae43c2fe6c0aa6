// @ts-check
// A date control that keeps the browser's own picker (a phone's wheel or calendar, keyboard entry, screen
// readers' date semantics, an ISO value for the API) and writes the chosen day under it in the locale of
// the page's figures: Chromium draws <input type=date> in the browser's locale (11/26/2026) whatever the
// page says, while every other date on the page is the business's (26 Nov 2026). docs/decisions.md
// "Date fields in the business's locale".
import { h, uid } from './dom.js';
import { calendarDay } from './locale-format.js';

/**
 * A labelled date field with the day echoed under it. The locale may come later (a promise, or
 * setLocale once an answer names it); until then nothing is echoed rather than a guess.
 * @param {string} label
 * @param {HTMLInputElement} input an <input type=date>
 * @param {string | Promise<string | undefined> | undefined} locale
 * @param {string} [hint] a rule to show under the field, as dom.js field() shows one
 * @returns {{ element: HTMLElement, setLocale: (locale: string | undefined) => void }}
 */
export function dateField(label, input, locale, hint) {
  if (!input.id) input.id = uid();
  const name = input.name || input.dataset.field;
  const echo = h('p', { class: 'hint date-echo', id: `${input.id}-echo`, dataset: { dateEcho: name } });
  const hintEl = hint ? h('p', { class: 'hint', id: `${input.id}-hint` }, hint) : null;
  input.setAttribute('aria-describedby', hintEl ? `${hintEl.id} ${echo.id}` : echo.id);
  /** @type {string | undefined} */
  let current = typeof locale === 'string' ? locale : undefined;
  const show = () => {
    echo.textContent = current && input.value ? calendarDay(input.value, current) : '';
  };
  const setLocale = (/** @type {string | undefined} */ next) => {
    current = next;
    show();
  };
  input.addEventListener('input', show);
  input.addEventListener('change', show);
  if (locale instanceof Promise) locale.then(setLocale, () => undefined);
  show();
  return {
    element: h('div', { class: 'field' }, h('label', { for: input.id }, label), input, echo, hintEl),
    setLocale,
  };
}
