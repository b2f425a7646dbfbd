import type { MouseEvent } from 'react';

/** Id of each screen's `<main>`: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * 'Skip to main content': the first Tab stop of every screen, hidden until focused (WCAG 2.1
 * 2.4.1 Bypass Blocks). Moves focus to the `<main id="main-content" tabIndex={-1}>` of the
 * screen without changing the URL.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus({ preventScroll: true });
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="fixed top-2 left-2 print:hidden z-[200] -translate-y-[200%] rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground shadow-lg outline-none focus-visible:translate-y-0 focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      Skip to main content
    </a>
  );
}
