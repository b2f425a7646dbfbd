import type { TUploadField } from '@aso/contracts';

/** Why an export was rejected. */
export type TCsvExportErrorReason =
  | 'empty'
  | 'binary'
  | 'no_header'
  | 'no_rows'
  | 'too_many_rows'
  | 'too_many_columns'
  | 'malformed'
  | 'read_failed'
  /** The two files do not describe the same app, territory and date range. */
  | 'mismatch'
  /** Both files are the same kind of export (two conversion or two redownloads exports). */
  | 'same_kind';

/**
 * An App Store Connect export that cannot be used (docs/product.md#merging-exports). The message
 * starts with the upload field and says what was expected, e.g. `redownloadsCSV: no header row with
 * a Date column found in the first 20 lines`; it is meant to reach the user as the 400 answer's
 * `message`. A retry cannot fix it.
 */
export class CsvExportError extends Error {
  override readonly name = 'CsvExportError';

  constructor(
    /** The multipart field of the file ('conversionCSV' or 'redownloadsCSV'). */
    readonly field: TUploadField,
    readonly reason: TCsvExportErrorReason,
    /** What is wrong, without the field (the message is `${field}: ${detail}`). */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${field}: ${detail}`, options);
  }
}
