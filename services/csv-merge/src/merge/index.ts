import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { TUploadField } from '@aso/contracts';
import type { ExportParsePool } from './export-parse.thread';
import { nextTurn, PAUSE_EVERY_MS, type TParseOptions } from './export-limits';
import { parseExport } from './export.parser';
import { mergeExports, type MergedDataset } from './exports.merger';

export { CsvExportError } from './csv-export.error';
export { parseExport } from './export.parser';
export { nextTurn, type TParseOptions } from './export-limits';
export type { TParsedExport } from './export-result';
export { ExportParsePool, THREAD_IN_FLIGHT_BYTES } from './export-parse.thread';
export { toMergedData, MergedDataset, PREVIEW_ROWS } from './exports.merger';
export { exportKind, parseDateRangeText } from './exports.crosscheck';
export { writeProcessedCsv } from './processed-csv.writer';

/** Options of {@link parseAndMergeExports}. */
export interface TParseAndMergeOptions extends TParseOptions {
  /**
   * The parse threads: both files are parsed there, at the same time (see `ExportParsePool`),
   * and this thread only reads them. Default: none, the files are parsed one after the other
   * here.
   */
  pool?: ExportParsePool | null;
}

/**
 * Parses whichever exports were uploaded and merges them (docs/product.md#merging-exports). Without
 * `options.pool` the two files are parsed one after the other, so at most one upload stream
 * is read at a time; with it, both at once in the pool's threads. `options` go to each
 * `parseExport` (its `pause` is also awaited between the two on this thread; the threads
 * pause on their own).
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
  const { pool, ...parseOptions } = options;
  try {
    if (pool) {
      const { maxRows, maxColumns, pauseEveryMs } = parseOptions;
      const parse = (field: TUploadField, input: Readable | null | undefined) =>
        input
          ? pool.parse(input, field, { maxRows, maxColumns, pauseEveryMs })
          : Promise.resolve(null);
      const parses = [
        parse('conversionCSV', files.conversionCSV),
        parse('redownloadsCSV', files.redownloadsCSV),
      ] as const;
      const parsed = Promise.all(parses);
      // This thread waits meanwhile: it pauses as a parse here would (the caller's pause
      // renews the job's lock and stops the merge on its budget or cancel mark).
      let waiting = true;
      const pausing = (async () => {
        while (waiting) {
          await delay(pauseEveryMs ?? PAUSE_EVERY_MS);
          if (waiting) await (parseOptions.pause ?? nextTurn)();
        }
      })();
      try {
        const [conversion, redownloads] = await Promise.race([parsed, pausing.then(() => parsed)]);
        return mergeExports({ conversion, redownloads });
      } catch (error) {
        // The first failure stops the other parse (its stream closed), and is thrown once
        // both have ended: no parse outlives the merge.
        for (const stream of [files.conversionCSV, files.redownloadsCSV]) stream?.destroy();
        await Promise.allSettled(parses);
        throw error;
      } finally {
        waiting = false;
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
