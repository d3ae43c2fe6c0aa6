// The API reference page: renders /openapi.json (operations, parameters, bodies, answers, error codes,
// examples) with DOM calls only, so it runs under the service's strict CSP with nothing inline.
import { h, mount } from '/assets/dom.js';
import { findText, foldNavOnNarrowScreens, navFilter } from './nav.js';
import { schemaView } from './schema-view.js';
import { tryIt, tokenField } from './try-it.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const AUTH = { appToken: 'App token', operatorSession: 'Operator session', metricsToken: 'METRICS_TOKEN' };

/** Text with `code` and **bold** spans, as the document's descriptions use them. */
export function richText(text) {
  return text
    .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
    .filter(Boolean)
    .map((part) => {
      if (part.startsWith('`')) return h('code', {}, part.slice(1, -1));
      if (part.startsWith('**')) return h('strong', {}, part.slice(2, -2));
      return part;
    });
}

function paragraphs(text) {
  return text.split(/\n\s*\n/).map((p) => h('p', {}, richText(p.replace(/\n/g, ' '))));
}

function operations(doc) {
  const list = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) list.push({ path, method, op: item[method] });
  }
  return list;
}

function authLabel(op) {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return 'none';
  const names = schemes.map((s) => AUTH[s] ?? s).join(' or ');
  return op.security.some((s) => Object.keys(s).length === 0) ? `optional: ${names}` : names;
}

function example(title, value) {
  return h('details', { class: 'example' }, h('summary', {}, title), h('pre', {}, JSON.stringify(value, null, 2)));
}

function examplesOf(media) {
  const out = [];
  if (media.example !== undefined) out.push(example('Example', media.example));
  for (const [name, ex] of Object.entries(media.examples ?? {}))
    out.push(example(`${name}: ${ex.summary ?? ''}`, ex.value));
  return out;
}

function parametersView(op) {
  if (!op.parameters?.length) return null;
  return h(
    'table',
    { class: 'params' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Parameter'), h('th', {}, 'In'), h('th', {}, 'Type'), h('th', {}, 'Description')),
    ),
    h(
      'tbody',
      {},
      op.parameters.map((p) =>
        h(
          'tr',
          {},
          h('td', {}, h('code', {}, p.name), p.required ? h('span', { class: 'req' }, ' required') : null),
          h('td', {}, p.in),
          h(
            'td',
            {},
            h('code', {}, p.schema?.type ?? 'string'),
            p.schema?.default !== undefined ? ` (default ${p.schema.default})` : '',
          ),
          h('td', {}, p.description ?? ''),
        ),
      ),
    ),
  );
}

function bodyView(doc, op) {
  const body = op.requestBody;
  if (!body) return null;
  const media = body.content['application/json'];
  return h(
    'div',
    { class: 'block' },
    h('h4', {}, 'Request body', body.required ? '' : ' (optional)'),
    body.description ? h('p', {}, body.description) : null,
    schemaView(doc, media.schema),
    examplesOf(media),
  );
}

function responsesView(doc, op) {
  return h(
    'div',
    { class: 'block' },
    h('h4', {}, 'Responses'),
    Object.entries(op.responses).map(([status, response]) => {
      const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
      return h(
        'details',
        { class: `response status-${status[0]}xx` },
        h('summary', {}, h('span', { class: 'status' }, status), ' ', richText(response.description)),
        type ? h('p', { class: 'muted' }, type) : null,
        media?.schema ? schemaView(doc, media.schema) : null,
        media ? examplesOf(media) : null,
      );
    }),
  );
}

const isRefused = (op) => Object.keys(op.responses).every((status) => status === '405');

/** Operations the interface refuses (405 only) take one line each, opened on demand. */
function refusedView({ path, method, op }) {
  return h(
    'details',
    { class: 'op refused', id: op.operationId },
    h(
      'summary',
      {},
      h('span', { class: 'method method-refused' }, method.toUpperCase()),
      ' ',
      h('code', { class: 'path' }, path),
      ' ',
      h('span', { class: 'muted' }, op.summary),
    ),
    op.description ? paragraphs(op.description) : null,
    Object.entries(op.responses).map(([status, response]) =>
      h('p', {}, h('span', { class: 'status' }, status), ' ', richText(response.description)),
    ),
  );
}

