// @ts-check
// Webhooks of the current business: add an endpoint (its signing secret shown once), enable or
// disable it, send a test event, rotate the secret, remove it, and read its delivery log (resend
// one event from there). Event types come from the service's one table.
import { limit } from './api-document.js';
import { api, latestOnly, seg } from './api.js';
import {
  actionButton,
  confirmAction,
  copyText,
  errorBanner,
  field,
  formatDate,
  h,
  mount,
  openDialog,
  toast,
  uid,
} from './dom.js';
import { clearFormError, reportFormError } from './field-errors.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 */
/**
 * @typedef {import('./dashboard-types.js').OperatorSchemas['WebhookEventType']} EventType
 * @typedef {import('./dashboard-types.js').OperatorSchemas['WebhookEndpoint']} Endpoint
 * @typedef {import('./dashboard-types.js').OperatorSchemas['WebhookAttemptPage']} AttemptPage
 * @typedef {AttemptPage['attempts'][number]} Attempt
 */
/**
 * The delivery log's panel: one log at a time, and only the latest load (another endpoint's log, a
 * refresh, a resend's watch) may draw it.
 * @typedef {{ element: HTMLElement, startLoad: () => () => boolean }} LogPanel
 */

/** What the new-endpoint form calls each member of the body (error summaries name them so). */
const ENDPOINT_LABELS = { url: 'URL', description: 'Description', eventTypes: 'Event types' };

/**
 * @param {string} title
 * @param {string} secret
 * @param {string} note
 */
function showSecret(title, secret, note) {
  const id = uid('whsec');
  const input = h('input', { id, type: 'text', readonly: true, class: 'mono', spellcheck: 'false' });
  input.value = secret;
  const copy = h('button', { type: 'button', class: 'secondary small', 'aria-label': 'Copy signing secret' }, 'Copy');
  copy.addEventListener('click', async () => {
    copy.textContent = (await copyText(secret)) ? 'Copied' : 'Copy failed';
  });
  return openDialog({
    title,
    dismissable: false,
    body: h(
      'div',
      { class: 'credentials' },
      h(
        'div',
        { class: 'banner banner-warning', role: 'note' },
        h('strong', {}, 'You will not see this again. '),
        note,
      ),
      h(
        'div',
        { class: 'field secret' },
        h('div', { class: 'secret-head' }, h('label', { for: id }, 'Signing secret'), copy),
        input,
      ),
    ),
    actions: [{ label: 'I have saved it, close', value: true, class: 'primary' }],
  });
}

/** A cell labelled by its column, which phones show beside the value (the table stacks below 640 px). */
const cell = (
  /** @type {string} */ label,
  /** @type {Record<string, unknown>} */ attrs,
  /** @type {import('./dom.js').Child[]} */ ...children
) => h('td', { ...attrs, 'data-label': label }, ...children);

/** @param {Endpoint} endpoint */
function statusBadge(endpoint) {
  if (endpoint.enabled) return h('span', { class: 'badge badge-ok' }, 'Enabled');
  if (endpoint.disabledReason === 'failing') {
    return h(
      'span',
      { class: 'badge badge-danger', title: 'Every attempt of an event failed for about three days' },
      'Disabled: failing',
    );
  }
  return h('span', { class: 'badge badge-muted' }, 'Disabled');
}

/**
 * @param {string} base
 * @param {EventType[]} types
 * @param {() => Promise<void>} reload
 * @param {HTMLElement} message
 */
