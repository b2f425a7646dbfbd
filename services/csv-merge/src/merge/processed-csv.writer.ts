import { writeDatasetCsv } from '@aso/db';
import type { MergedDataset } from './exports.merger';

/**
 * The processed CSV of a merged dataset (docs/product.md#reading-datasets) as one string: the bytes
 * `GET /api/download-merged/{id}` streams for the stored dataset (`writeDatasetCsv` of
 * @aso/db: formula-escaped text, numbers plain, missing values empty, LF line ends). The
 * worker no longer stores it (docs/BENCHMARKS.md); tests compare downloads with it.
 */
export function writeProcessedCsv(merged: Pick<MergedDataset, 'headers' | 'rowArrays'>): string {
  return writeDatasetCsv(merged.headers, merged.rowArrays());
}
