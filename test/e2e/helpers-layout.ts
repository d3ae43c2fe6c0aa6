import type { Page } from 'playwright-core';
import { screenshot } from './helpers-browser.js';

export const DESKTOP = { width: 1360, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * `<name>-desktop.png` (1360 px, or the width given: issue 38's pages are shot at 1280) and `<name>-phone.png`
 * (390 px), whole pages, as the page is now; leaves the desktop size.
 */
export async function shootBoth(page: Page, name: string, desktopWidth = DESKTOP.width): Promise<void> {
  await page.setViewportSize({ width: desktopWidth, height: DESKTOP.height });
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Below 640 px the navigation (section links, business, Log out) folds behind the Menu button: opens it. */
export async function openMenu(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}

/** "TAG text" of the focused element, for asserting where keyboard focus is. */
export function activeElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 60)}`.trim() : 'none';
  });
}

/** What sticks out of the viewport sideways: the document itself, or any visible control. */
export function fitsPhone(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`document is ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll('button, input, select, a, code')) {
      // Not rendered (display: none, or inside a closed <details>): it cannot widen the page. Asked first,
      // because a rect inside a closed <details> makes Chromium lay that subtree out for the one call:
      // 20,293 rects of the API reference took 94 s at 390 px; asking checkVisibility first, 34 ms.
      if (!el.checkVisibility()) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.left < -1 || rect.right > width + 1)
        out.push(
          `${el.tagName} “${(el.textContent ?? '').trim().slice(0, 30)}” spans ${Math.round(rect.left)}–${Math.round(rect.right)}px`,
        );
    }
    return out;
  });
}

/** In-page: WCAG contrast of two CSS colours, the background found on the nearest ancestor that paints one. */
const CONTRAST_SCRIPT = `
  window.__contrast ??= (() => {
    const rgb = (css) => (css.match(/[\\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [hi, lo] = [lum(rgb(a)), lum(rgb(b))].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        const parts = rgb(c);
        if (parts.length === 3 || (parts.length === 4 && parts[3] === 1)) return c;
      }
      return 'rgb(255, 255, 255)';
    };
    return { ratio, background };
  })();
`;

/** Every visible badge's text contrast against its own background. */
export async function contrastOfBadges(page: Page): Promise<{ text: string; ratio: number }[]> {
  await page.evaluate(CONTRAST_SCRIPT);
  return page.evaluate(() => {
    const { ratio, background } = (window as any).__contrast;
    return [...document.querySelectorAll('.badge')]
      .filter((b) => (b as HTMLElement).offsetParent !== null)
      .map((b) => ({
        text: b.textContent ?? '',
        ratio: Math.round(ratio(getComputedStyle(b).color, background(b)) * 100) / 100,
      }));
  });
}

/** The focused element's outline colour against what surrounds it (the ring is drawn outside it). */
export async function focusRingContrast(page: Page): Promise<number> {
  await page.evaluate(CONTRAST_SCRIPT);
  return page.evaluate(() => {
    const { ratio, background } = (window as any).__contrast;
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 2) return 0;
    return ratio(style.outlineColor, background(el.parentElement));
  });
}
