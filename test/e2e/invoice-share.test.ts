import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { buyer, createInvoice, seedInvoiceTenant, type InvoiceTenant } from '../helpers/invoices.js';
import { browserSession } from './helpers-browser.js';
import { fitsPhone, PHONE, shootBoth } from './helpers-layout.js';

// 2.7, 4.7: the share page a buyer opens, in real Chromium: the policy lets its one stylesheet apply
// (a blocked style is a console error), it fits a 390 px phone, and it prints without its PDF button.

const PUBLIC_URL = 'https://billing.example.test';

describe('the invoice share page in headless chromium', () => {
  const session = browserSession('sqlite', { publicUrl: PUBLIC_URL });
  let tenant: InvoiceTenant;
  let invoice: any;
  const testApp = () => ({ app: session.server.app }) as TestApp;
  const local = (link: string) => `${session.server.url}${link.slice(PUBLIC_URL.length)}`;

  it('renders the invoice with its stylesheet, no console error or CSP violation, the PDF link from PUBLIC_URL', async () => {
    tenant = await seedInvoiceTenant(testApp());
    const items = Array.from({ length: 12 }, (_, i) => ({
      name: `Annual maintenance of the ${i + 1}th floor's air-handling units, filters and ducts included`,
      hsn: '998717',
      rate: 12_345.67,
      quantity: i + 1,
      gstRate: 18,
    }));
    invoice = await createInvoice(testApp(), tenant, {
      billedTo: buyer({
        name: 'Srinivasa Venkataraghavan Hospitality and Facilities Management Private Limited',
        phone: '+919812345678',
        phoneShowInInvoice: true,
      }),
      items,
      terms: [{ label: 'Payment', terms: ['Within 30 days of the invoice date, by bank transfer.'] }],
    });
    const { page, problems } = session;
    const response = await page.goto(local(invoice.share.link));
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'TAX INVOICE' }).waitFor();
    // The stylesheet applied: the sheet's own colours, not the browser's defaults.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(243, 244, 246)');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('h1')!).color)).toBe('rgb(30, 58, 138)');
    expect(await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      `${invoice.share.link}/pdf`,
    );
    expect(await page.locator('main').textContent()).toContain('Rupees');
    expect(problems).toEqual([]);
  });

  it('fits a 390 px phone without sideways scrolling of the document; desktop and phone screenshots', async () => {
    const { page, problems } = session;
    await page.setViewportSize(PHONE);
    await page.goto(local(invoice.share.link));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await fitsPhone(page)).toEqual([]);
    await shootBoth(page, 'invoice-share');
    expect(problems).toEqual([]);
  });

  it('prints without the PDF button, a canceled invoice stamped; a revoked link shows the not-found page', async () => {
    const { page, problems } = session;
    await page.emulateMedia({ media: 'print' });
    await page.goto(local(invoice.share.link));
    expect(await page.getByRole('link', { name: 'Download PDF' }).isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    const canceled = await createInvoice(testApp(), tenant);
    const cancel = await session.server.app.inject({
      method: 'POST',
      url: `${tenant.invoices}/${canceled._id}/cancel`,
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(cancel.statusCode).toBe(200);
    await page.goto(local(canceled.share.link));
    expect(await page.getByRole('status').textContent()).toBe('CANCELED');
    await shootBoth(page, 'invoice-share-canceled');
    const revoke = await session.server.app.inject({
      method: 'POST',
      url: `${tenant.admin}/invoices/${canceled._id}/share-link/revoke`,
      headers: { authorization: `Bearer ${tenant.operator}` },
    });
    expect(revoke.statusCode).toBe(200);
    const gone = await page.goto(local(canceled.share.link));
    expect(gone?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: 'Invoice link not found' }).isVisible()).toBe(true);
    // The 404 in the console is the page's own status, not a broken resource.
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
  });
});
