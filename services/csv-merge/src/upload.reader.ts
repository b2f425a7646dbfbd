import { Readable } from 'node:stream';

/** Size of the slices an upload is handed to the parser in (bytes). */
export const UPLOAD_CHUNK_BYTES = 64 * 1024;
/**
 * Bytes fetched from PostgreSQL per query (a 20 MB upload is read in 20). The
 * driver keeps, per connection, a buffer as large as the largest answer it received, and
 * decodes a bytea answer through a hex string twice its size: small slices keep both small.
 */
export const UPLOAD_FETCH_BYTES = 1024 * 1024;

/**
 * A byte stream over an upload of `size` bytes, fetched from storage `UPLOAD_FETCH_BYTES` at a
 * time (`read(offset, length)`) once the stream is first read, the next slice while the
 * current one is consumed, and served in 64 KB slices of each fetched Buffer (no copies). The merge parses its two files one after the other, so the
 * second file is not read while the first is parsed, and at most one fetched slice of a file
 * and the next are held at a time (the driver decodes a bytea value through several copies of
 * it: reading 20 MB at once held about 100 MB).
 *
 * `read` rejecting (PostgreSQL unreachable, upload gone) or giving fewer bytes than the upload
 * had makes the stream fail with that error; `onLoadError` sees it first, so the caller can
 * tell a storage failure from a bad file.
 */
export function lazyUploadStream(
  read: (offset: number, length: number) => Promise<Buffer>,
  size: number,
  onLoadError?: (error: unknown) => void,
): Readable {
  const fetch = (offset: number): Promise<Buffer> => {
    const fetching = read(offset, Math.min(UPLOAD_FETCH_BYTES, size - offset)).then((bytes) => {
      if (bytes.length === 0) throw new Error(`the upload ended at byte ${offset} of ${size}`);
      return bytes;
    });
    // Awaited below; a failure of a prefetch nobody awaits (the stream was closed) is ignored.
    fetching.catch(() => undefined);
    return fetching;
  };
  async function* slices(): AsyncGenerator<Buffer, void, undefined> {
    let next = size > 0 ? fetch(0) : null;
    for (let offset = 0; next;) {
      let bytes: Buffer;
      try {
        bytes = await next;
      } catch (error) {
        onLoadError?.(error);
        throw error;
      }
      offset += bytes.length;
      // The next slice is fetched while this one is parsed.
      next = offset < size ? fetch(offset) : null;
      for (let at = 0; at < bytes.length; at += UPLOAD_CHUNK_BYTES) {
        yield bytes.subarray(at, at + UPLOAD_CHUNK_BYTES);
      }
    }
  }
  return Readable.from(slices(), { objectMode: false, highWaterMark: UPLOAD_CHUNK_BYTES });
}
