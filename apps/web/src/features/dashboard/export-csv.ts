/**
 * 'export CSV' (spec section 2): the rows of the applied range as a CSV file made in the
 * browser, columns in the dataset's order.
 */
import type { TDatedRow } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';
import { stringify } from 'csv-stringify/browser/esm/sync';

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * One cell as written to the file: numbers as they are, null as empty, text that a
 * spreadsheet would run as a formula prefixed with `'` (a bare negative number stays a number).
 */
export function exportCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `'${text}`;
  return text;
}

/**
 * The CSV text of `entries` with a header row of `headers` (CRLF line ends, RFC 4180 quoting by
 * csv-stringify).
 */
export function buildExportCsv(headers: readonly string[], entries: readonly TDatedRow[]): string {
  const records = entries.map((e) => headers.map((h) => exportCell(e.row[h])));
  return stringify([[...headers], ...records], { record_delimiter: 'windows' });
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

export { saveBlob } from '../../lib/file-download.rules';