function createForm(base, types, reload, message) {
  const url = h('input', {
    type: 'text',
    inputmode: 'url',
    name: 'webhookUrl',
    required: true,
    maxlength: limit('WebhookEndpointInput.url'),
    placeholder: 'https://example.com/crmkit-events',
    dataset: { field: 'url' },
  });
  const description = h('input', {
    type: 'text',
    name: 'webhookDescription',
    maxlength: limit('WebhookEndpointInput.description'),
    dataset: { field: 'description' },
  });
  const boxes = types.map((t) => h('input', { type: 'checkbox', name: 'eventType', value: t.type }));
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Add endpoint');
  const form = h(
    'form',
    { 'aria-labelledby': 'new-webhook-title' },
    h('h2', { id: 'new-webhook-title' }, 'New endpoint'),
    field('URL', url),
    field('Description', description),
    h(
      'fieldset',
      { class: 'event-types', dataset: { field: 'eventTypes' } },
      h('legend', {}, 'Event types'),
      types.map((t, i) =>
        h(
          'div',
          { class: 'field checkbox' },
          h('label', { title: t.description }, boxes[i], t.type, h('span', { class: 'muted' }, ` (${t.emittedBy})`)),
        ),
      ),
    ),
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      const eventTypes = boxes.filter((b) => b.checked).map((b) => b.value);
      /** @type {Endpoint & { secret: string }} */
      const created = await api('POST', base, {
        url: url.value.trim(),
        eventTypes,
        ...(description.value && { description: description.value }),
      });
      form.reset();
      clearFormError(form, message);
      await showSecret(
        'Endpoint added',
        created.secret,
        'Give it to the receiver: it verifies every delivery with it (Standard Webhooks).',
      );
      await reload();
    } catch (error) {
      if (error.status !== 401) reportFormError(form, message, error, ENDPOINT_LABELS);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** How long the log is read again after a resend, waiting for the attempt to be logged (one try: 10 s at most). */
const RESEND_WATCH_MS = 15_000;
const RESEND_POLL_MS = 400;

/**
 * The delivery log read again until it holds an attempt newer than `since` (the resend's), or the watch ends.
 * @param {string} path
 * @param {string} since
 * @returns {Promise<AttemptPage>}
 */
async function watchForAttempt(path, since) {
  const deadline = Date.now() + RESEND_WATCH_MS;
  for (;;) {
    /** @type {AttemptPage} */
    const page = await api('GET', `${path}/deliveries?pageSize=50`);
    if (page.attempts.some((a) => a.at > since) || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, RESEND_POLL_MS));
  }
}

/**
 * Reads an endpoint's delivery log and shows it, unless another load of the panel started meanwhile.
 * @param {LogPanel} log
 * @param {string} path
 * @param {Endpoint} endpoint
 * @param {HTMLElement} message
 */
async function renderLog(log, path, endpoint, message) {
  const isLatest = log.startLoad();
  /** @type {AttemptPage} */
  const page = await api('GET', `${path}/deliveries?pageSize=50`);
  if (isLatest()) drawLog(log, path, endpoint, message, page);
}

/**
 * @param {LogPanel} log
 * @param {string} path
 * @param {Endpoint} endpoint
 * @param {HTMLElement} message
 * @param {AttemptPage} page
 */
function drawLog(log, path, endpoint, message, page) {
  const newest = page.attempts[0]?.at ?? '';
  const resend = (/** @type {Attempt} */ attempt) =>
    actionButton(
      'Resend',
      async () => {
        try {
          // The watch is a load of the panel too: opening another log meanwhile wins over it.
          const isLatest = log.startLoad();
          await api('POST', `${path}/events/${seg(attempt.eventId)}/resend`);
          toast(`${attempt.eventType}: sending again now.`);
          const after = await watchForAttempt(path, newest);
          if (isLatest()) drawLog(log, path, endpoint, message, after);
        } catch (error) {
          if (error.status !== 401) mount(message, errorBanner(error.message));
        }
      },
      { class: 'secondary small' },
    );
  const refresh = actionButton('Refresh', () => renderLog(log, path, endpoint, message), {
    class: 'secondary small',
  });
  mount(
    log.element,
    h('div', { class: 'page-head' }, h('h2', {}, `Delivery log: ${endpoint.url}`), refresh),
    page.attempts.length === 0
      ? h('p', { class: 'muted' }, 'No delivery attempt yet.')
      : h(
          'table',
          { class: 'data-table stack webhooks-table', 'aria-label': 'Delivery log' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Time', 'Event', 'Event id', 'Attempt', 'Status', 'Duration', ''].map((t) =>
                h('th', { scope: 'col' }, t),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            page.attempts.map((a) =>
              h(
                'tr',
                {},
                cell('Time', { class: 'muted' }, formatDate(a.at)),
                cell('Event', {}, a.eventType),
                cell('Event id', {}, h('code', { class: 'id' }, a.eventId)),
                cell('Attempt', {}, String(a.attempt)),
                cell(
                  'Status',
                  {},
                  a.statusCode === null
                    ? h('span', { class: 'badge badge-danger', title: a.error ?? '' }, a.error ?? 'no answer')
                    : h(
                        'span',
                        { class: a.statusCode < 300 ? 'badge badge-ok' : 'badge badge-danger', title: a.error ?? '' },
                        String(a.statusCode),
                      ),
                ),
                cell('Duration', { class: 'muted' }, `${a.durationMs} ms`),
                h('td', { class: 'actions' }, resend(a)),
              ),
            ),
          ),
        ),
  );
}

/**
 * @param {Endpoint} endpoint
 * @param {string} base
 * @param {() => Promise<void>} reload
 * @param {LogPanel} log
 * @param {HTMLElement} message
 */
function endpointRow(endpoint, base, reload, log, message) {
  const path = `${base}/${seg(endpoint.id)}`;
  const fail = (/** @type {any} */ error) => {
    if (error.status !== 401) mount(message, errorBanner(error.message));
  };
  /**
   * @param {string} label
   * @param {() => Promise<unknown>} action
   * @param {Record<string, unknown>} attrs
   */
  const run = (label, action, attrs) =>
    actionButton(
      label,
      async () => {
        try {
          await action();
        } catch (error) {
          fail(error);
        }
      },
      attrs,
    );
  return h(
    'tr',
    {},
    cell(
      'URL',
      { class: 'webhook-url' },
      h(
        'div',
        {},
        h('div', {}, endpoint.url),
        endpoint.description ? h('div', { class: 'muted' }, endpoint.description) : null,
      ),
    ),
    cell(
      'Events',
      { class: 'webhook-events' },
      h(
        'div',
        { class: 'badges' },
        endpoint.eventTypes.map((t) => h('span', { class: 'badge' }, t)),
      ),
    ),
    cell('Status', {}, statusBadge(endpoint)),
    h(
      'td',
      { class: 'actions' },
      h(
        'div',
        { class: 'button-row' },
        run(
          endpoint.enabled ? 'Disable' : 'Enable',
          async () => {
            await api('PATCH', path, { enabled: !endpoint.enabled });
            await reload();
          },
          { class: 'secondary small' },
        ),
        run(
          'Send test event',
          async () => {
            await api('POST', `${path}/test`);
            toast('Test event queued.');
          },
          { class: 'secondary small' },
        ),
        run('Delivery log', () => renderLog(log, path, endpoint, message), { class: 'secondary small' }),
        run(
          'Rotate secret',
          async () => {
            if (
              !(await confirmAction(
                'Rotate signing secret',
                'Issue a new secret? For 24 hours the old and the new one both sign each delivery.',
                'Rotate',
              ))
            )
              return;
            /** @type {import('./dashboard-types.js').OperatorSchemas['WebhookSecretRotated']} */
            const rotated = await api('POST', `${path}/rotate-secret`);
            await showSecret(
              'New signing secret',
              rotated.secret,
              `The previous secret keeps signing until ${formatDate(rotated.previousSecretExpiresAt)}.`,
            );
            await reload();
          },
          { class: 'secondary small' },
        ),
        run(
          'Delete',
          async () => {
            if (
              !(await confirmAction(
                'Delete endpoint',
                `Delete ${endpoint.url}? Its pending events and delivery log go with it.`,
                'Delete',
                true,
              ))
            )
              return;
            await api('DELETE', path);
            log.startLoad();
            mount(log.element);
            await reload();
          },
          { class: 'danger small' },
        ),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {Ctx} ctx
 */
export async function renderWebhooks(main, ctx) {
  const base = `/businesses/${seg(ctx.business.urlKey)}/webhooks`;
  const message = h('div');
  const list = h('section', { class: 'card' });
  const logPanel = h('section', { class: 'card', 'aria-live': 'polite' });
  /** @type {LogPanel} */
  const log = { element: logPanel, startLoad: latestOnly() };
  /** @type {EventType[]} */
  const types = (await api('GET', '/webhook-event-types')) ?? [];
  const reload = async () => {
    /** @type {Endpoint[]} */
    const endpoints = (await api('GET', base)) ?? [];
    mount(
      list,
      endpoints.length === 0
        ? h(
            'div',
            { class: 'empty' },
            h('p', {}, 'No endpoint yet. An endpoint receives signed events of this business as they happen.'),
          )
        : h(
            'table',
            { class: 'data-table stack webhooks-table', 'aria-label': 'Webhook endpoints' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['URL', 'Events', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              {},
              endpoints.map((e) => endpointRow(e, base, reload, log, message)),
            ),
          ),
    );
  };
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Webhooks'),
      h(
        'p',
        { class: 'subtitle' },
        `Events of ${ctx.business.name} (${ctx.business.urlKey}), signed with Standard Webhooks and retried for about three days.`,
      ),
    ),
    message,
    h('section', { class: 'card' }, createForm(base, types, reload, message)),
    list,
    logPanel,
  );
  await reload();
}
