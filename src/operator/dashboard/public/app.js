// @ts-check
// The dashboard shell: login screen, then a sidebar with one view per section (on a phone, a Menu button).
// Views live in view-*.js; each exports render(container, ctx).
import {
  api,
  clearSession,
  getCurrentBusiness,
  getSession,
  login,
  setCurrentBusiness,
  setSessionExpiredHandler,
} from './api.js';
import { confirmAction, errorBanner, field, h, mount } from './dom.js';
import { useLocale } from './locale-format.js';
import { navMenu } from './nav-menu.js';
import { renderBusinesses } from './view-businesses.js';
import { renderApps } from './view-apps.js';
import { renderPipelines } from './view-pipelines.js';
import { renderCustomFields } from './view-custom-fields.js';
import { renderClients } from './view-clients.js';
import { renderWebhooks } from './view-webhooks.js';
import { renderLeads } from './view-leads-board.js';
import { renderLeadList } from './view-leads-list.js';
import { renderLeadSettings } from './view-lead-settings.js';
import { renderClientsList } from './view-clients-list.js';
import { renderAudit } from './view-audit.js';
import { renderOperators } from './view-operators.js';
import { renderInvoices } from './view-invoices.js';
import { renderInvoiceSettings } from './view-invoice-settings.js';
import { renderReports } from './view-reports.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext} ViewContext
 * @typedef {{ route: string, label: string }} SectionName
 * @typedef {SectionName & { needsBusiness: false, render: (main: HTMLElement, ctx: ViewContext) => Promise<void> }
 *   | SectionName & { needsBusiness: true,
 *       render: (main: HTMLElement, ctx: ViewContext & { business: Business }) => Promise<void> }} Section
 *   a section with needsBusiness is rendered only once a business is picked.
 */

/** @type {Section[]} */
const SECTIONS = [
  { route: 'businesses', label: 'Businesses', render: renderBusinesses, needsBusiness: false },
  { route: 'apps', label: 'Apps', render: renderApps, needsBusiness: false },
  { route: 'leads', label: 'Leads', render: renderLeads, needsBusiness: true },
  { route: 'lead-list', label: 'Lead list', render: renderLeadList, needsBusiness: true },
  { route: 'reports', label: 'Reports', render: renderReports, needsBusiness: true },
  { route: 'pipelines', label: 'Pipelines', render: renderPipelines, needsBusiness: true },
  { route: 'lead-settings', label: 'Lead settings', render: renderLeadSettings, needsBusiness: true },
  { route: 'custom-fields', label: 'Custom fields', render: renderCustomFields, needsBusiness: true },
  { route: 'client-list', label: 'Client list', render: renderClientsList, needsBusiness: true },
  { route: 'clients', label: 'Clients', render: renderClients, needsBusiness: true },
  { route: 'invoices', label: 'Invoices', render: renderInvoices, needsBusiness: true },
  { route: 'invoice-settings', label: 'Invoice settings', render: renderInvoiceSettings, needsBusiness: true },
  { route: 'webhooks', label: 'Webhooks', render: renderWebhooks, needsBusiness: true },
  { route: 'audit', label: 'Audit log', render: renderAudit, needsBusiness: false },
  { route: 'operators', label: 'Operators', render: renderOperators, needsBusiness: false },
];

const root = /** @type {HTMLElement} */ (document.getElementById('root'));
/**
 * @type {{ businesses: Business[], loginNotice: string | null, lastEmail: string, route: string | null,
 *   leaveGuard: (() => boolean) | null, focusNext: string | null, initialLoad: boolean }}
 */
const state = {
  businesses: [],
  loginNotice: null,
  lastEmail: '',
  route: null,
  leaveGuard: null,
  focusNext: null,
  initialLoad: false,
};

/** Asks before leaving a view that holds unsaved edits (the pipeline and custom field editors). */
async function canLeave() {
  if (!state.leaveGuard?.()) return true;
  return confirmAction(
    'Discard unsaved changes?',
    'This page has changes that are not saved yet. Leave it and lose them?',
    'Discard changes',
    true,
  );
}

// A route may carry one parameter after its section (#/leads/<leadId> opens that lead) or a query
// (#/lead-list?stage=Won, #/invoices?status=PAID: the list's filters).
const sectionOf = (/** @type {string} */ route) => route.split(/[/?]/)[0];

/** The route's section; unknown routes were sent to businesses by currentRoute. */
const sectionFor = (/** @type {string} */ route) => SECTIONS.find((s) => s.route === sectionOf(route)) ?? SECTIONS[0];

