import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import { businessLocale } from '../validation/countries.js';
import { currencyOf, moneyToText } from './invoice.money.js';
import { parseFindQuery } from './invoices.find.js';
import type { InvoicesService } from './invoices.service.js';

/**
 * One currency's figures over the invoices a filter selects. Sums may pass 15 significant digits, where a
 * JSON number stops being exact (2.1), so they are decimal text with the minor unit's decimals: `1580.00`.
 */
export interface CurrencyTotals {
  currency: string;
  /** Invoices the filter selects, canceled ones included. */
  count: number;
  /** Σ finalTotal.total of those not canceled. */
  invoiced: string;
  /** Σ amountPaid. */
  collected: string;
  /** Σ amountDue: invoiced − collected. */
  due: string;
}

/**
 * The dashboard list's totals (docs/decisions.md "Invoice list totals"): the filters of GET /invoices
 * (4.3), summed in the store per currency, never across currencies (no conversion, as 3.7.3).
 */
export class InvoiceTotals {
  constructor(
    private readonly store: Store,
    private readonly invoices: InvoicesService,
  ) {}

  async of(
    urlKey: string,
    rawQuery: Record<string, unknown>,
  ): Promise<{ locale: string; currencies: CurrencyTotals[] }> {
    const context = await this.invoices.context(urlKey);
    const paging = Object.keys(rawQuery).find(
      (key) => key.startsWith('$') || key === 'updatedAtFrom' || key === 'after',
    );
    if (paging)
      throw new AppError('INVALID_QUERY_FIELD', `${paging}: totals take the filters of a find, not its paging`);
    const query = parseFindQuery(rawQuery, context.timeZone, urlKey);
    const rows = await this.store.invoiceLists.totals(urlKey, query);
    if (!rows) throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return {
      locale: businessLocale(context.business.country),
      currencies: rows.map((row) => {
        const currency = currencyOf(row.currency)!;
        return {
          currency: row.currency,
          count: row.count,
          invoiced: moneyToText(row.invoicedMinor, currency),
          collected: moneyToText(row.collectedMinor, currency),
          due: moneyToText(row.invoicedMinor - row.collectedMinor, currency),
        };
      }),
    };
  }
}
