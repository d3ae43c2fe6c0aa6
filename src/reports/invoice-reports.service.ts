import type { CachedLoader } from '../cache/cached-loader.js';
import { AppError } from '../errors/app-error.js';
import type { LeadContext } from '../leads/lead-context.js';
import { AGEING_BUCKETS, type MoneyRow } from '../storage/reports-invoices.store.js';
import type { Store } from '../storage/store.js';
import { businessLocale } from '../validation/countries.js';
import { invoiceMoney } from './report.numbers.js';
import { ageingEdges, periodMonths } from './report.period.js';
import { parseReportQuery } from './report.query.js';
import {
  periodOf,
  type InvoicingReport,
  type MoneyOfReport,
  type ReceivablesReport,
  type ReportFrame,
} from './reports.types.js';

/** The invoicing reports (issue 38 item 4): invoiced and collected per month, and receivables by age. */
export class InvoiceReportsService {
  constructor(
    private readonly store: Store,
    private readonly contexts: CachedLoader<LeadContext>,
    private readonly now: () => number,
  ) {}

  async invoicing(urlKey: string, raw: unknown): Promise<InvoicingReport> {
    const query = parseReportQuery(raw, ['months']);
    const { frame, context } = await this.open(urlKey);
    const months = periodMonths(context.timeZone, this.now(), query.months);
    const [invoiced, collected] = await Promise.all([
      this.store.invoiceReports.invoiced(urlKey, months),
      this.store.invoiceReports.collected(urlKey, months),
    ]);
    return {
      ...frame,
      period: periodOf(months),
      months: months.map(({ month }) => ({
        month,
        invoiced: moneyList(invoiced.filter((r) => r.month === month)),
        collected: moneyList(collected.filter((r) => r.month === month)),
      })),
    };
  }

  async receivables(urlKey: string, raw: unknown): Promise<ReceivablesReport> {
    parseReportQuery(raw, []);
    const { frame, context } = await this.open(urlKey);
    const { today, ...edges } = ageingEdges(context.timeZone, this.now());
    const rows = await this.store.invoiceReports.ageing(urlKey, edges);
    return {
      ...frame,
      asOf: today,
      buckets: AGEING_BUCKETS.map((bucket) => ({
        bucket,
        amounts: moneyList(rows.filter((r) => r.bucket === bucket)),
      })),
    };
  }

  private async open(urlKey: string): Promise<{ frame: ReportFrame; context: LeadContext }> {
    const context = await this.contexts.get(urlKey);
    if (!context) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    const { country, currency } = context.business;
    return { frame: { locale: businessLocale(country), timeZone: context.timeZone, currency }, context };
  }
}

/** Rows of one bucket, in currency order, as exact decimal strings of each currency's minor unit. */
function moneyList(rows: readonly MoneyRow[]): MoneyOfReport[] {
  return [...rows]
    .sort((a, b) => a.currency.localeCompare(b.currency))
    .map((r) => ({ currency: r.currency, amount: invoiceMoney(r.minor, r.currency), count: r.count }));
}
