import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { refuseBare } from '../http/replies.js';
import { type ApiSection, type Operation, type OperationDoc, operationsOf } from '../openapi/operation.js';
import type { DocumentsContext } from './documents.routes.js';
import type { InvoiceAnswer } from './invoice-document.types.js';
import { INVOICE_PAGE_CSS } from './invoice.html.css.js';
import { escapeHtml, renderInvoiceHtml } from './invoice.html.js';
import { pdfDisposition } from './pdf-disposition.js';
import type { SharedDocument } from './share-links.service.js';

/**
 * The public share page (invoices-interface 2.7, 4.7): GET /share/invoices/:token, the invoice as HTML,
 * and …/pdf, the same PDF as the app's. No authentication: the 256-bit token is the secret. A token
 * that opens nothing, whatever the reason, gets the one NOT_FOUND_PAGE with the one set of headers.
 */

export const SHARE_PAGE = '/share/invoices/:token';
const SHARE_PDF = `${SHARE_PAGE}/pdf`;

/**
 * The page's one style element is allowed by its hash; nothing else may load, run, frame it or be posted
 * from it (the QR code is inline SVG).
 */
export const SHARE_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(INVOICE_PAGE_CSS).digest('base64')}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Never kept by a browser or a proxy (a revoked link must not live on in a cache), never indexed. */
const PRIVATE_HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
  'content-security-policy': SHARE_SECURITY_POLICY,
};

const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml('Invoice link not found')}</title></head><body><h1>Invoice link not found</h1><p>This link is not valid, or the seller has replaced it with a new one. Ask the seller for the current link.</p></body></html>`;

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).headers(PRIVATE_HEADERS).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
}

const operation = operationsOf<DocumentsContext>();
const pathParams = { token: 'The 43-character token of `share.link`.' };
const privateHeaderDocs = {
  'Cache-Control': { description: '`no-store`.', schema: { type: 'string' } },
  'X-Robots-Tag': { description: '`noindex`.', schema: { type: 'string' } },
};
const notFoundAnswer = {
  status: 404,
  description:
    'Unknown, malformed or revoked token: one page, byte for byte the same, with the same headers, whatever the reason.',
  mediaType: 'text/html',
  schema: { type: 'string' },
  headers: privateHeaderDocs,
};

/** The document a token opens, or the 404 already sent. */
async function opened(c: DocumentsContext, token: string, reply: FastifyReply): Promise<SharedDocument | undefined> {
  const shared = await c.shareLinks.open(token);
  if (!shared) notFound(reply);
  return shared;
}

const pageOperation = operation({
  method: 'get',
  path: SHARE_PAGE,
  operationId: 'getSharedInvoicePage',
  guard: 'open',
  pathParams,
  summary: 'The public share page of an invoice',
  description:
    "The invoice's document as one printable HTML page (no script), with a link to its PDF; links built from PUBLIC_URL. Revoking the link (operator API) makes this 404 at once in every process.",
  answers: [
    {
      status: 200,
      description: 'The page.',
      mediaType: 'text/html',
      schema: { type: 'string' },
      headers: privateHeaderDocs,
    },
    notFoundAnswer,
  ],
  handler: (c) => async (request, reply: FastifyReply) => {
    const shared = await opened(c, request.params.token, reply);
    if (!shared) return reply;
    const { invoice, timeZone } = shared;
    const link = (invoice.share as { link: string }).link;
    const html = renderInvoiceHtml(
      { invoice: invoice as unknown as InvoiceAnswer, timeZone },
      { pdfHref: `${link}/pdf` },
    );
    return reply.headers(PRIVATE_HEADERS).type('text/html; charset=utf-8').send(html);
  },
});

const pdfOperation = operation({
  method: 'get',
  path: SHARE_PDF,
  operationId: 'getSharedInvoicePdf',
  guard: 'open',
  pathParams,
  summary: 'The PDF of a shared invoice',
  description: "The same PDF as the app's `…/invoices/:invoiceId/pdf`, through the share token.",
  answers: [
    {
      status: 200,
      description: 'The PDF, shown inline.',
      mediaType: 'application/pdf',
      schema: { type: 'string', format: 'binary' },
      headers: privateHeaderDocs,
    },
    notFoundAnswer,
  ],
  handler: (c) => async (request, reply: FastifyReply) => {
    const shared = await opened(c, request.params.token, reply);
    if (!shared) return reply;
    const pdf = await c
      .pool()
      .render({ invoice: shared.invoice as unknown as InvoiceAnswer, timeZone: shared.timeZone });
    return reply
      .headers(PRIVATE_HEADERS)
      .type('application/pdf')
      .header('content-disposition', pdfDisposition(String(shared.invoice.invoiceNumber)))
      .send(pdf);
  },
});

const REFUSED: OperationDoc['method'][] = ['post', 'put', 'patch', 'delete'];

function refusal(method: OperationDoc['method'], path: string, name: string): Operation<DocumentsContext> {
  return {
    method,
    path,
    operationId: `${method}${name}Refused`,
    guard: 'open',
    pathParams,
    refusal: 'bare',
    summary: 'Not supported (405)',
    description: 'Only GET (and HEAD) serve the share page and its PDF; 405, the status alone.',
    handler: () => refuseBare,
  };
}

export const shareApi: ApiSection<DocumentsContext> = {
  tag: {
    name: 'Invoice share page',
    description: 'The public, read-only view of an invoice a buyer is sent (`share.link`); no authentication.',
  },
  operations: [
    pageOperation,
    pdfOperation,
    ...REFUSED.flatMap((method) => [
      refusal(method, SHARE_PAGE, 'SharedInvoicePage'),
      refusal(method, SHARE_PDF, 'SharedInvoicePdf'),
    ]),
  ],
};
