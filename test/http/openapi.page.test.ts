import { expect, it } from 'vitest';
import { call, describeEachStore } from '../helpers/app.js';

describeEachStore('API reference page /docs', (ctx) => {
  it('is served open, under the strict CSP, with no inline script, style or handler and nothing from another origin', async () => {
    const page = await call(ctx().app, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    const html = String(page.body);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  it('serves every file the page refers to, and 404 NOT_FOUND for any other', async () => {
    const html = String((await call(ctx().app, 'GET', '/docs')).body);
    const files = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((f) => f !== '/docs' && f !== '/openapi.json');
    expect(files).toEqual(expect.arrayContaining(['/docs/docs.js', '/docs/docs.css']));
    for (const file of [...files, '/docs/schema-view.js', '/docs/try-it.js', '/docs/nav.js'])
      expect((await call(ctx().app, 'GET', file)).status, file).toBe(200);
    const js = await call(ctx().app, 'GET', '/docs/docs.js');
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(String(js.body)).not.toMatch(/https?:\/\/(?!json-schema\.org)/);
    const missing = await call(ctx().app, 'GET', '/docs/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.body.data.error.code).toBe('NOT_FOUND');
    expect((await call(ctx().app, 'GET', '/docs/')).status).toBe(404);
    expect((await call(ctx().app, 'GET', '/docs/index.html')).status).toBe(404);
  });
});