function currentRoute() {
  const route = location.hash.replace(/^#\/?/, '');
  return SECTIONS.some((s) => s.route === sectionOf(route)) ? route : 'businesses';
}

function renderLogin() {
  state.initialLoad = false;
  // Signed out, no business is picked: the previous one's locale does not carry over to the sign-in page.
  useLocale(null);
  const email = h('input', {
    type: 'email',
    name: 'email',
    autocomplete: 'username',
    required: true,
    value: state.lastEmail,
  });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const message = h('div', { class: 'login-message' });
  if (state.loginNotice) mount(message, h('div', { class: 'banner banner-info', role: 'status' }, state.loginNotice));
  const submit = h('button', { type: 'submit', class: 'primary wide' }, 'Log in');
  const form = h(
    'form',
    { class: 'login-card', 'aria-labelledby': 'login-title' },
    h('div', { class: 'brand brand-large' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, 'c'), 'crmkit'),
    h('h1', { id: 'login-title' }, 'Operator log in'),
    message,
    field('E-mail', email),
    field('Password', password),
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      await login(email.value.trim(), password.value);
      state.loginNotice = null;
      await startShell();
    } catch (error) {
      mount(message, errorBanner(error.message));
      password.select();
    } finally {
      submit.disabled = false;
    }
  });
  mount(root, h('main', { class: 'login-page' }, form));
  document.getElementById('toasts')?.replaceChildren();
  (state.lastEmail ? password : email).focus();
}

/** @param {string | undefined} email */
function sessionExpired(email) {
  state.lastEmail = email ?? '';
  state.loginNotice = 'Your session has expired. Please log in again.';
  renderLogin();
}

async function logout() {
  if (!(await canLeave())) return;
  state.leaveGuard = null;
  state.lastEmail = '';
  clearSession();
  state.loginNotice = 'You have been logged out.';
  renderLogin();
}

async function loadBusinesses() {
  state.businesses = (await api('GET', '/businesses')) ?? [];
  const current = getCurrentBusiness();
  if (!state.businesses.some((b) => b.urlKey === current)) setCurrentBusiness(state.businesses[0]?.urlKey ?? null);
}

function businessSwitcher() {
  const current = getCurrentBusiness();
  const select = h(
    'select',
    { id: 'business-switcher', disabled: state.businesses.length === 0 },
    state.businesses.length === 0 ? h('option', { value: '' }, 'No business yet') : null,
    state.businesses.map((b) =>
      h('option', { value: b.urlKey, selected: b.urlKey === current }, `${b.name} (${b.urlKey})`),
    ),
  );
  select.addEventListener('change', async () => {
    if (!(await canLeave())) {
      select.value = current ?? '';
      return;
    }
    setCurrentBusiness(select.value);
    renderShell();
  });
  return h('div', { class: 'switcher' }, h('label', { for: select.id }, 'Business'), select);
}

/** Keyboard users skip the header and the section list; a plain #content link would be read as a route. */
function skipLink() {
  return h(
    'a',
    {
      href: '#content',
      class: 'skip-link',
      onclick: (/** @type {MouseEvent} */ event) => {
        event.preventDefault();
        document.getElementById('content')?.focus();
      },
    },
    'Skip to main content',
  );
}

/**
 * Where focus goes once a section has rendered: what the view asked for (focusAfterRender), else the
 * page heading when focus was lost with the old content (log in, a section link, a business switch).
 * @param {HTMLElement} main
 */
function placeFocus(main) {
  // A fresh page load leaves focus at the start of the document, where the skip link is first.
  if (state.initialLoad) {
    state.initialLoad = false;
    return;
  }
  const wanted = state.focusNext && /** @type {HTMLElement | null} */ (main.querySelector(state.focusNext));
  state.focusNext = null;
  if (wanted) {
    wanted.focus();
    return;
  }
  // Focus is lost only when it went with the old content (to the body). Focus still on an element (in
  // the section, or the Menu a phone user opened while the section loaded) stays: moving it would close
  // that menu under the user's finger (nav-menu.js closes on a focus move out of it).
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const heading = main.querySelector('h1');
  if (!heading) return;
  heading.setAttribute('tabindex', '-1');
  heading.focus();
}

