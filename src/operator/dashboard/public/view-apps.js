// @ts-check
// Apps: create (secret and private key shown once), rotate secret or key, attach to and
// detach from the current business, archive and restore; when each was last used.
import { limit } from './api-document.js';
import { api, latestOnly, seg } from './api.js';
import { actionButton, confirmAction, copyText, field, formatDate, h, mount, openDialog, toast, uid } from './dom.js';
import { clearFormError, errorSummary, errorsOf, reportFormError } from './field-errors.js';

/**
 * @typedef {import('./dashboard-types.js').ViewContext} ViewContext
 * @typedef {import('./dashboard-types.js').OperatorSchemas} Schemas
 * @typedef {Schemas['App']} App
 * @typedef {[label: string, value: string, multiline: boolean]} Credential a once-shown value, and how to show it
 * @typedef {(error: any) => void} Fail
 */

const APP_LABELS = { name: 'New app name' };

/**
 * @param {string} label
 * @param {string} value
 * @param {boolean} multiline
 */
function secretField(label, value, multiline) {
  const id = uid('secret');
  const control = multiline
    ? h('textarea', { id, readonly: true, rows: 6, class: 'mono', spellcheck: 'false' })
    : h('input', { id, type: 'text', readonly: true, class: 'mono', spellcheck: 'false' });
  control.value = value;
  const copy = h(
    'button',
    { type: 'button', class: 'secondary small', 'aria-label': `Copy ${label.toLowerCase()}` },
    'Copy',
  );
  copy.addEventListener('click', async () => {
    const ok = await copyText(value);
    copy.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => {
      copy.textContent = 'Copy';
    }, 2000);
  });
  return h(
    'div',
    { class: 'field secret' },
    h('div', { class: 'secret-head' }, h('label', { for: id }, label), copy),
    control,
  );
}

/**
 * Shows freshly issued credentials once; the service cannot show them again.
 * @param {string} title
 * @param {{ appId: string, name?: string }} app
 * @param {Credential[]} fields
 */
export function showCredentials(title, app, fields) {
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
        'Copy and store it safely now: the service keeps only a hash of the secret and the public key.',
      ),
      h('dl', { class: 'facts' }, h('dt', {}, 'App'), h('dd', {}, app.name ?? '')),
      secretField('App ID', app.appId, false),
      fields.map(([label, value, multiline]) => secretField(label, value, multiline)),
    ),
    actions: [{ label: 'I have saved it, close', value: true, class: 'primary' }],
  });
}

/**
 * @param {() => Promise<void>} reload
 * @param {HTMLElement} message
 */
