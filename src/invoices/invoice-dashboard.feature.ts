import { createPdfPool, type PdfPool } from '../documents/pdf-pool.js';
import { feature, type FeatureEnv } from '../feature.js';
import { invoicePdfOperatorApi } from './invoice-pdf.operator.js';
import { invoicePreviewOperatorApi } from './invoice-preview.operator.js';
import { InvoiceTotals } from './invoice-totals.service.js';
import { invoicesContext, type InvoicesContext } from './invoices.routes.js';

/**
 * What the dashboard's invoice pages ask beyond invoices-interface 8 (docs/decisions.md "Dashboard
 * invoice pages"): live previews by the server's rules, the list's totals, and the PDF under an operator
 * session. The invoice services are the invoices feature's wiring (invoicesContext), not a copy.
 */
export interface InvoiceDashboardContext extends InvoicesContext {
  totals: InvoiceTotals;
  /** The PDF workers, started with the first PDF an operator asks for. */
  pool(): PdfPool;
  close(): Promise<void>;
}

const invoiceDashboardContext = (env: FeatureEnv): InvoiceDashboardContext => {
  const context = invoicesContext(env);
  let pool: PdfPool | null = null;
  return {
    ...context,
    totals: new InvoiceTotals(env.deps.store, context.invoices),
    pool: () => (pool ??= createPdfPool()),
    close: async () => {
      await pool?.close();
      pool = null;
    },
  };
};

export const invoiceDashboardFeature = feature({
  sections: [invoicePreviewOperatorApi, invoicePdfOperatorApi],
  context: invoiceDashboardContext,
  install: (app, context, shutdown) =>
    app.addHook('onClose', () => shutdown.run("invoice dashboard's PDF workers", () => context.close())),
});