function renderShell() {
  const session = getSession();
  const route = currentRoute();
  const section = sectionFor(route);
  const nav = h(
    'nav',
    { class: 'sidebar menu-panel', id: 'sections-nav', 'aria-label': 'Sections' },
    h(
      'ul',
      {},
      SECTIONS.map((s) =>
        h('li', {}, h('a', { href: `#/${s.route}`, 'aria-current': s === section ? 'page' : false }, s.label)),
      ),
    ),
  );
  // The switcher and Log out sit in the header on wide screens and fold with the links on a phone.
  const tools = h(
    'div',
    { class: 'topbar-tools menu-panel', id: 'shell-tools' },
    businessSwitcher(),
    h(
      'div',
      { class: 'user' },
      h('span', { class: 'user-email' }, session?.email ?? ''),
      h('button', { type: 'button', class: 'secondary small', onclick: logout }, 'Log out'),
    ),
  );
  const header = h('header', { class: 'topbar' });
  const top = h('div', { class: 'shell-top' }, header, nav);
  mount(
    header,
    navMenu(top, [tools, nav], section.label),
    h('div', { class: 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, 'c'), 'crmkit'),
    tools,
  );
  const main = h('main', { class: 'content', id: 'content', tabindex: '-1' });
  mount(root, skipLink(), h('div', { class: 'shell' }, top, main));
  renderSection(main, route);
}

/**
 * @param {HTMLElement} main
 * @param {string} route
 */
function renderSection(main, route) {
  state.route = route;
  state.leaveGuard = null;
  const section = sectionFor(route);
  const business = state.businesses.find((b) => b.urlKey === getCurrentBusiness()) ?? null;
  // Every figure the section draws is in this business's locale, not the browser's.
  useLocale(business?.locale);
  /** @type {ViewContext} */
  const ctx = {
    business,
    businesses: state.businesses,
    /** The route's parameter (#/leads/<leadId> → the leadId), or null. */
    param: route.includes('/') ? decodeURIComponent(route.slice(route.indexOf('/') + 1)) : null,
    refreshBusinesses: async () => {
      await loadBusinesses();
      renderShell();
    },
    /** Re-reads the list without re-rendering: the businesses view shows fresh data each time it opens. */
    reloadBusinesses: async () => {
      await loadBusinesses();
      return state.businesses;
    },
    selectBusiness: (urlKey) => {
      setCurrentBusiness(urlKey);
      renderShell();
    },
    /** guard() answers true while the view holds unsaved edits. */
    setLeaveGuard: (guard) => {
      state.leaveGuard = guard;
    },
    /** A selector (within the section) to focus once the section has rendered again. */
    focusAfterRender: (selector) => {
      state.focusNext = selector;
    },
  };
  // A section that needs a business renders only with one (its view's ctx.business is never null).
  const view = !section.needsBusiness
    ? () => section.render(main, ctx)
    : business && (() => section.render(main, { ...ctx, business }));
  if (!view) {
    mount(
      main,
      h('h1', {}, section.label),
      h(
        'div',
        { class: 'empty' },
        h('p', {}, 'Create a business first: pipelines, custom fields and clients belong to a business.'),
        h('a', { href: '#/businesses', class: 'button primary' }, 'Go to businesses'),
      ),
    );
    return;
  }
  mount(
    main,
    h('h1', {}, section.label),
    h('p', { class: 'loading', role: 'status' }, `Loading ${section.label.toLowerCase()}…`),
  );
  view().then(
    () => placeFocus(main),
    (error) => {
      if (error.status !== 401) mount(main, h('h1', {}, section.label), errorBanner(error.message));
      placeFocus(main);
    },
  );
}

async function startShell() {
  mount(root, h('p', { class: 'loading' }, 'Loading…'));
  try {
    await loadBusinesses();
  } catch (error) {
    if (error.status === 401) return;
    mount(root, errorBanner(error.message));
    return;
  }
  renderShell();
}

setSessionExpiredHandler(sessionExpired);
// A reload or a closed tab would drop unsaved edits as silently as a section link: the browser asks.
window.addEventListener('beforeunload', (event) => {
  if (getSession() && state.leaveGuard?.()) event.preventDefault();
});
window.addEventListener('hashchange', async () => {
  if (!getSession() || currentRoute() === state.route) return;
  if (!(await canLeave())) {
    // replaceState fires no hashchange: the address goes back without re-rendering the view.
    history.replaceState(null, '', `#/${state.route}`);
    return;
  }
  renderShell();
});
if (getSession()) {
  state.initialLoad = true;
  startShell();
} else renderLogin();