function createForm(reload, message) {
  const name = h('input', {
    type: 'text',
    name: 'appName',
    required: true,
    maxlength: limit('AppInput.name'),
    dataset: { field: 'name' },
  });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create app');
  const form = h(
    'form',
    { class: 'inline-form', 'aria-labelledby': 'create-app-title' },
    h('h2', { id: 'create-app-title', class: 'visually-hidden' }, 'New app'),
    field('New app name', name),
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    clearFormError(form, message);
    try {
      /** @type {import('./dashboard-types.js').OperatorSchemas['AppCreated']} */
      const app = await api('POST', '/apps', { name: name.value.trim() });
      name.value = '';
      // The credentials first: they exist only in this answer, whatever happens to the list reload.
      await showCredentials(`App “${app.name}” created`, app, [
        ['App secret', app.appSecret, false],
        ['Private key (PEM)', app.privateKeyPem, true],
        ['Token audience', app.audience ?? '', false],
      ]);
      await reload();
      name.focus();
    } catch (error) {
      if (error.status !== 401) reportFormError(form, message, error, APP_LABELS);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * After the list is drawn again, focus goes back to the same app's button instead of the top of the page.
 * @param {string} appId
 * @param {string} label
 */
function refocus(appId, label) {
  const row = document.querySelector(`tr[data-app-id="${CSS.escape(appId)}"]`);
  const buttons = [...(row?.querySelectorAll('button') ?? [])];
  (buttons.find((b) => b.textContent === label) ?? buttons[0])?.focus();
}

/**
 * @param {App} app
 * @param {ViewContext} ctx
 * @param {() => Promise<void>} reload
 * @param {HTMLElement} message
 */
function rowActions(app, ctx, reload, message) {
  /** @type {Fail} */
  const fail = (error) => {
    if (error.status !== 401) mount(message, errorSummary(error.message, errorsOf(error)));
  };
  const urlKey = ctx.business?.urlKey;
  const attached = urlKey && app.businesses.includes(urlKey);
  const toggle = !urlKey
    ? null
    : actionButton(
        attached ? 'Detach' : 'Attach',
        async () => {
          mount(message);
          try {
            if (attached) {
              const ok = await confirmAction(
                'Detach app',
                `Detach “${app.name}” from ${urlKey}? Its tokens stop working on this business at once.`,
                'Detach',
                true,
              );
              if (!ok) return;
              await api('DELETE', `/apps/${seg(app.appId)}/businesses/${seg(urlKey)}`);
              toast(`“${app.name}” detached from ${urlKey}.`);
            } else {
              await api('PUT', `/apps/${seg(app.appId)}/businesses/${seg(urlKey)}`);
              toast(`“${app.name}” attached to ${urlKey}.`);
            }
            await reload();
            refocus(app.appId, attached ? 'Attach' : 'Detach');
          } catch (error) {
            fail(error);
          }
        },
        {
          class: attached ? 'secondary small' : 'primary small',
          title: `${attached ? 'Detach from' : 'Attach to'} ${urlKey}`,
        },
      );
  const rotate = (/** @type {'secret' | 'key'} */ kind) =>
    actionButton(
      kind === 'secret' ? 'Rotate secret' : 'Rotate key',
      async () => {
        const what = kind === 'secret' ? 'secret' : 'private key';
        const ok = await confirmAction(
          `Rotate ${what}`,
          `Issue a new ${what} for “${app.name}”? The old one stops working at once.`,
          `Rotate ${what}`,
          true,
        );
        if (!ok) return;
        mount(message);
        try {
          /** @type {Partial<Schemas['SecretRotated'] & Schemas['KeyRotated']>} */
          const result = await api('POST', `/apps/${seg(app.appId)}/rotate-${kind}`);
          await showCredentials(
            `New ${what} for “${app.name}”`,
            { ...app, ...result },
            kind === 'secret'
              ? [['App secret', result.appSecret ?? '', false]]
              : [['Private key (PEM)', result.privateKeyPem ?? '', true]],
          );
        } catch (error) {
          fail(error);
        }
      },
      { class: 'secondary small' },
    );
  if (app.isArchived) return h('td', { class: 'actions' }, archiveButton(app, reload, fail));
  return h('td', { class: 'actions' }, toggle, rotate('secret'), rotate('key'), archiveButton(app, reload, fail));
}

/**
 * Archive stops every token and the secret of the app at once; restore brings back the same credentials.
 * @param {App} app
 * @param {() => Promise<void>} reload
 * @param {Fail} fail
 */
function archiveButton(app, reload, fail) {
  const archived = app.isArchived;
  return actionButton(
    archived ? 'Restore' : 'Archive',
    async () => {
      if (!archived) {
        const ok = await confirmAction(
          `Archive app “${app.name}”`,
          `Its tokens and its secret stop working at once, on every business. Its secret, key and attachments are kept: Restore makes the same credentials work again.`,
          'Archive app',
          true,
        );
        if (!ok) return;
      }
      try {
        await api('POST', `/apps/${seg(app.appId)}/${archived ? 'restore' : 'archive'}`);
        toast(`“${app.name}” ${archived ? 'restored' : 'archived'}.`);
        await reload();
        refocus(app.appId, archived ? 'Archive' : 'Restore');
      } catch (error) {
        fail(error);
      }
    },
    {
      class: archived ? 'primary small' : 'secondary small',
      'aria-label': `${archived ? 'Restore' : 'Archive'} ${app.name}`,
    },
  );
}

/**
 * "3 minutes ago" for recent times, the date beyond a day; the API writes it at most once a minute.
 * @param {string | null} iso
 */
function lastUsed(iso) {
  if (!iso) return h('span', { class: 'muted' }, 'Never');
  const minutes = Math.floor((Date.now() - Date.parse(iso)) / 60_000);
  const text =
    minutes < 2
      ? 'Just now'
      : minutes < 60
        ? `${minutes} minutes ago`
        : minutes < 1440
          ? `${Math.floor(minutes / 60)} h ago`
          : formatDate(iso);
  return h('time', { datetime: iso, title: formatDate(iso) }, text);
}

/**
 * @param {App[]} apps
 * @param {ViewContext} ctx
 * @param {() => Promise<void>} reload
 * @param {HTMLElement} message
 */
function appsTable(apps, ctx, reload, message) {
  if (apps.length === 0)
    return h(
      'div',
      { class: 'empty' },
      h('p', {}, 'No app yet. An app holds the credentials an integration uses to call the API.'),
    );
  // data-label: on a phone each row becomes a card and the cell shows its column name (styles.css .stack).
  return h(
    'table',
    { class: 'data-table stack', 'aria-label': 'Apps' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Name', 'App ID', 'Attached to', 'Created', 'Last used', 'Actions'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      apps.map((app) =>
        h(
          'tr',
          { dataset: { appId: app.appId }, class: app.isArchived ? 'archived-row' : '' },
          h(
            'td',
            { dataset: { label: 'Name' } },
            app.name,
            app.isArchived ? [' ', h('span', { class: 'badge badge-muted' }, 'Archived')] : null,
          ),
          h('td', { dataset: { label: 'App ID' } }, h('code', { class: 'id' }, app.appId)),
          h(
            'td',
            { dataset: { label: 'Attached to' } },
            app.businesses.length === 0
              ? h('span', { class: 'muted' }, 'No business')
              : app.businesses.map((k) =>
                  (app.archivedBusinesses ?? []).includes(k)
                    ? h(
                        'span',
                        {
                          class: 'badge badge-muted',
                          title: 'This business is archived: the app gets “permission denied” on it.',
                        },
                        `${k} (archived)`,
                      )
                    : h('span', { class: k === ctx.business?.urlKey ? 'badge badge-ok' : 'badge' }, k),
                ),
          ),
          h('td', { class: 'muted', dataset: { label: 'Created' } }, app.createdAt ? formatDate(app.createdAt) : '—'),
          h('td', { dataset: { label: 'Last used' } }, lastUsed(app.lastUsedAt)),
          rowActions(app, ctx, reload, message),
        ),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} main
 * @param {ViewContext} ctx
 */
export async function renderApps(main, ctx) {
  const message = h('div');
  const list = h('section', { class: 'card' });
  const showArchived = h('input', {
    type: 'checkbox',
    name: 'showArchivedApps',
    checked: sessionStorage.getItem('crmkit.showArchivedApps') === '1',
  });
  // Ticking and unticking "Show archived" quickly starts two loads: only the latest choice's answer is drawn.
  const startLoad = latestOnly();
  const reload = async () => {
    const isLatest = startLoad();
    sessionStorage.setItem('crmkit.showArchivedApps', showArchived.checked ? '1' : '0');
    /** @type {App[]} */
    const apps = (await api('GET', showArchived.checked ? '/apps?includeArchived=true' : '/apps')) ?? [];
    if (!isLatest()) return;
    mount(
      list,
      appsTable(apps, ctx, reload, message),
      h('div', { class: 'field checkbox' }, h('label', {}, showArchived, ' Show archived apps')),
    );
  };
  showArchived.addEventListener('change', () =>
    reload().then(
      () => showArchived.focus(),
      (error) => {
        if (error.status !== 401) mount(message, errorSummary(error.message, errorsOf(error)));
      },
    ),
  );
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Apps'),
      h(
        'p',
        { class: 'subtitle' },
        ctx.business
          ? `Attach and detach act on the current business, ${ctx.business.name} (${ctx.business.urlKey}).`
          : 'Create a business to attach apps to it.',
      ),
    ),
    message,
    h('section', { class: 'card' }, createForm(reload, message)),
    list,
  );
  await reload();
}
