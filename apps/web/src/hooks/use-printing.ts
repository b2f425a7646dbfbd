/**
 * Whether the page is one of the print pages the PDF reports are rendered from (`/print/...`):
 * they mark the document `data-print="true"` before their content renders. Printed content has
 * no controls: disclosures open, texts in full, images loaded eagerly, no zoom or pickers.
 */
export function isPrinting(): boolean {
  return document.documentElement.dataset.print === 'true';
}
