/**
 * Layout checks of the browser tests: what sticks out sideways. At a phone's width nothing may
 * make the page scroll horizontally; a wide table scrolls inside its own region instead (an
 * element inside a box that scrolls or clips sideways, or in a fixed layer such as a closed
 * sheet, is not counted). The page's DOM is reached through a
 * string expression (the e2e tsconfig has no DOM types).
 */
import type { Page } from 'playwright-core';
import { settle } from './axe';

/** An element whose box reaches past the viewport's right edge (or starts left of 0). */
export interface TOverflow {
  /** `tag#id.class` and its test id, enough to find it. */
  element: string;
  left: number;
  right: number;
  viewport: number;
}

/**
 * The visible elements of the page (inside `root`, a CSS selector, when given) that stick out
 * of the viewport sideways by more than 1 px, with the document's own scroll width as the
 * first entry when it exceeds the viewport. Empty when the layout fits. Waits for animations
 * first.
 */
export async function horizontalOverflow(page: Page, root = 'body'): Promise<TOverflow[]> {
  await settle(page);
  return page.evaluate<TOverflow[]>(`(() => {
    const viewport = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > viewport + 1) {
      out.push({ element: 'document', left: 0, right: document.documentElement.scrollWidth, viewport });
    }
    // Inside a box that scrolls or clips sideways, or in a fixed layer (a sheet, a toast).
    const contained = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.position === 'fixed') return true;
        if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX)) return true;
      }
      return false;
    };
    const scope = document.querySelector(${JSON.stringify(root)}) || document.body;
    for (const el of scope.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.position === 'fixed') continue;
      if (r.right <= viewport + 1 && r.left >= -1) continue;
      if (contained(el)) continue;
      const id = el.id ? '#' + el.id : '';
      const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.') : '';
      const testId = el.getAttribute('data-testid');
      out.push({
        element: el.tagName.toLowerCase() + id + cls + (testId ? ' [' + testId + ']' : ''),
        left: Math.round(r.left),
        right: Math.round(r.right),
        viewport,
      });
      if (out.length >= 20) break;
    }
    return out;
  })()`);
}
