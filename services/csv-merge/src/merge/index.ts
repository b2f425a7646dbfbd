import type { Readable } from 'node:stream';
import { parseExport } from './export.parser';
import { mergeExports, type TMergedDataset } from './exports.merger';

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
  decimalCommaToPoint,
  isHeaderRow,
  MAX_RECORD_BYTES,
  type TExportRow,
  type TParsedExport,
} from './export.parser';
export {
  mergeExports,
  toMergedData,
  isRedownloadsColumn,
  TERRITORY_COLUMN,
  PREVIEW_ROWS,
  type TMergedDataset,
  type TMergedFileInfo,
} from './exports.merger';
export { writeProcessedCsv, escapeFormulaText, csvCellText } from './processed-csv.writer';

/**
 * Parses whichever exports were uploaded and merges them (issue 6 points 2 and 3). The two
 * files are parsed one after the other, so at most one upload stream is read at a time.
 *
 * @throws CsvExportError for the first unusable file (its message names the field).
 * @throws TypeError when neither stream is given.
 */
export async function parseAndMergeExports(files: {
  conversionCSV?: Readable | null;
  redownloadsCSV?: Readable | null;
}): Promise<TMergedDataset> {
  try {
    const conversion = files.conversionCSV
      ? await parseExport(files.conversionCSV, 'conversionCSV')
      : null;
    const redownloads = files.redownloadsCSV
      ? await parseExport(files.redownloadsCSV, 'redownloadsCSV')
      : null;
    return mergeExports({ conversion, redownloads });
  } finally {
    // A failed first file must not leave the second upload stream open.
    for (const stream of [files.conversionCSV, files.redownloadsCSV]) {
      if (stream && !stream.destroyed) stream.destroy();
    }
  }
}
