import type { ReportMonth } from '../storage/reports-leads.store.js';
import type { AgeingBucket } from '../storage/reports-invoices.store.js';

/** The answers of the reports (reports.openapi.ts describes the same shapes; the routes check them with `satisfies`). */

/** What the page formats every report with: the business's locale, time zone and currency. */
export interface ReportFrame {
  /** ll-CC, the business country's default (as an invoice's default locale). */
  locale: string;
  timeZone: string;
  currency: string;
}

/** The months a period report covers, first and last (YYYY-MM), in the business's time zone. */
export interface ReportPeriod {
  firstMonth: string;
  lastMonth: string;
}

export interface StageOfReport {
  id: string;
  name: string;
  state: string;
  isArchived: boolean;
}

export interface PipelineReport extends ReportFrame {
  pipeline: string | null;
  stages: (StageOfReport & {
    closure: number | null;
    count: number;
    values: { currency: string; amount: string; weighted: string | null }[];
  })[];
  forecast: { currency: string; amount: string; weighted: string }[];
}

export interface OutcomesReport extends ReportFrame {
  period: ReportPeriod;
  pipeline: string | null;
  months: { month: string; won: number; lost: number }[];
  lostByReason: { reason: string | null; label: string | null; leads: number }[];
}

export interface StageFlowReport extends ReportFrame {
  period: ReportPeriod;
  pipeline: string | null;
  stages: (StageOfReport & {
    entered: number;
    won: number;
    conversion: number | null;
    stays: number;
    medianDays: number | null;
  })[];
}

/** An amount of invoice money in one currency and how many documents add up to it. */
export interface MoneyOfReport {
  currency: string;
  amount: string;
  count: number;
}

export interface InvoicingReport extends ReportFrame {
  period: ReportPeriod;
  months: { month: string; invoiced: MoneyOfReport[]; collected: MoneyOfReport[] }[];
}

export interface ReceivablesReport extends ReportFrame {
  /** Today's date in the business's time zone: the day days past due are counted to. */
  asOf: string;
  buckets: { bucket: AgeingBucket; amounts: MoneyOfReport[] }[];
}

export const periodOf = (months: readonly ReportMonth[]): ReportPeriod => ({
  firstMonth: months[0]!.month,
  lastMonth: months.at(-1)!.month,
});
