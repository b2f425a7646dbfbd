import type { Readable } from 'node:stream';
import type { TUploadField } from '@aso/contracts';
import { parseExportInThread } from './export-parse.thread';
import { parseExport, type TParseOptions } from './export.parser';
import { mergeExports, type MergedDataset } from './exports.merger';

export { CsvExportError } from './csv-export.error';
export { parseExport, nextTurn, type TParsedExport, type TParseOptions } from './export.parser';
export { parseExportInThread, THREAD_IN_FLIGHT_BYTES } from './export-parse.thread';
export { toMergedData, MergedDataset, PREVIEW_ROWS } from './exports.merger';
export { exportKind, parseDateRangeText } from './exports.crosscheck';
export { writeProcessedCsv } from './processed-csv.writer';

/** How long this thread parses between turns while a parse thread waits on it (ms). */
export const THREAD_FEED_EVERY_MS = 10;

/** Options of {@link parseAndMergeExports}. */
export interface TParseAndMergeOptions extends TParseOptions {
  /**
   * The file to parse in a worker thread of its own while this thread parses the other (two cores
   * for two files; see `parseExportInThread`). Only used when both files are given. Default: none,
   * the files are parsed one after the other here.
   */
  thread?: TUploadField | null;
}

/**
 * Parses whichever exports were uploaded and merges them (spec section 5). Without
 * `options.thread` the two files are parsed one after the other, so at most one upload stream
 * is read at a time; with it, both at once (one in a worker thread). `options` go to each
 * `parseExport` (its `pause` is also awaited between the two).
 *
 * @throws CsvExportError for the first unusable file found (its message names the field).
 * @throws TypeError when neither stream is given.
 */
export async function parseAndMergeExports(
  files: {
    conversionCSV?: Readable | null;
    redownloadsCSV?: Readable | null;
  },
  options: TParseAndMergeOptions = {},
): Promise<MergedDataset> {
  const { thread, ...parseOptions } = options;
  try {
    if (thread && files.conversionCSV && files.redownloadsCSV) {
      const { maxRows, maxColumns, pauseEveryMs } = parseOptions;
      const parse = (field: TUploadField, input: Readable) =>
        field === thread
          ? parseExportInThread(input, field, { maxRows, maxColumns, pauseEveryMs })
          : // This thread also reads the other file for the thread: it turns more often, so the
            // thread is never left waiting for bytes (0.9 s of 6 s at 50 ms).
            parseExport(input, field, { ...parseOptions, pauseEveryMs: THREAD_FEED_EVERY_MS });
      const parses = [
        parse('conversionCSV', files.conversionCSV),
        parse('redownloadsCSV', files.redownloadsCSV),
      ] as const;
      try {
        const [conversion, redownloads] = await Promise.all(parses);
        return mergeExports({ conversion, redownloads });
      } catch (error) {
        // The first failure stops the other parse (its stream closed), and is thrown once
        // both have ended: no thread outlives the merge.
        for (const stream of [files.conversionCSV, files.redownloadsCSV]) stream.destroy();
        await Promise.allSettled(parses);
        throw error;
      }
    }
    const conversion = files.conversionCSV
      ? await parseExport(files.conversionCSV, 'conversionCSV', parseOptions)
      : null;
    await options.pause?.();
    const redownloads = files.redownloadsCSV
      ? await parseExport(files.redownloadsCSV, 'redownloadsCSV', parseOptions)
      : null;
    return mergeExports({ conversion, redownloads });
  } finally {
    // A failed first file must not leave the second upload stream open.
    for (const stream of [files.conversionCSV, files.redownloadsCSV]) {
      if (stream && !stream.destroyed) stream.destroy();
    }
  }
}
