/**
 * Client-side checks of the two CSV exports before upload (docs/product.md#validation-rules: "CSV
 * files"; docs/product.md#limits-and-constants: "CSV: at most 20 MB per file; name ends in .csv").
 * The api checks the same again.
 */

/** Largest accepted file: 20 MB, counted in binary megabytes (20 x 1024 x 1024 bytes). */
export const CSV_MAX_BYTES = 20 * 1024 * 1024;

/** Message for a file whose name does not end in .csv (docs/product.md#validation-rules). */
export const CSV_TYPE_MESSAGE = 'Only CSV files are accepted';

/** Message for a file above {@link CSV_MAX_BYTES} (docs/product.md#validation-rules). */
export const CSV_SIZE_MESSAGE = 'File size must be less than 20MB';

/** What the checks need of a `File`. */
export interface TFileLike {
  name: string;
  /** Bytes. */
  size: number;
}

/**
 * Checks a chosen file: the name must end in `.csv` (case-insensitive) and the size must be at
 * most 20 MB. Returns the documented message for the first rule broken, or null when accepted.
 */
export function validateCsvFile(file: TFileLike): string | null {
  if (!file.name.trim().toLowerCase().endsWith('.csv')) return CSV_TYPE_MESSAGE;
  if (file.size > CSV_MAX_BYTES) return CSV_SIZE_MESSAGE;
  return null;
}

/** The two upload slots, named like the multipart fields of `POST /api/uploads`. */
export type TUploadSlot = 'conversionCSV' | 'redownloadsCSV';
