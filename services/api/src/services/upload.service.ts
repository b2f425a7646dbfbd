import type { FastifyRequest } from 'fastify';
import { formatFileSize } from '@aso/analytics';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { isStorableText, TEXT_ERROR, ZUploadField, type TUploadField } from '@aso/contracts';
import { deleteUploads, findRecentSameUpload, insertUpload, userStorage, type TDb } from '@aso/db';
import { AppError, badRequest } from '../lib/app-error';

/** Largest accepted file: 20 MB = 20 x 1024 x 1024 bytes (docs/product.md#limits-and-constants). */
/**
 * How long after an unanswered upload the same file, sent again, reuses it (ms): covers a
 * retry after a cut request, not a re-upload days later (which gets fresh uploads and expiry).
 */
export const UPLOAD_AGAIN_MS = 15 * 60_000;

export const CSV_MAX_BYTES = 20 * 1024 * 1024;
/** Answer to a file above {@link CSV_MAX_BYTES} (docs/product.md#validation-rules). */
export const CSV_SIZE_MESSAGE = 'File size must be less than 20MB';
/** Answer to a file whose name does not end in `.csv` (docs/product.md#validation-rules). */
export const CSV_TYPE_MESSAGE = 'Only CSV files are accepted';

/** A 400 keeping what caused it (for the log). */
const refused = (message: string, cause?: unknown) =>
  new AppError('BAD_REQUEST', message, { cause });

const FIELDS_HINT = 'send the CSV exports in the file fields conversionCSV and/or redownloadsCSV';

/**
 * Busboy limits of `POST /api/uploads`. `files` is 3, one more than the two fields, so a third
 * file reaches the handler and can be refused by name (at 2 busboy would drop it silently);
 * the handler refuses it before reading any of its bytes. Text fields are refused by name
 * too, so a few short ones are let through to be named.
 */
export const UPLOAD_MULTIPART_LIMITS = {
  fileSize: CSV_MAX_BYTES,
  files: 3,
  fields: 4,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 8,
  headerPairs: 100,
} as const;

/** The uploads of one request, stored in `uploads`. */
export interface TReceivedUploads {
  conversionUploadId: string | null;
  redownloadsUploadId: string | null;
  /** Every id stored by this request, in arrival order (deleted when it is refused). */
  ids: string[];
  /** Ids of uploads of an earlier request sent again, reused as they are. */
  reused: string[];
  /** Bytes stored per field. */
  sizes: Partial<Record<TUploadField, number>>;
}

/** Whether `filename` ends in `.csv`, case-insensitively (docs/product.md#validation-rules). */
export function isCsvFileName(filename: string): boolean {
  return filename.trim().toLowerCase().endsWith('.csv');
}

/** What {@link receiveUploads} needs. */
export interface TReceiveUploadsDeps {
  db: TDb;
  userId: string;
  /** Days until the uploads expire (`DATASET_TTL_DAYS`). */
  ttlDays: number;
  /** Bytes the user may store in all (`USER_STORAGE_QUOTA_MB` x 1024 x 1024). */
  quotaBytes: number;
}

/**
 * The 413 of an upload that would take the user past their storage quota
 * (docs/product.md#limits-and-constants): the quota, what is stored, what the upload adds, and
 * when stored exports start to expire.
 */
export function storageQuotaRefusal(
  quotaBytes: number,
  storage: { bytes: number; firstExpiry: Date | null },
  addingBytes: number,
): AppError {
  const frees = storage.firstExpiry
    ? `; stored exports expire with their datasets, the next on ${storage.firstExpiry.toISOString().slice(0, 10)}`
    : '';
  const adds = addingBytes > 0 ? `, and this upload adds ${formatFileSize(addingBytes)}` : '';
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `Storage quota reached: your uploads, datasets and PDFs take ${formatFileSize(storage.bytes)} of your ${formatFileSize(quotaBytes)} (USER_STORAGE_QUOTA_MB)${adds}${frees}`,
  );
}

/** Reads one file part whole: its chunks as they arrive, one Buffer at the end (never a string). */
async function readFilePart(part: MultipartFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
    }
  } catch (err) {
    throw refused(
      `${part.fieldname}: the upload was cut off or is not valid multipart/form-data`,
      err,
    );
  }
  // Busboy stops at the limit and marks the stream truncated; the tail was never kept.
  if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', CSV_SIZE_MESSAGE);
  return Buffer.concat(chunks, bytes);
}

