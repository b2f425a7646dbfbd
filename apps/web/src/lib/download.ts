/**
 * Downloads of files the API answers (PDF reports, the processed CSV): fetched with the bearer
 * header (a plain link could not send it) and handed to the browser as a file.
 */
import { ApiError, authHeaders } from './api';
import { fileNameFromDisposition } from './file-download.helpers';

export { saveBlob } from './file-download.helpers';

/**
 * Fetches `path` as the signed-in user and returns the body with the server's file name
 * (`fallbackName` when it gives none).
 *
 * @throws {ApiError} `"<status>: <body>"` on a non-2xx answer.
 * @throws {DOMException} `TimeoutError` after `timeoutMs` (default 2 minutes: a PDF may be
 *   rendered first).
 */
export async function fetchDownload(
  path: string,
  fallbackName: string,
  timeoutMs = 120_000,
): Promise<{ blob: Blob; fileName: string }> {
  const res = await fetch(path, {
    headers: authHeaders(),
    credentials: 'include',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) {
    throw new ApiError(res.status, await res.text(), res.statusText);
  }
  const blob = await res.blob();
  return {
    blob,
    fileName: fileNameFromDisposition(res.headers.get('content-disposition')) ?? fallbackName,
  };
}
