import { isCalendarDate } from '../clients/client.custom-fields.js';
import { todayIn } from '../leads/lead.dates.js';

/**
 * Invoice dates (invoices-interface 3.8): `YYYY-MM-DD`, 00:00:00.000 of that day in the business's time
 * zone, or an ISO 8601 instant with `Z` or an offset; years 1970 to 9999. Answers are UTC instants.
 */

const INSTANT =
  /^([0-9]{4})-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})$/i;
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;

/** The instant a date value names, or undefined when it is neither form or out of the years. */
export function parseInvoiceDate(value: string, timeZone: string): number | undefined {
  if (isCalendarDate(value)) {
    const year = Number(value.slice(0, 4));
    return year >= FIRST_YEAR && year <= LAST_YEAR ? startOfDay(value, timeZone) : undefined;
  }
  const match = INSTANT.exec(value);
  if (!match || !isCalendarDate(value.slice(0, 10))) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  const year = new Date(time).getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR ? time : undefined;
}

/** An instant's calendar date (YYYY-MM-DD) in the zone. */
export function calendarDateIn(timeZone: string, at: number): string {
  return todayIn(timeZone, at);
}

/** 00:00 of a calendar date in the zone, as an instant: the zone's offset found at that moment. */
export function startOfDay(date: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00.000Z`);
  let guess = utcMidnight - offsetAt(timeZone, utcMidnight);
  // Once more at the guess: an offset change between UTC midnight and local midnight moves it.
  guess = utcMidnight - offsetAt(timeZone, guess);
  return guess;
}

/** A calendar date plus whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (Asia/Kolkata: +19,800,000). */
function offsetAt(timeZone: string, at: number): number {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Bounded: zone names are a small fixed set.
    if (partsFormats.size < 1000) partsFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return local - Math.floor(at / 1000) * 1000;
}