function operationView(doc, entry) {
  const { path, method, op } = entry;
  if (isRefused(op)) return refusedView(entry);
  return h(
    'section',
    { class: 'op', id: op.operationId },
    h(
      'h3',
      {},
      h('span', { class: `method method-${method}` }, method.toUpperCase()),
      ' ',
      h('code', { class: 'path' }, path),
    ),
    h('p', { class: 'summary' }, op.summary),
    op.description ? paragraphs(op.description) : null,
    h('p', { class: 'auth' }, 'Authorization: ', h('strong', {}, authLabel(op))),
    parametersView(op),
    bodyView(doc, op),
    responsesView(doc, op),
    tryIt(path, method, op),
  );
}

/** Real operations first; the ones answered 405 last, grey and marked, so they are not mistaken for offered ones. */
const ordered = (entries) => [...entries.filter((e) => !isRefused(e.op)), ...entries.filter((e) => isRefused(e.op))];

function navView(doc, byTag) {
  return doc.tags.map((tag) =>
    h(
      'div',
      { class: 'nav-group' },
      h('a', { href: `#tag-${slug(tag.name)}`, class: 'nav-tag' }, tag.name),
      h(
        'ul',
        {},
        ordered(byTag.get(tag.name) ?? []).map(({ path, method, op }) =>
          isRefused(op)
            ? h(
                'li',
                { class: 'nav-refused', dataset: { find: findText(method, path, op) } },
                h(
                  'a',
                  { href: `#${op.operationId}`, title: `${method.toUpperCase()} ${path}: not supported (405)` },
                  h('span', { class: 'method method-refused' }, method.toUpperCase()),
                  ' ',
                  path,
                  h('span', { class: 'visually-hidden' }, ' (not supported, 405)'),
                ),
              )
            : h(
                'li',
                { dataset: { find: findText(method, path, op) } },
                h(
                  'a',
                  { href: `#${op.operationId}`, title: `${method.toUpperCase()} ${path}` },
                  h('span', { class: `method method-${method}` }, method.toUpperCase()),
                  ' ',
                  path,
                ),
              ),
        ),
      ),
    ),
  );
}

function tagView(doc, tag, entries) {
  const refused = entries.filter((e) => isRefused(e.op));
  return h(
    'section',
    { class: 'tag', id: `tag-${slug(tag.name)}` },
    h('h2', {}, tag.name),
    h('p', { class: 'muted' }, tag.description),
    entries.filter((e) => !isRefused(e.op)).map((entry) => operationView(doc, entry)),
    refused.length ? h('h3', { class: 'refused-head' }, 'Not supported: answered 405 Method Not Allowed') : null,
    refused.map((entry) => operationView(doc, entry)),
  );
}

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function schemasView(doc) {
  return h(
    'section',
    { class: 'tag', id: 'schemas' },
    h('h2', {}, 'Schemas'),
    Object.entries(doc.components.schemas).map(([name, schema]) =>
      h(
        'details',
        { class: 'schema-entry', id: `schema-${name}` },
        h(
          'summary',
          {},
          h('code', {}, name),
          schema.description ? h('span', { class: 'muted' }, ` — ${schema.description}`) : null,
        ),
        schemaView(doc, schema),
      ),
    ),
  );
}

async function main() {
  const root = document.getElementById('main');
  try {
    const response = await fetch('/openapi.json');
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    const doc = await response.json();
    document.getElementById('version').textContent = `version ${doc.info.version} · OpenAPI ${doc.openapi}`;
    const byTag = new Map();
    for (const entry of operations(doc)) byTag.set(entry.op.tags[0], [...(byTag.get(entry.op.tags[0]) ?? []), entry]);
    const nav = document.getElementById('nav');
    mount(nav, navFilter(nav), navView(doc, byTag), h('a', { href: '#schemas', class: 'nav-tag' }, 'Schemas'));
    mount(
      root,
      h(
        'section',
        { class: 'intro' },
        h('h1', {}, doc.info.title, ' API'),
        paragraphs(doc.info.description),
        h('h2', {}, 'Authentication'),
        h(
          'dl',
          {},
          Object.entries(doc.components.securitySchemes).map(([name, s]) => [
            h('dt', {}, AUTH[name] ?? name),
            h('dd', {}, s.description),
          ]),
        ),
        tokenField(),
      ),
      doc.tags.map((tag) => tagView(doc, tag, byTag.get(tag.name) ?? [])),
      schemasView(doc),
    );
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  } catch (error) {
    mount(
      root,
      h('div', { class: 'banner banner-error', role: 'alert' }, `The reference could not be loaded: ${error.message}`),
    );
  }
}

foldNavOnNarrowScreens();
main();
