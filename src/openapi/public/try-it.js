// "Try it": sends one request from the page, to this same server (the CSP allows nothing else),
// with the bearer token typed once at the top. The token stays in memory: nothing is stored.
import { h } from '/assets/dom.js';

let token = '';

/** Puts a token into the field at the top (from a sign-in answered on this page). */
function useToken(value) {
  token = value;
  const input = document.getElementById('try-token');
  if (input) input.value = value;
}

export function tokenField() {
  const input = h('input', {
    type: 'password',
    id: 'try-token',
    autocomplete: 'off',
    spellcheck: 'false',
    oninput: (e) => {
      token = e.target.value.trim();
    },
  });
  return h(
    'div',
    { class: 'field token' },
    h('label', { for: 'try-token' }, 'Bearer token for “Try it”'),
    input,
    h(
      'p',
      { class: 'hint' },
      'An app token from POST /authentication (strategy app-secret), or an operator session for /admin/v1. ' +
        'After a sign-in with “Try it”, “Use this token” fills it in. Kept in this page only.',
    ),
  );
}

function firstExample(op) {
  const media = op.requestBody?.content?.['application/json'];
  const first = media && Object.values(media.examples ?? {})[0];
  return first ? JSON.stringify(first.value, null, 2) : op.requestBody ? '{}' : '';
}

/** A form for the operation's path, query and header parameters and body, and the answer once sent. */
export function tryIt(path, method, op) {
  const inputs = new Map();
  const params = (op.parameters ?? []).map((p) => {
    const input = h('input', { type: 'text', name: p.name, required: p.in === 'path' });
    inputs.set(p, input);
    const hint = p.in === 'path' ? ' (path, required)' : ` (${p.in}, leave empty to omit)`;
    return h('label', { class: 'try-param' }, h('code', {}, p.name), hint, input);
  });
  const body = op.requestBody
    ? h('textarea', { rows: 8, spellcheck: 'false', 'aria-label': 'Request body (JSON)' }, firstExample(op))
    : null;
  const output = h('pre', { class: 'try-output', 'aria-live': 'polite' });
  const extra = h('div', { class: 'try-extra' });
  const send = async () => {
    extra.replaceChildren();
    // An empty path value would send "…/businesses//pipelines", answered by a confusing 403 or 404.
    const missing = [...inputs].filter(([p, input]) => p.in === 'path' && input.value.trim() === '');
    for (const [, input] of inputs) input.removeAttribute('aria-invalid');
    if (missing.length) {
      for (const [, input] of missing) input.setAttribute('aria-invalid', 'true');
      missing[0][1].focus();
      output.textContent = `Not sent: fill in ${missing.map(([p]) => p.name).join(' and ')}, part of the path.`;
      return;
    }
    let url = path;
    const query = new URLSearchParams();
    const headers = {};
    for (const [p, input] of inputs) {
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(input.value));
      else if (input.value === '') continue;
      else if (p.in === 'header') headers[p.name] = input.value;
      else query.set(p.name, input.value);
    }
    if (token) headers.authorization = `Bearer ${token}`;
    if (body && body.value.trim() !== '') headers['content-type'] = 'application/json';
    output.textContent = 'Sending…';
    try {
      const response = await fetch(`${url}${query.size ? `?${query}` : ''}`, {
        method: method.toUpperCase(),
        headers,
        ...(headers['content-type'] && { body: body.value }),
      });
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* not JSON: show as is */
      }
      output.textContent = `${response.status} ${response.statusText}\n\n${shown}`;
      offerToken(text, extra);
    } catch (error) {
      output.textContent = `The request failed: ${error.message}`;
    }
  };
  return h(
    'details',
    { class: 'try' },
    h('summary', {}, 'Try it'),
    params,
    body,
    h('button', { type: 'button', class: 'primary small', onclick: send }, 'Send'),
    output,
    extra,
  );
}

/** A sign-in answer carries accessToken: offer it for the other operations' "Try it". */
function offerToken(text, extra) {
  let accessToken;
  try {
    accessToken = JSON.parse(text)?.accessToken;
  } catch {
    return;
  }
  if (typeof accessToken !== 'string' || accessToken === '') return;
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      onclick: () => {
        useToken(accessToken);
        button.textContent = 'Token in use';
        button.disabled = true;
      },
    },
    'Use this token for “Try it”',
  );
  extra.replaceChildren(button);
}
