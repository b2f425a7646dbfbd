import type { Readable } from 'node:stream';
import { parseExport, type TParseOptions } from './export.parser';
import { mergeExports, type MergedDataset } from './exports.merger';

export { CsvExportError, type TCsvExportErrorReason } from './csv-export.error';
export {
  openExportText,
  sniffDelimiter,
  isDateHeaderCell,
  HEADER_SEARCH_LINES,
  SNIFF_BYTES,
  type TExportDelimiter,
  type TExportEncoding,
  type TOpenedText,
} from './text-decoder.stream';
export { parsePreamble, looksLikeDateRange, type TPreamble } from './preamble.parser';
export {
  parseExport,
  isHeaderRow,
  nextTurn,
  ParsedExport,
  MAX_RECORD_BYTES,
  MAX_EXPORT_ROWS,
  PAUSE_EVERY_MS,
  type TExportRow,
  type TParsedExport,
  type TParseOptions,
} from './export.parser';
export { createCellReader, decimalCommaToPoint } from './cell-value.reader';
export { parseExportDay, isoFromDayNumber, NO_DAY } from './export-day.parser';
export { CellTable } from './cell.table';
export {
  mergeExports,
  toMergedData,
  isRedownloadsColumn,
  MergedDataset,
  TERRITORY_COLUMN,
  PREVIEW_ROWS,
  type TMergedDataset,
  type TMergedFileInfo,
} from './exports.merger';
export { writeProcessedCsv, escapeFormulaText, csvCellText } from './processed-csv.writer';

/**
 * Parses whichever exports were uploaded and merges them (issue 6 points 2 and 3). The two
 * files are parsed one after the other, so at most one upload stream is read at a time;
 * `options` go to each `parseExport` (its `pause` is also awaited between the two).
 *
 * @throws CsvExportError for the first unusable file (its message names the field).
 * @throws TypeError when neither stream is given.
 */
export async function parseAndMergeExports(
  files: {
    conversionCSV?: Readable | null;
    redownloadsCSV?: Readable | null;
  },
  options: TParseOptions = {},
): Promise<MergedDataset> {
  try {
    const conversion = files.conversionCSV
      ? await parseExport(files.conversionCSV, 'conversionCSV', options)
      : null;
    await options.pause?.();
    const redownloads = files.redownloadsCSV
      ? await parseExport(files.redownloadsCSV, 'redownloadsCSV', options)
      : null;
    return mergeExports({ conversion, redownloads });
  } finally {
    // A failed first file must not leave the second upload stream open.
    for (const stream of [files.conversionCSV, files.redownloadsCSV]) {
      if (stream && !stream.destroyed) stream.destroy();
    }
  }
}
