import { stringify } from 'csv-stringify/sync';
import type { TChartCell } from '@aso/contracts';
import type { TMergedDataset } from './exports.merger';

const FORMULA_START = /^[=+\-@\t\r]/;
const BARE_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Neutralises a text cell that a spreadsheet would run as a formula (issue 6 point 4; OWASP
 * "CSV Injection"): text beginning with '=', '+', '-', '@', tab or CR gets a leading single
 * quote. A bare number such as '-12.5' is data, not a formula, and stays as it is.
 */
export function escapeFormulaText(text: string): string {
  if (!FORMULA_START.test(text) || BARE_NUMBER.test(text)) return text;
  return `'${text}`;
}

/** One cell as CSV text: numbers as written by JS, missing values empty, text escaped. */
export function csvCellText(value: TChartCell | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return escapeFormulaText(value);
}

/**
 * The processed CSV of a merged dataset (issue 6 points 3 and 4), written with csv-stringify:
 * a header row, then one line per row in dataset order; numbers plain (1234, -5, 12.5),
 * missing values empty, text cells and header names escaped against formula injection
 * ({@link escapeFormulaText}). UTF-8 without BOM, LF line ends, quotes only where needed.
 */
export function writeProcessedCsv(merged: Pick<TMergedDataset, 'headers' | 'rows'>): string {
  const records: string[][] = [merged.headers.map(escapeFormulaText)];
  for (const row of merged.rows) records.push(merged.headers.map((h) => csvCellText(row[h])));
  return stringify(records);
}
