/** Helpers of the component tests. */

/** Disabled, natively or (a button that keeps the focus) through `aria-disabled`. */
export function isRefused(button: HTMLElement): boolean {
  return button.hasAttribute('disabled') || button.getAttribute('aria-disabled') === 'true';
}
