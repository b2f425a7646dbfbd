/**
 * Which input the user last used, on the document element as `data-input="keyboard"` or
 * `"pointer"`, so focus that code moves (a heading that takes the focus when its screen opens)
 * is outlined for keyboard users only. `:focus-visible` alone cannot tell: after a click that
 * removed the focused element (a link to another screen), Chromium treats the next script
 * focus as a keyboard one. Until the first input, nothing is set: the heading stays
 * unoutlined, as for a click.
 */

/** Keys that move or act, as a keyboard user navigates; not modifiers alone or shortcuts. */
function isNavigationKey(event: KeyboardEvent): boolean {
  if (event.metaKey || event.ctrlKey || event.altKey) return false;
  return !['Shift', 'Control', 'Alt', 'Meta', 'CapsLock'].includes(event.key);
}

/**
 * Starts tracking on `doc` (listeners in the capture phase, so no handler that stops an event
 * hides it). Returns the function that stops it.
 */
export function trackInputModality(doc: Document = document): () => void {
  const root = doc.documentElement;
  const onKey = (event: KeyboardEvent) => {
    if (isNavigationKey(event)) root.dataset.input = 'keyboard';
  };
  const onPointer = () => {
    root.dataset.input = 'pointer';
  };
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('pointerdown', onPointer, true);
  return () => {
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('pointerdown', onPointer, true);
  };
}
