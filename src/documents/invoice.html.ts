import type { InvoiceDocumentInput } from './invoice-document.types.js';
import { type InvoiceContent, invoiceContent } from './invoice.content.js';
import { INVOICE_PAGE_CSS } from './invoice.html.css.js';
import type { ContentTable } from './invoice.items.js';
import { LABELS } from './invoice.labels.js';
import type { PartyBlock } from './invoice.parties.js';
import { qrSvg } from './qr-matrix.js';

/**
 * The public share page of an invoice (invoices-interface 2.7, 4.7): the PDF's content as one HTML
 * document, printable, with a link to the PDF. A pure function: every value is escaped here, names are
 * isolated for bidi (<bdi>), and the page has no script at all.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

const h = escapeHtml;
/** Text that came from the invoice (a name, an address): isolated so right-to-left text cannot reorder the page. */
const bdi = (text: string) => `<bdi>${h(text)}</bdi>`;

function header(content: InvoiceContent): string {
  const facts = content.facts.map(([label, value]) => `<dt>${h(label)}:</dt><dd>${bdi(value)}</dd>`).join('');
  const subtitle = content.subTitle ? `<p class="subtitle">${bdi(content.subTitle)}</p>` : '';
  const qr = content.zatcaQr ? `<div class="qr">${qrSvg(content.zatcaQr, LABELS.zatcaQr)}</div>` : '';
  return `<header><div><h1>${bdi(content.title)}</h1>${subtitle}</div><dl class="facts">${facts}</dl>${qr}</header>`;
}

function party(block: PartyBlock): string {
  const lines = block.lines.map((line) => `<div>${bdi(line)}</div>`).join('');
  return `<article class="party"><h2>${h(block.heading)}</h2><span class="name">${bdi(block.name)}</span>${lines}</article>`;
}

function table(content: ContentTable, className: string): string {
  const head = content.columns.map((column) => `<th class="${column.kind}">${h(column.header)}</th>`).join('');
  const row = (cells: string[]) =>
    cells.map((cell, i) => `<td class="${content.columns[i]?.kind ?? 'text'}">${bdi(cell)}</td>`).join('');
  const body = content.rows.map((cells) => `<tr>${row(cells)}</tr>`).join('');
  const foot = content.footer ? `<tfoot><tr>${row(content.footer)}</tr></tfoot>` : '';
  return `<div class="scroll"><table class="${className}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody>${foot}</table></div>`;
}

function summary(content: InvoiceContent): string {
  const tax = content.taxSummary
    ? `<div class="tax"><h3>${h(LABELS.taxSummary)}</h3>${table(content.taxSummary, 'tax-summary')}</div>`
    : '';
  const rows = content.totals
    .map(
      (row) =>
        `<tr${row.strong ? ' class="strong"' : ''}><td>${bdi(row.label)}</td><td class="money">${bdi(row.value)}</td></tr>`,
    )
    .join('');
  return `<section class="summary">${tax}<table class="totals"><tbody>${rows}</tbody></table></section>`;
}

function closing(content: InvoiceContent): string {
  const words = `<p class="words"><span>${h(LABELS.inWords)}:</span><strong>${h(content.words)}</strong></p>`;
  const sign = `<div class="signatory"><strong>${bdi(content.signatory.forLine)}</strong><br><span class="line">${h(content.signatory.label)}</span></div>`;
  const groups = content.terms
    .map(
      (group) => `<h3>${bdi(group.label)}</h3><ul>${group.lines.map((line) => `<li>${bdi(line)}</li>`).join('')}</ul>`,
    )
    .join('');
  const terms = content.terms.length > 0 ? `<section class="terms"><h2>${h(LABELS.terms)}</h2>${groups}</section>` : '';
  return words + sign + terms;
}

export interface SharePageOptions {
  /** Where the page's PDF link points (`/share/invoices/:token/pdf`); built by the caller, never from Host. */
  pdfHref: string;
}

export function renderInvoiceHtml(input: InvoiceDocumentInput, options: SharePageOptions): string {
  const content = invoiceContent(input);
  const stamp = content.canceled ? `<p class="stamp" role="status">${h(LABELS.canceled)}</p>` : '';
  const body = [
    header(content),
    `<section class="parties">${content.parties.map(party).join('')}</section>`,
    `<p class="amounts-in">${h(content.amountsIn)}</p>`,
    table(content.items, 'items'),
    summary(content),
    closing(content),
  ].join('');
  const title = h(`${content.title} ${content.invoiceNumber}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${INVOICE_PAGE_CSS}</style></head><body><nav class="bar"><a href="${h(options.pdfHref)}">${h(LABELS.downloadPdf)}</a></nav><main>${stamp}${body}</main></body></html>`;
}
