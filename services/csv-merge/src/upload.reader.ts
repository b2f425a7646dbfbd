import { Readable } from 'node:stream';

/** Size of the slices an upload is read in (bytes). */
export const UPLOAD_CHUNK_BYTES = 64 * 1024;

/**
 * A byte stream over an upload whose bytes are fetched only when the stream is first read
 * (`load` runs then, once). The merge parses its two files one after the other, so the second
 * file's bytes are not held in memory while the first is parsed. The bytes are served as
 * slices of the loaded Buffer (no copies).
 *
 * `load` rejecting (PostgreSQL unreachable, upload gone) makes the stream fail with that error;
 * `onLoadError` sees it first, so the caller can tell a storage failure from a bad file.
 */
export function lazyUploadStream(
  load: () => Promise<Buffer>,
  onLoadError?: (error: unknown) => void,
): Readable {
  async function* slices(): AsyncGenerator<Buffer, void, undefined> {
    let bytes: Buffer;
    try {
      bytes = await load();
    } catch (error) {
      onLoadError?.(error);
      throw error;
    }
    for (let at = 0; at < bytes.length; at += UPLOAD_CHUNK_BYTES) {
      yield bytes.subarray(at, at + UPLOAD_CHUNK_BYTES);
    }
  }
  return Readable.from(slices(), { objectMode: false, highWaterMark: UPLOAD_CHUNK_BYTES });
}
