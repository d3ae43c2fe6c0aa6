import { isCalendarDate } from '../clients/client.custom-fields.js';

/**
 * followUpDate (docs/leads.md "Edit"): `YYYY-MM-DD`, or an ISO 8601 instant whose UTC calendar date is
 * taken; never before today in the business's time zone.
 */

const INSTANT =
  /^([0-9]{4}-[0-9]{2}-[0-9]{2})T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})$/i;

/** The calendar date a value names, or undefined when it is neither form. */
export function parseFollowUpDate(value: string): string | undefined {
  if (isCalendarDate(value)) return value;
  const match = INSTANT.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  const date = new Date(time).toISOString().slice(0, 10);
  return isCalendarDate(date) ? date : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) in an IANA time zone; UTC for a name the platform does not know. */
export function todayIn(timeZone: string, now: number): string {
  let format = formatters.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      format = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    }
    // Bounded: time zone names are a fixed, small set.
    if (formatters.size < 1000) formatters.set(timeZone, format);
  }
  return format.format(now);
}
