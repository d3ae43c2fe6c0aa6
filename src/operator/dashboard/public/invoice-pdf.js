// @ts-check
// The invoice's real PDF on its page. An iframe cannot send the operator's bearer token, so the page
// fetches the PDF from the operator route and frames it as a blob of type application/pdf (the page's
// policy allows blob: frames for this alone; docs/decisions.md "Dashboard invoice pages").
import { getSession, seg } from './api.js';
import { errorBanner, h, mount } from './dom.js';

/**
 * @param {import('./dashboard-types.js').Business} business
 * @param {{ _id: string, invoiceNumber: string }} invoice
 */
export function pdfPreview(business, invoice) {
  const slot = h('div', { class: 'pdf-slot' }, h('p', { class: 'loading', role: 'status' }, 'Loading the PDF…'));
  const load = async () => {
    const path = `/admin/v1/businesses/${seg(business.urlKey)}/invoices/${seg(invoice._id)}/pdf`;
    try {
      const response = await fetch(path, { headers: { authorization: `Bearer ${getSession()?.token ?? ''}` } });
      if (!response.ok) throw new Error(`The PDF could not be loaded (HTTP ${response.status}).`);
      const blob = new Blob([await response.arrayBuffer()], { type: 'application/pdf' });
      const url = URL.createObjectURL(blob);
      const frame = h('iframe', { class: 'pdf-frame', src: url, title: `PDF of invoice ${invoice.invoiceNumber}` });
      const download = h(
        'a',
        { href: url, download: `${invoice.invoiceNumber}.pdf`, class: 'button secondary small' },
        'Download PDF',
      );
      mount(slot, frame, h('p', {}, download));
    } catch (error) {
      mount(slot, errorBanner(error.message));
    }
  };
  load();
  return slot;
}
