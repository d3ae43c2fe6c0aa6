import { addDays, calendarDateIn, startOfDay } from '../invoices/invoice.dates.js';
import type { ReportMonth } from '../storage/reports-leads.store.js';
import type { AgeingEdges } from '../storage/reports-invoices.store.js';

/**
 * A report's period and ages, in the business's time zone (docs/decisions.md, "Reports: months"): a
 * month runs from 00:00 of its first day there to 00:00 of the next month's first day; the period is the
 * `count` months ending with the current one. Pure: the store receives the instants as data.
 */

/** How many months a report covers: the query parameter's bounds and default, read by parser and document. */
export const MONTHS_PARAMETER = { minimum: 1, maximum: 24, default: 12 } as const;

export function periodMonths(timeZone: string, now: number, count: number): ReportMonth[] {
  const today = calendarDateIn(timeZone, now);
  let year = Number(today.slice(0, 4));
  let month = Number(today.slice(5, 7)) - (count - 1);
  while (month < 1) {
    month += 12;
    year -= 1;
  }
  const months: ReportMonth[] = [];
  for (let i = 0; i < count; i++) {
    const label = `${year}-${String(month).padStart(2, '0')}`;
    const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
    months.push({ month: label, from: startOfDay(`${label}-01`, timeZone), to: startOfDay(`${next}-01`, timeZone) });
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/**
 * Days past due are calendar days in the zone: an invoice due on today's date is 0 days past due, so it
 * is in "0-30"; one due tomorrow or later (or with no due date) is current; due 31 days ago is "31-60".
 */
export function ageingEdges(timeZone: string, now: number): AgeingEdges & { today: string } {
  const today = calendarDateIn(timeZone, now);
  const edge = (days: number) => new Date(startOfDay(addDays(today, days), timeZone)).toISOString();
  return { today, dueAfterToday: edge(1), over30: edge(-30), over60: edge(-60), over90: edge(-90) };
}
