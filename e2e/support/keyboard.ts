/**
 * Keyboard helpers of the browser tests: move with Tab / Shift+Tab until an element has the
 * focus, tell what has it, and whether its focus shows. The page's DOM is reached through
 * string expressions and structural types (the e2e tsconfig has no DOM types).
 */
import type { Locator, Page } from 'playwright-core';
import { settle } from './axe';

/** Structural view of an element, enough to compare it with the document's active element. */
interface TFocusable {
  ownerDocument: { activeElement: unknown };
}

/** Whether the focus is on `locator`'s element or inside it (false when it is not in the page). */
export async function holdsFocus(locator: Locator): Promise<boolean> {
  if ((await locator.count()) === 0) return false;
  return locator.evaluate((el: TFocusable & { contains(other: unknown): boolean }) =>
    el.contains(el.ownerDocument.activeElement),
  );
}

/** Whether `locator`'s element has the focus (false when it is not in the page). */
export async function isFocused(locator: Locator): Promise<boolean> {
  if ((await locator.count()) === 0) return false;
  return locator.evaluate((el: TFocusable) => el === el.ownerDocument.activeElement);
}

/**
 * A short description of the focused element (`tag "text"`, `BODY` when nothing has the
 * focus), for failure messages.
 */
export function focusedDescription(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    const name = el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 60);
    return el.tagName.toLowerCase() + ' "' + name + '"';
  })()`);
}

/**
 * Presses Tab (or Shift+Tab when `backwards`) until `target` has the focus, at most `max`
 * times; throws with the path walked when it never does.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { backwards = false, max = 60 }: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  const walked: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await isFocused(target)) return;
    walked.push(await focusedDescription(page));
  }
  throw new Error(
    `${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target.toString()}: ${walked.join(' > ')}`,
  );
}

/**
 * Whether the focused element shows its focus: a visible outline, or a box-shadow ring with a
 * spread and a colour that is not transparent, on the element itself or (`peer`) on the
 * element after it (a visually hidden file field whose drop zone shows the focus). Waits for
 * transitions first.
 */
export async function focusIsVisible(page: Page, { peer = false } = {}): Promise<boolean> {
  await settle(page);
  return page.evaluate<boolean>(`(() => {
    let el = document.activeElement;
    if (!el || el === document.body) return false;
    if (${peer}) el = el.nextElementSibling;
    if (!el) return false;
    const style = getComputedStyle(el);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
    if (style.boxShadow === 'none') return false;
    return style.boxShadow.split(/,(?![^(]*\\))/).some((layer) => {
      if (/rgba\\([^)]*,\\s*0\\)|\\/\\s*0\\)|transparent/.test(layer)) return false;
      const lengths = layer.match(/-?[\\d.]+px/g) ?? [];
      return lengths.length >= 4 && parseFloat(lengths[3]) > 0;
    });
  })()`);
}