/** Multipart parsing errors carry a 4xx status; busboy's own (malformed body) carry none. */
function multipartError(err: unknown): Error {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 406) return refused(`The request is not multipart/form-data: ${FIELDS_HINT}`, err);
  if (status === 413) return refused(`Too many parts in the upload: ${FIELDS_HINT}`, err);
  if (status !== undefined && status >= 500) return err as Error;
  return refused(`The upload is not valid multipart/form-data: ${FIELDS_HINT}`, err);
}

/**
 * Reads the multipart body of `POST /api/uploads` (docs/product.md#api-calls) and stores each file
 * in `uploads` as soon as it has arrived, so at most one file is held in memory (one Buffer, at
 * most 20 MB). Checks, each before any later part is read:
 * - a text field, or a file in any field but `conversionCSV`/`redownloadsCSV`, or a field sent
 *   twice (so also any third file): 400 naming the field;
 * - a name not ending in `.csv`: 400 'Only CSV files are accepted' (before reading the bytes);
 * - a file above 20 MB: 413 'File size must be less than 20MB';
 * - a file that would take what the user stores past `deps.quotaBytes` (uploads, datasets and
 *   PDFs; the user's previous upload is merged by then, one merge per user at a time): 413
 *   {@link storageQuotaRefusal}, before the file is stored; a user already at the quota is
 *   refused before any part is read;
 * - no file at all: 400.
 * On any refusal the files already stored for this request are deleted again.
 *
 * @throws AppError 400 / 413 as above; database errors as they are.
 */
export async function receiveUploads(
  req: FastifyRequest,
  deps: TReceiveUploadsDeps,
): Promise<TReceivedUploads> {
  if (!req.isMultipart()) {
    throw badRequest(`The request is not multipart/form-data: ${FIELDS_HINT}`);
  }
  const storage = await userStorage(deps.db, deps.userId);
  if (storage.bytes >= deps.quotaBytes) throw storageQuotaRefusal(deps.quotaBytes, storage, 0);
  const received: TReceivedUploads = {
    conversionUploadId: null,
    redownloadsUploadId: null,
    ids: [],
    reused: [],
    sizes: {},
  };
  let adding = 0;
  try {
    const parts = req.parts()[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (err) {
        throw multipartError(err);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type !== 'file') {
        throw badRequest(`Unexpected field "${part.fieldname}": ${FIELDS_HINT}`);
      }
      const field = ZUploadField.safeParse(part.fieldname);
      if (!field.success) {
        part.file.resume();
        throw badRequest(`Unexpected file field "${part.fieldname}": ${FIELDS_HINT}`);
      }
      const slot = field.data === 'conversionCSV' ? 'conversionUploadId' : 'redownloadsUploadId';
      if (received[slot] !== null) {
        part.file.resume();
        throw badRequest(`${field.data} was sent more than once: send one file per field`);
      }
      if (!isCsvFileName(part.filename)) {
        part.file.resume();
        throw badRequest(CSV_TYPE_MESSAGE);
      }
      if (!isStorableText(part.filename)) {
        part.file.resume();
        throw badRequest(`${field.data}: the file name ${TEXT_ERROR}`);
      }
      const content = await readFilePart(part);
      const file = {
        userId: deps.userId,
        field: field.data,
        filename: part.filename.trim(),
        content,
      };
      // The same file sent again shortly after a request that got no answer (cut, e.g. by a
      // gateway that died) is the same upload: merged under the same job id, it answers the
      // dataset the first request's merge stored (or joins that merge), instead of a second one.
      const earlier = await findRecentSameUpload(deps.db, { ...file, withinMs: UPLOAD_AGAIN_MS });
      if (!earlier && storage.bytes + adding + content.length > deps.quotaBytes) {
        throw storageQuotaRefusal(deps.quotaBytes, storage, adding + content.length);
      }
      if (!earlier) adding += content.length;
      const id = earlier ?? (await insertUpload(deps.db, { ...file, ttlDays: deps.ttlDays }));
      received[slot] = id;
      if (!earlier) received.ids.push(id);
      else received.reused.push(id);
      received.sizes[field.data] = content.length;
    }
  } catch (err) {
    await deleteUploads(deps.db, deps.userId, received.ids).catch((cleanupErr: unknown) =>
      req.log.warn({ err: cleanupErr }, 'could not delete the uploads of a refused request'),
    );
    throw err;
  }
  if (received.ids.length + received.reused.length === 0) {
    throw badRequest(`No file received: ${FIELDS_HINT}`);
  }
  return received;
}
