// The operations list beside the reference: folded on narrow screens, filtered by the words typed above it.
import { h } from '/assets/dom.js';

/** The words an entry of the list is found by, lower case (docs.js puts them in its data-find). */
export const findText = (method, path, op) => `${method} ${path} ${op.summary ?? ''} ${op.operationId}`.toLowerCase();

/**
 * A filter box over the list's entries (`li[data-find]`): an entry stays when it holds every word typed;
 * a tag with no entry left goes too. The count is announced, since the list may be out of sight.
 */
export function navFilter(nav) {
  const count = h('p', { class: 'nav-count muted', 'aria-live': 'polite' });
  const input = h('input', {
    type: 'search',
    class: 'nav-filter',
    placeholder: 'Filter operations',
    'aria-label': 'Filter operations',
    oninput: () => {
      const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      let total = 0;
      for (const group of nav.querySelectorAll('.nav-group')) {
        let any = false;
        for (const li of group.querySelectorAll('li[data-find]')) {
          const hit = words.every((word) => li.dataset.find.includes(word));
          li.hidden = !hit;
          any ||= hit;
          total += 1;
          if (hit) shown += 1;
        }
        group.hidden = !any;
      }
      count.textContent = words.length ? `${shown} of ${total} operations` : '';
    },
  });
  return [input, count];
}

/**
 * Below 800 px the list (some 200 links) folds behind "Operations", so that the page opens on the
 * introduction instead of six screens of links; picking one folds it again. Wider, it is always open.
 */
export function foldNavOnNarrowScreens() {
  const fold = document.getElementById('nav-fold');
  const wide = matchMedia('(min-width: 801px)');
  const apply = () => {
    fold.open = wide.matches;
  };
  apply();
  wide.addEventListener('change', apply);
  document.getElementById('nav').addEventListener('click', (event) => {
    if (!wide.matches && event.target.closest('a')) fold.open = false;
  });
}
