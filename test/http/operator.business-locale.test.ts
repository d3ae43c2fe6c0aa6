// @module-tag pooled
import { describe, expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';
import { operatorToken, randomKey } from '../helpers/seed.js';

// The Business answer names the locale its figures are written in, derived from the country by the one rule
// the invoice totals and reports use (docs/decisions.md "Figures in the business's locale").
describeEachStore("a business's locale in the operator API (issue 38 item 5)", (ctx) => {
  describe.each([
    ['IN', 'en-IN'],
    ['AE', 'en-AE'],
    ['SA', 'ar-SA'],
    ['DE', 'de-DE'],
    ['US', 'en-US'],
    ['JP', 'ja-JP'],
  ])('%s', (country, locale) => {
    it(`a business in ${country} answers locale ${locale} on create, get, list and change`, async () => {
      const operator = await operatorToken(ctx().app);
      const urlKey = randomKey('loc');
      const created = await call(ctx().app, 'POST', '/admin/v1/businesses', {
        token: operator,
        body: { name: `Locale ${country}`, country, urlKey },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ urlKey, country, locale });

      const got = await call(ctx().app, 'GET', `/admin/v1/businesses/${urlKey}`, { token: operator });
      expect(got.status).toBe(200);
      expect(got.body.data.locale).toBe(locale);
      const list = await call(ctx().app, 'GET', '/admin/v1/businesses', { token: operator });
      expect(list.body.data.find((b: { urlKey: string }) => b.urlKey === urlKey)?.locale).toBe(locale);
      const changed = await call(ctx().app, 'PATCH', `/admin/v1/businesses/${urlKey}`, {
        token: operator,
        body: { name: 'Renamed' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ name: 'Renamed', locale });

      // One rule: the invoice totals answer names the same locale.
      const totals = await call(ctx().app, 'GET', `/admin/v1/businesses/${urlKey}/invoice-totals`, {
        token: operator,
      });
      expect(totals.status, JSON.stringify(totals.body)).toBe(200);
      expect(totals.body.data.locale).toBe(locale);
    });
  });

  it('locale is derived, not settable: a business created with one is refused with a field error', async () => {
    const operator = await operatorToken(ctx().app);
    const created = await call(ctx().app, 'POST', '/admin/v1/businesses', {
      token: operator,
      body: { name: 'Locale set', country: 'IN', urlKey: randomKey('loc'), locale: 'en-US' },
    });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.body.data.error)).toContain('locale');
  });
});
