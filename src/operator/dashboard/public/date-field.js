// @ts-check
// A date control that keeps the browser's own picker (a phone's wheel or calendar, keyboard entry, screen
// readers' date semantics, an ISO value for the API) and writes the chosen day under it in the locale of
// the page's figures: Chromium draws <input type=date> in the browser's locale (11/26/2026) whatever the
// page says, while every other date on the page is the business's (26 Nov 2026). docs/decisions.md
// "Date fields in the business's locale".
import { h, uid } from './dom.js';

/** A calendar day "2026-11-26" in a locale, medium style as the page's other dates: en-IN 26 Nov 2026. */
/**
 * @param {string} isoDay
 * @param {string} locale
 */
export function calendarDay(isoDay, locale) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return '';
  const [year, month, dayOfMonth] = match.slice(1).map(Number);
  // A calendar day is no instant: formatted at UTC midnight in UTC, it is the same day in every zone.
  const instant = Date.UTC(year ?? 0, (month ?? 1) - 1, dayOfMonth ?? 1);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(instant);
}

/**
 * A labelled date field with the day echoed under it. The locale may come later (a promise, or
 * setLocale once an answer names it); until then nothing is echoed rather than a guess.
 * @param {string} label
 * @param {HTMLInputElement} input an <input type=date>
 * @param {string | Promise<string | undefined> | undefined} locale
 * @returns {{ element: HTMLElement, setLocale: (locale: string | undefined) => void }}
 */
export function dateField(label, input, locale) {
  if (!input.id) input.id = uid();
  const echo = h('p', { class: 'hint date-echo', id: `${input.id}-echo`, dataset: { dateEcho: input.name } });
  input.setAttribute('aria-describedby', echo.id);
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
  return { element: h('div', { class: 'field' }, h('label', { for: input.id }, label), input, echo), setLocale };
}
