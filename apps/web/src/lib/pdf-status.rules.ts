/** What the PDF download button shows while it waits (docs/product.md#pdf-reports). */

/**
 * The status address of the PDF at `path`: `.../report.pdf` -> `.../report-status`
 * (docs/product.md#pdf-reports).
 */
export function pdfStatusPath(path: string): string {
  return path.replace(/\/report\.pdf$/, '/report-status');
}

/**
 * The busy button's text: the seconds waited, and while the render waits its turn, how many
 * renders start before it (docs/product.md#pdf-reports).
 */
export function preparingLabel(seconds: number, queuedBehind: number): string {
  const waited = `preparing PDF... ${seconds} s`;
  return queuedBehind > 0 ? `${waited} (queued behind ${queuedBehind})` : waited;
}
