/** Pure helpers of file downloads (unit-tested and shared by the features). */

import { parse as parseContentDisposition } from 'content-disposition';

/** Saves `blob` as a download named `fileName` (an object URL and a clicked link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: some browsers start reading the URL only after the click handler returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * File name from a `Content-Disposition` header, read by the `content-disposition` package
 * (RFC 6266: the RFC 8187 `filename*` form wins over `filename`), or null when the header is
 * absent, names no file or cannot be read.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  try {
    return parseContentDisposition(header).parameters.filename?.trim() || null;
  } catch {
    return null;
  }
}
