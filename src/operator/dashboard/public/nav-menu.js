// @ts-check
// On a phone the shell's navigation (the section links, the business switcher, Log out) folds behind one
// Menu button with the current section's name beside it: as a list it put every page's heading 225 px
// down the screen (issue 39 defect 11). Below 640 px the CSS hides the panels unless they carry is-open;
// wider screens never show the button and always show the panels (styles.css "Shell menu").
import { h } from './dom.js';

/** The open menu, if any: one tap or focus move anywhere on the page may close it. */
/** @type {{ area: HTMLElement, close: () => void } | null} */
let open = null;

document.addEventListener('pointerdown', (event) => {
  if (open && !(event.target instanceof Node && open.area.contains(event.target))) open.close();
});

/**
 * A disclosure button for the shell's navigation: Escape, or a link chosen in it, closes it and puts focus
 * back on the button; a tap or a focus move outside `area` closes it and leaves focus where it went.
 * @param {HTMLElement} area the element holding the button and the panels
 * @param {HTMLElement[]} panels what the button shows and hides (each with an id)
 * @param {string} current the current section's name, shown beside the button
 * @returns {HTMLElement[]} the button and the name, for the header
 */
export function navMenu(area, panels, current) {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary small menu-toggle',
      'aria-expanded': 'false',
      'aria-controls': panels.map((panel) => panel.id).join(' '),
    },
    h('span', { class: 'menu-icon', 'aria-hidden': 'true' }),
    'Menu',
  );
  /** @param {boolean} show */
  const set = (show) => {
    button.setAttribute('aria-expanded', String(show));
    for (const panel of panels) panel.classList.toggle('is-open', show);
    if (open?.area === area && !show) open = null;
    if (show) open = { area, close: () => set(false) };
  };
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const closeToButton = () => {
    set(false);
    button.focus();
  };
  button.addEventListener('click', () => set(!isOpen()));
  area.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) closeToButton();
  });
  // Tab past the last link lands in the page, which the open menu may cover: the menu goes.
  area.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Node && !area.contains(event.relatedTarget)) set(false);
  });
  // A link chosen: the new page renders a fresh shell; the current page chosen again (no hashchange) or a
  // refused leave must still close the menu and keep focus somewhere.
  for (const panel of panels)
    panel.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a[href]') && isOpen()) closeToButton();
    });
  return [button, h('span', { class: 'menu-current' }, current)];
}
