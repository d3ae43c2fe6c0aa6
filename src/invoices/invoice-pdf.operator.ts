import type { FastifyReply } from 'fastify';
import { PDF_ANSWER, pdfDisposition } from '../documents/pdf-disposition.js';
import type { InvoiceAnswer } from '../documents/invoice-document.types.js';
import { rejectQuery } from '../http/replies.js';
import { operationsOf, type ApiSection } from '../openapi/operation.js';
import type { InvoiceDashboardContext } from './invoice-dashboard.feature.js';
import { invoiceKey } from './invoices.openapi.js';
import { ADMIN } from './invoices.routes.js';

/**
 * The invoice PDF (invoices-interface 4.7) under an operator session, for the dashboard's invoice page:
 * the app path needs an app token, which an operator does not hold. The same rendering as the app's.
 */

const operation = operationsOf<InvoiceDashboardContext>();

export const invoicePdfOperatorApi: ApiSection<InvoiceDashboardContext> = {
  tag: {
    name: 'Operator: invoice PDF',
    description: "The invoice's PDF for the dashboard; needs an operator session.",
  },
  operations: [
    operation({
      method: 'get',
      path: `${ADMIN}/invoices/:invoiceId/pdf`,
      operationId: 'operatorGetInvoicePdf',
      guard: 'operator',
      pathParams: invoiceKey,
      summary: 'The invoice as a PDF',
      description: 'As the app path renders it (canceled invoices stamped CANCELED). No query parameters.',
      answers: [PDF_ANSWER],
      errors: ['INVALID_QUERY_FIELD', 'INVOICE_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler:
        ({ invoices, pool }) =>
        async (request, reply: FastifyReply) => {
          rejectQuery(request);
          const { timeZone } = await invoices.context(request.params.urlKey);
          const invoice = await invoices.get(request.params.urlKey, request.params.invoiceId);
          const pdf = await pool().render({ invoice: invoice as unknown as InvoiceAnswer, timeZone });
          return reply
            .type('application/pdf')
            .header('content-disposition', pdfDisposition(String(invoice.invoiceNumber)))
            .send(pdf);
        },
    }),
  ],
};
