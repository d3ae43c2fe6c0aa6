import type { FastifyReply } from 'fastify';
import { feature, type FeatureEnv } from '../feature.js';
import { refuseBare, rejectQuery } from '../http/replies.js';
import { INVOICES, INVOICES_ALIAS, invoicesContext } from '../invoices/invoices.routes.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { type ApiSection, type Operation, type OperationDoc, operationsOf } from '../openapi/operation.js';
import type { InvoiceAnswer } from './invoice-document.types.js';
import { PDF_ANSWER, pdfDisposition } from './pdf-disposition.js';
import { createPdfPool, type PdfPool } from './pdf-pool.js';
import { installShareNotFound, shareApi } from './share.routes.js';
import { shareLinkOperatorApi } from './share-link.operator.js';
import { ShareLinks } from './share-links.service.js';
import type { Services } from '../services.js';

/**
 * GET …/invoices/:invoiceId/pdf (invoices-interface 4.7): the invoice as GET answers it, rendered in the
 * worker pool. Errors as GET invoice (4.4); other methods 405, the status alone (4.8). The pool starts
 * with the first PDF asked for and ends with the app.
 */

export interface DocumentsContext {
  invoices: InvoicesService;
  shareLinks: ShareLinks;
  services: Services;
  pool(): PdfPool;
  close(): Promise<void>;
}

const documentsContext = (env: FeatureEnv): DocumentsContext => {
  const { invoices } = invoicesContext(env);
  let pool: PdfPool | null = null;
  return {
    invoices,
    shareLinks: new ShareLinks(env.deps.store, invoices, () => env.deps.clock.now()),
    services: env.services,
    pool: () => (pool ??= createPdfPool()),
    close: async () => {
      await pool?.close();
      pool = null;
    },
  };
};

const operation = operationsOf<DocumentsContext>();
const pathParams = { urlKey: 'The business.', invoiceId: "The invoice's _id." };

function pdfOperation(base: typeof INVOICES | typeof INVOICES_ALIAS, suffix: string): Operation<DocumentsContext> {
  return operation({
    method: 'get',
    path: `${base}/:invoiceId/pdf`,
    operationId: `getInvoicePdf${suffix}`,
    guard: 'app',
    pathParams,
    summary: 'The invoice as a PDF',
    description:
      'The document of 4.7 (A4, embedded fonts, extractable text), canceled invoices stamped CANCELED. Errors as GET invoice. No query parameters.',
    answers: [PDF_ANSWER],
    errors: ['INVALID_QUERY_FIELD', 'INVOICE_NOT_FOUND'],
    handler:
      ({ invoices, pool }) =>
      async (request, reply: FastifyReply) => {
        rejectQuery(request);
        const invoice = await invoices.get(request.params.urlKey, request.params.invoiceId);
        const { timeZone } = await invoices.context(request.params.urlKey);
        const pdf = await pool().render({ invoice: invoice as unknown as InvoiceAnswer, timeZone });
        return reply
          .type('application/pdf')
          .header('content-disposition', pdfDisposition(String(invoice.invoiceNumber)))
          .send(pdf);
      },
  });
}

const REFUSED: OperationDoc['method'][] = ['post', 'put', 'patch', 'delete'];

function refusal(method: OperationDoc['method'], base: string, suffix: string): Operation {
  return {
    method,
    path: `${base}/:invoiceId/pdf`,
    operationId: `${method}InvoicePdfRefused${suffix}`,
    guard: 'open',
    pathParams,
    refusal: 'bare',
    summary: 'Not supported (405)',
    description: 'Only GET serves the PDF; 405, the status alone, before any authentication.',
    handler: () => refuseBare,
  };
}

export const documentsApi: ApiSection<DocumentsContext> = {
  tag: {
    name: 'Invoice documents',
    description: "The invoice PDF (invoices-interface 4.7); the vendor's unprefixed path is an alias.",
  },
  operations: ([INVOICES, INVOICES_ALIAS] as const).flatMap((base, i) => {
    const suffix = i === 0 ? '' : 'Alias';
    return [pdfOperation(base, suffix), ...REFUSED.map((method) => refusal(method, base, suffix))];
  }),
};

export const documentsFeature = feature({
  sections: [documentsApi, shareApi, shareLinkOperatorApi],
  context: documentsContext,
  install: (app, context, shutdown) => {
    app.addHook('onClose', () => shutdown.run("documents' PDF workers", () => context.close()));
    installShareNotFound(app);
  },
});
