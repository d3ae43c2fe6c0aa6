// @ts-check
// The invoice's real PDF on its page. An iframe cannot send the operator's bearer token, so the page
// fetches the PDF from the operator route and frames it as a blob of type application/pdf (the page's
// policy allows blob: frames for this alone; docs/decisions.md "Dashboard invoice pages"). Browsers that
// draw no PDF inside a page (phones: navigator.pdfViewerEnabled is false) get the links alone.
import { getSession, seg } from './api.js';
import { errorBanner, h, mount } from './dom.js';

/** The blob of the PDF shown last: released when another invoice's replaces it. */
let shownUrl = '';

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
      if (shownUrl) URL.revokeObjectURL(shownUrl);
      shownUrl = URL.createObjectURL(blob);
      const links = h(
        'p',
        { class: 'button-row pdf-links' },
        h('a', { href: shownUrl, target: '_blank', rel: 'noopener', class: 'button secondary small' }, 'Open PDF'),
        h(
          'a',
          { href: shownUrl, download: `${invoice.invoiceNumber}.pdf`, class: 'button secondary small' },
          'Download PDF',
        ),
      );
      const title = `PDF of invoice ${invoice.invoiceNumber}`;
      if (navigator.pdfViewerEnabled === false)
        mount(slot, h('p', { class: 'muted' }, 'This browser shows no PDF inside a page: open or download it.'), links);
      // Fitted to the frame's width: Chromium's viewer otherwise opens the A4 page a little wider than the frame.
      else mount(slot, h('iframe', { class: 'pdf-frame', src: `${shownUrl}#view=FitH`, title }), links);
    } catch (error) {
      mount(slot, errorBanner(error.message));
    }
  };
  load();
  return slot;
}
