/**
 * 'export CSV' (docs/product.md#dashboard-tab): the rows of the applied range as a CSV file made in
 * the browser, columns in the dataset's order.
 */
import type { TDatedRow } from '@aso/analytics';
import { csvCellText, escapeFormulaText, type TDateRange } from '@aso/contracts';
import { stringify } from 'csv-stringify/browser/esm/sync';

/**
 * One cell as written to the file: `csvCellText` of @aso/contracts, the rule of the processed
 * CSV download too (numbers as they are, null as empty, text a spreadsheet would run as a
 * formula prefixed with `'`); any other value is written as its JSON.
 */
export function exportCell(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'number') return csvCellText(value);
  return csvCellText(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The CSV text of `entries` with a header row of `headers`, escaped like the cells (CRLF line
 * ends, RFC 4180 quoting by csv-stringify).
 */
export function buildExportCsv(headers: readonly string[], entries: readonly TDatedRow[]): string {
  const records = entries.map((e) => headers.map((h) => exportCell(e.row[h])));
  return stringify([headers.map(escapeFormulaText), ...records], { record_delimiter: 'windows' });
}

/** Characters kept in file names; anything else becomes '-'. */
function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^\w]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'dashboard'
  );
}

/** File name of an export: `<app>-<territory>-<start>_<end>.csv`. */
export function exportFileName(
  appName: string | null,
  territory: string | null,
  range: TDateRange,
): string {
  const parts = [appName, territory].filter((p): p is string => !!p && p.trim() !== '').map(slug);
  const base = parts.length > 0 ? parts.join('-') : 'dashboard';
  return `${base}-${range.start}_${range.end}.csv`;
}
