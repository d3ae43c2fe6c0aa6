// @ts-check
// The leads board by keyboard (issue 39 defect 10): each card is one tab stop (its title link; its Move
// button is left out of the tab order), the arrow keys move between the cards of a column (up, down)
// and across columns (left, right: the card at the same place in the next column that has one), and M
// opens the focused card's Move dialog. A card reached so is scrolled into view inside its column,
// below the column's sticky head; the page moves only when the column reaches below the window.

const ACROSS = { ArrowLeft: -1, ArrowRight: 1 };
const ALONG = { ArrowUp: -1, ArrowDown: 1 };

/** @param {Element} column */
const cardsOf = (column) => [...column.querySelectorAll('.lead-card')];

/**
 * The card `step` places up or down its column.
 * @param {Element} card
 * @param {number} step
 */
function along(card, step) {
  const column = card.closest('.column');
  if (!column) return undefined;
  const cards = cardsOf(column);
  return cards[cards.indexOf(card) + step];
}

/**
 * The card at the same place (or the last) in the nearest column that way which holds one.
 * @param {Element} board
 * @param {Element} card
 * @param {number} step
 */
function across(board, card, step) {
  const columns = [...board.querySelectorAll('.column')];
  const from = card.closest('.column');
  if (!from) return undefined;
  const place = cardsOf(from).indexOf(card);
  for (let i = columns.indexOf(from) + step; i >= 0 && i < columns.length; i += step) {
    const cards = cardsOf(columns[i]);
    if (cards.length > 0) return cards[Math.min(place, cards.length - 1)];
  }
  return undefined;
}

/**
 * Scrolls the card's column (not the page) so the card shows whole below the sticky head.
 * @param {Element} card
 */
function reveal(card) {
  const column = card.closest('.column');
  const head = column?.querySelector('.column-head');
  if (!column || !head) return;
  const box = card.getBoundingClientRect();
  const top = head.getBoundingClientRect().bottom;
  const bottom = Math.min(column.getBoundingClientRect().bottom, innerHeight);
  if (box.top < top) column.scrollTop -= top - box.top + 4;
  else if (box.bottom > bottom) column.scrollTop += box.bottom - bottom + 4;
  // A column taller than what is left of the window below it: the page moves just enough.
  const after = card.getBoundingClientRect();
  if (after.bottom > innerHeight) scrollBy(0, after.bottom - innerHeight + 8);
}

/**
 * @param {Element | undefined} card
 */
function focusCard(card) {
  const link = /** @type {HTMLElement | null | undefined} */ (card?.querySelector('.card-title'));
  if (!card || !link) return;
  link.focus({ preventScroll: true });
  reveal(card);
}

/**
 * Arrow keys and M on the cards of `board` (one listener for the whole board, its cards come and go).
 * @param {HTMLElement} board
 */
export function boardKeys(board) {
  board.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = /** @type {Element} */ (event.target);
    const card = target.closest?.('.lead-card');
    if (!card) return;
    if (event.key === 'm' || event.key === 'M') {
      const move = /** @type {HTMLButtonElement | null} */ (card.querySelector('.card-move'));
      if (move && !move.disabled) {
        event.preventDefault();
        move.click();
      }
      return;
    }
    if (event.key in ALONG) {
      event.preventDefault();
      focusCard(along(card, ALONG[/** @type {keyof typeof ALONG} */ (event.key)]));
    } else if (event.key in ACROSS) {
      event.preventDefault();
      focusCard(across(board, card, ACROSS[/** @type {keyof typeof ACROSS} */ (event.key)]));
    }
  });
}
