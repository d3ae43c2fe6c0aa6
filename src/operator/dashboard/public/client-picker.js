// @ts-check
// Picking the customer of a new lead: search the business's clients by name or clientId and link
// one, or type a name for a new client. Before a new client is made, a client whose name is the same
// once normalised (case, accents, punctuation and spacing aside) is offered instead.
import { api, latestOnly, seg } from './api.js';
import { h, mount } from './dom.js';

const SHOWN = 8;

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext} ViewContext
 * @typedef {import('./dashboard-types.js').ClientSummary} ClientSummary
 * @typedef {{ linked: ClientSummary | null, name: () => string, link: (client: ClientSummary) => void,
 *   nodes: HTMLElement[] }} ClientPicker
 */

/** "Same-Name Pvt. Ltd." and "same name pvt ltd" are one name. */
export const normalisedName = (/** @type {string | null | undefined} */ name) =>
  String(name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Active clients a lead can name (by clientId) whose name or clientId contains `text`. */
/**
 * @param {Business} business
 * @param {string} text
 * @param {number} limit
 * @returns {Promise<ClientSummary[]>}
 */
async function findClients(business, text, limit) {
  const params = new URLSearchParams({ q: text, $limit: String(limit) });
  const page = (await api('GET', `/businesses/${seg(business.urlKey)}/clients?${params}`))?.[0];
  return (page?.items ?? []).filter((/** @type {ClientSummary} */ c) => c.clientId && c.status === 'active');
}

/** Clients with the same normalised name as `name`: searched by its longest word, compared whole. */
/**
 * @param {Business} business
 * @param {string} name
 */
export async function likelyDuplicates(business, name) {
  const wanted = normalisedName(name);
  const word = wanted.split(' ').sort((a, b) => b.length - a.length)[0];
  if (!word) return [];
  return (await findClients(business, word, 50)).filter((c) => normalisedName(c.name) === wanted);
}

/**
 * The customer control: a search box that lists matching clients to link. `picker.linked` is the
 * linked client ({clientId, name}) or null; `picker.name()` the typed name for a new client.
 * @param {ViewContext & { business: Business }} ctx
 * @param {HTMLInputElement} input
 * @returns {ClientPicker}
 */
export function clientPicker(ctx, input) {
  const results = h('ul', { class: 'client-matches', 'aria-label': 'Matching clients' });
  const linkedNote = h('div', { class: 'client-linked', role: 'status' });
  /** @type {ClientPicker} */
  const picker = { linked: null, name: () => input.value.trim(), link: () => {}, nodes: [results, linkedNote] };
  // Each keystroke and each link starts over: a search still on its way must not list its matches under
  // a shorter text, or after a client was linked.
  const startSearch = latestOnly();
  /** @param {ClientSummary} client */
  const link = (client) => {
    startSearch();
    picker.linked = client;
    input.value = client.name ?? '';
    mount(results);
    mount(
      linkedNote,
      h('span', {}, `Linked to the existing client ${client.name} (${client.clientId}). `),
      h('button', { type: 'button', class: 'secondary small', onclick: unlink }, 'Change'),
    );
  };
  const unlink = () => {
    picker.linked = null;
    mount(linkedNote);
    input.focus();
  };
  picker.link = link;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  input.addEventListener('input', () => {
    if (picker.linked) unlink();
    clearTimeout(timer);
    const isLatest = startSearch();
    const text = input.value.trim();
    if (text.length < 2) {
      mount(results);
      return;
    }
    timer = setTimeout(async () => {
      const found = await findClients(ctx.business, text, SHOWN).catch(() => []);
      if (!isLatest()) return;
      mount(
        results,
        found.map((c) =>
          h(
            'li',
            {},
            h(
              'button',
              { type: 'button', class: 'secondary small', onclick: () => link(c) },
              `Use ${c.name} (${c.clientId})`,
            ),
          ),
        ),
      );
    }, 250);
  });
  return picker;
}
