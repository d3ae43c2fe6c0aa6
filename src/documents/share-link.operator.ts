import { EMPTY, invoiceKey } from '../invoices/invoices.openapi.js';
import { noBody, ok } from '../http/replies.js';
import { operationsOf, ref, success, type ApiSection } from '../openapi/operation.js';
import type { DocumentsContext } from './documents.routes.js';

const operation = operationsOf<DocumentsContext>();

/** The operator's share-link revocation (invoices-interface 8), audit-logged as the other operator invoice actions. */
export const shareLinkOperatorApi: ApiSection<DocumentsContext> = {
  tag: {
    name: 'Operator: invoice share links',
    description: "Revoking an invoice's public share link; needs an operator session.",
  },
  operations: [
    operation({
      method: 'post',
      path: '/admin/v1/businesses/:urlKey/invoices/:invoiceId/share-link/revoke',
      operationId: 'operatorRevokeInvoiceShareLink',
      guard: 'operator',
      pathParams: invoiceKey,
      summary: "Revoke an invoice's share link",
      description:
        'Gives the invoice a new share token (32 random bytes): `share.link` changes, and the old link answers the share 404 at once, in every server process. Nothing else about the invoice changes but `updatedAt`. Canceled invoices too.',
      body: { required: false, schema: EMPTY },
      answers: [{ status: 200, description: 'The invoice with its new link.', schema: success(ref('Invoice')) }],
      errors: ['INVOICE_NOT_FOUND', 'BUSINESS_NOT_FOUND'],
      handler: (c) => async (request) => {
        noBody(request);
        const { urlKey, invoiceId } = request.params;
        const line = c.services.audit.entryOf(request, 'invoice.share-link.revoke', urlKey, { invoiceId });
        return ok(await c.shareLinks.revoke(urlKey, invoiceId, line));
      },
    }),
  ],
};
