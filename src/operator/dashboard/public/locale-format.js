// @ts-check
// Every amount and date the dashboard draws goes through this module: Intl in the business's locale, never
// the browser's. The locale is the one the server names (the Business answer's `locale`, derived from its
// country; an invoice's own `locale` on invoice pages), so an Indian business reads ₹11,23,000.00 and
// 26 Nov 2026 whatever language the operator's browser speaks. docs/decisions.md "Figures in the
// business's locale".

/** The server's rule for a country with no document locale, and the page's before any business is known. */
const FALLBACK_LOCALE = 'en-US';

let current = FALLBACK_LOCALE;

/**
 * The locale of the business picked in the header (app.js sets it on every render of a section).
 * @param {string | null | undefined} locale
 */
export function useLocale(locale) {
  current = locale || FALLBACK_LOCALE;
}

/** The locale figures are drawn in now. */
export const currentLocale = () => current;

/** A money value of an answer (JSON number or decimal text) with its currency's symbol: en-IN ₹11,23,000.00. */
/**
 * @param {number | string | null | undefined} value
 * @param {string} currency
 * @param {string} [locale] the business's unless an answer names another (an invoice's)
 */
export function money(value, currency, locale = current) {
  if (value === null || value === undefined || value === '') return '—';
  // Decimal text is formatted exactly (Intl.NumberFormat v3); the ES2022 types know numbers only.
  const exact = /** @type {number} */ (/** @type {unknown} */ (String(value)));
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(
      exact,
    );
  } catch {
    // A currency code Intl does not know: the figure in the locale's digits, then the code.
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(exact)} ${currency}`;
  }
}

/** An instant's calendar date in the business's time zone, medium style: en-IN 26 Nov 2026. */
/**
 * @param {string | null | undefined} iso
 * @param {string | undefined} [locale]
 * @param {string | undefined} [timeZone]
 */
export function day(iso, locale = current, timeZone = undefined) {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(new Date(iso));
}

/** A calendar day "2026-11-26" (a follow-up date, a report's as-of day), medium style: en-IN 26 Nov 2026. */
/**
 * @param {string} isoDay
 * @param {string} [locale]
 */
export function calendarDay(isoDay, locale = current) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDay);
  if (!match) return isoDay;
  const [year, month, dayOfMonth] = match.slice(1).map(Number);
  // A calendar day is no instant: formatted at UTC midnight in UTC, it is the same day in every zone.
  const instant = Date.UTC(year ?? 0, (month ?? 1) - 1, dayOfMonth ?? 1);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(instant);
}

/**
 * An instant with its time (audit lines, webhook attempts, a lead's creation), in the reader's clock but the
 * business's way of writing it: en-IN 26 Nov 2026, 3:04:05 pm. '—' for none.
 * @param {string | null | undefined} iso
 */
export function dateTime(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/** A time of day, hours and minutes (when a sign-in lockout ends). @param {Date} date */
export const clockTime = (date) =>
  new Intl.DateTimeFormat(current, { hour: '2-digit', minute: '2-digit' }).format(date);

/**
 * A report's figures (the business's locale, as the report answer names it): money per currency exact to
 * the last digit the server sends (a weighted forecast's 0.025), counts, percentages, days, months.
 * @param {string} locale
 */
export function reportFormatters(locale) {
  /** @type {Map<string, Intl.NumberFormat>} */
  const money = new Map();
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const days = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  return {
    /** @param {string} amount @param {string} currency */
    money(amount, currency) {
      let format = money.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 20 });
        money.set(currency, format);
      }
      return format.format(/** @type {any} */ (amount));
    },
    /** @param {number} n */
    count: (n) => count.format(n),
    /** @param {number | null} ratio */
    percent: (ratio) => (ratio === null ? '—' : percent.format(ratio)),
    /** @param {number | null} n */
    days: (n) => (n === null ? '—' : days.format(n)),
    /** @param {string} yyyyMm */
    month: (yyyyMm) => month.format(Date.UTC(Number(yyyyMm.slice(0, 4)), Number(yyyyMm.slice(5, 7)) - 1, 1)),
  };
}
