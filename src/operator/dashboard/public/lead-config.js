// @ts-check
// What the leads board and the lead page read besides leads: the pipelines with their stage
// reasons, and the lead settings (sources, tags, members, lead custom fields). Plus the few
// formatting rules both pages share (budget, follow-up dates against the business's "today").
import { labels } from './api-document.js';
import { api, seg } from './api.js';
import { h } from './dom.js';
import { calendarDay, money } from './locale-format.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').LeadConfig} LeadConfig
 * @typedef {import('./dashboard-types.js').Lead} Lead
 */

export const leadsBase = (/** @type {Business} */ business) => `/businesses/${seg(business.urlKey)}/leads`;

/**
 * @param {Business} business
 * @returns {Promise<LeadConfig>}
 */
export async function loadLeadConfig(business) {
  const base = `/businesses/${seg(business.urlKey)}`;
  const [pipelines, sources, tags, members, fields] = await Promise.all([
    api('GET', `${base}/pipelines`),
    api('GET', `${base}/lead-sources`),
    api('GET', `${base}/tags`),
    api('GET', `${base}/members`),
    api('GET', `${base}/lead-custom-fields`),
  ]);
  const config = Array.isArray(pipelines) ? pipelines[0] : pipelines;
  return {
    pipelines: config?.pipelines ?? [],
    stageReasons: config?.stageReasons ?? [],
    sources: sources?.sources ?? [],
    tags: tags?.tags ?? [],
    members: members?.members ?? [],
    fields: fields ?? [],
  };
}

/**
 * The live reasons a stage offers, as catalog entries {key, label}.
 * @param {LeadConfig} config
 * @param {{ reasons?: string[] } | null | undefined} stage
 */
export function reasonsOf(config, stage) {
  const byKey = new Map(config.stageReasons.filter((r) => !r.isArchived).map((r) => [r.key, r]));
  return (stage?.reasons ?? []).flatMap((key) => byKey.get(key) ?? []);
}

/**
 * In the business's locale (locale-format.js): en-IN ₹11,23,000.00.
 * @param {number | `${number}`} amount a number, or the server's exact decimal string (Intl formats it
 *   without going through a float)
 * @param {string} currency
 */
export const formatMoney = (amount, currency) => money(amount, currency);

export const formatBudget = (/** @type {{ amount: number, currency: string } | null | undefined} */ budget) =>
  budget ? formatMoney(budget.amount, budget.currency) : null;

/** Today's date (YYYY-MM-DD) in the business's time zone: follow-up dates before it are overdue. */
/** @param {string | undefined} timeZone */
export function todayIn(timeZone) {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(),
    );
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/** "2026-12-01T00:00:00.000Z" → "2026-12-01"; null stays null. */
export const dateOnly = (/** @type {string | null | undefined} */ value) => (value ? String(value).slice(0, 10) : null);

/** A follow-up day in the business's locale: en-IN 26 Nov 2026. @param {string} day YYYY-MM-DD */
export const formatDay = (day) => calendarDay(day);

/** The follow-up date as text, with "Overdue" marked in words (not by colour alone). */
/**
 * @param {{ followUpDate?: string | null }} lead
 * @param {string | undefined} timeZone
 */
export function followUpBadge(lead, timeZone) {
  const day = dateOnly(lead.followUpDate);
  if (!day) return null;
  const overdue = day < todayIn(timeZone);
  return h(
    'span',
    {
      class: `badge ${overdue ? 'badge-danger' : 'badge-muted'}`,
      title: overdue ? 'Follow-up date has passed' : 'Follow-up date',
    },
    overdue ? `Overdue · ${formatDay(day)}` : `Follow up ${formatDay(day)}`,
  );
}

/**
 * @param {LeadConfig} config
 * @param {string | null | undefined} email
 */
export function memberLabel(config, email) {
  if (!email) return null;
  const member = config.members.find((m) => m.email === email);
  return member ? member.name : email;
}

/** A lead's status in words (CLOSED is "Won"), as the server names them (the enum's x-enumLabels). */
export const STATUS_LABELS = labels('Lead.status');
